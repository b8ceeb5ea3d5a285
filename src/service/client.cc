// The client's side: one connection per call.
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cerrno>
#include <cstring>

#include "app/wire.h"
#include "service/internal/socket.h"
#include "service/service.h"

namespace kebab::service {
namespace {

// error.v1 back into the Status it was made from.
Status StatusOf(const nlohmann::json& error) {
  const std::string name = error.value("code", std::string("generic"));
  ErrorCode code = ErrorCode::kGeneric;
  for (int c = 0; c <= static_cast<int>(ErrorCode::kCancelled); ++c) {
    if (ErrorCodeName(static_cast<ErrorCode>(c)) == name) code = static_cast<ErrorCode>(c);
  }
  const nlohmann::json& hint = error.contains("hint") ? error["hint"] : nlohmann::json();
  return Status(code, error.value("message", std::string("the service failed")),
                hint.is_string() ? hint.get<std::string>() : std::string());
}

}  // namespace

Result<std::optional<Reply>> Call(const Endpoint& endpoint, std::string_view op,
                                  const nlohmann::json& args, const std::string& fingerprint,
                                  const CallOptions& options) {
  if (!internal::CheckSocketPath(endpoint.socket).ok()) return std::optional<Reply>();
  internal::Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid())
    return IoError(std::string("cannot make a Unix socket: ") + std::strerror(errno));
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, endpoint.socket.c_str(), endpoint.socket.size() + 1);
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    // No socket, or one no process accepts on: no service.
    return std::optional<Reply>();
  }
  const nlohmann::json request = {{"op", op}, {"args", args}, {"config", fingerprint}};
  KEBAB_RETURN_IF_ERROR(internal::WriteAll(
      fd.get(), request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"));
  nlohmann::json j;
  bool cancel_sent = false;
  for (;;) {
    // Woken every 100 ms to pass on a cancel (Ctrl-C sets a flag; it cannot write here).
    if (options.cancel != nullptr && options.cancel->load() && !cancel_sent) {
      cancel_sent = true;
      (void)internal::WriteAll(fd.get(), "{\"cancel\":true}\n");
    }
    pollfd p{fd.get(), POLLIN, 0};
    if (::poll(&p, 1, 100) == 0) continue;
    KEBAB_ASSIGN_OR_RETURN(std::string line, internal::ReadLine(fd.get()));
    j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return IoError("the service answered with something that is not JSON");
    if (!j.contains("event")) break;
    if (options.on_event) options.on_event(j["event"]);
  }
  Reply reply;
  reply.pid = j.value("pid", 0L);
  if (j.value("config_mismatch", false)) {
    reply.config_mismatch = true;
  } else if (j.contains("error")) {
    reply.result = StatusOf(j["error"]);
  } else {
    reply.result = j.value("result", nlohmann::json());
  }
  return std::optional<Reply>(std::move(reply));
}

}  // namespace kebab::service
