// Where a service listens and locks, and what its lock says.
#include <fcntl.h>
#include <sys/file.h>

#include "core/files.h"
#include "core/sha256.h"
#include "service/internal/socket.h"
#include "service/service.h"

namespace kebab::service {

Endpoint EndpointFor(const config::Config& config, const config::Environment& env) {
  Endpoint e;
  auto runtime = env.find("XDG_RUNTIME_DIR");
  e.socket_dir = runtime != env.end() && !runtime->second.empty()
                     ? runtime->second + "/kebab"
                     : config.storage.state_dir + "/run";
  e.socket = e.socket_dir + "/serve-" + Sha256Hex(config.storage.data_dir).substr(0, 16) + ".sock";
  e.lock = config.storage.data_dir + "/serve.lock";
  return e;
}

std::string ConfigFingerprint(const config::Config& config) {
  return Sha256Hex(config::ToJson(config).dump()).substr(0, 32);
}

std::optional<RunningService> FindRunning(const Endpoint& endpoint) {
  internal::Fd fd(::open(endpoint.lock.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  // A lock we can share is one no service holds.
  if (::flock(fd.get(), LOCK_SH | LOCK_NB) == 0) return std::nullopt;
  RunningService running;
  auto text = ReadFileUpTo(endpoint.lock, 64 * 1024);
  const nlohmann::json j =
      text.ok() ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
  if (j.is_object()) {
    running.pid = j.value("pid", 0L);
    running.socket = j.value("socket", std::string());
    running.started_at = j.value("started_at", std::string());
  }
  return running;
}

}  // namespace kebab::service
