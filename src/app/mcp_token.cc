#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "app/admin.h"
#include "core/ids.h"

namespace kebab::app {
namespace {

constexpr size_t kMinTokenChars = 16;

}  // namespace

Result<McpToken> ResolveMcpToken(const config::Config& config, std::optional<std::string> given,
                                 std::string given_source) {
  if (given && !given->empty()) {
    if (given->size() < kMinTokenChars) {
      return InvalidInput(given_source + " is " + std::to_string(given->size()) +
                              " characters; a bearer token needs at least " +
                              std::to_string(kMinTokenChars),
                          "leave it out and kebab keeps a random one in the state directory");
    }
    return McpToken{*given, std::move(given_source), false};
  }
  namespace fs = std::filesystem;
  const fs::path file = fs::path(config.storage.state_dir) / "mcp-token";
  if (std::ifstream in(file); in) {
    std::string token;
    std::getline(in, token);
    if (token.size() >= kMinTokenChars) return McpToken{token, file.string(), false};
    return IoError(file.string() + " holds no usable token",
                   "delete it and kebab mcp --http writes a new one");
  }
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  const std::string token = RandomHex(32);
  // O_EXCL: two servers starting at once must not each write a different token.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return ResolveMcpToken(config, std::nullopt, "");
    return IoError("cannot create " + file.string() + ": " + std::strerror(errno),
                   "check the state directory's permissions, or pass --token");
  }
  const std::string line = token + "\n";
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  if (!written) return IoError("cannot write " + file.string());
  return McpToken{token, file.string(), true};
}

}  // namespace kebab::app
