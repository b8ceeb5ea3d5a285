#include "service/internal/socket.h"

#include <sys/socket.h>
#include <sys/un.h>

#include <cerrno>
#include <cstring>

namespace kebab::service::internal {

Status WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError(std::string("the service connection broke: ") + std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

Result<std::string> ReadLine(int fd) {
  std::string line;
  char buf[64 * 1024];
  for (;;) {
    // Peek, then take only up to the newline: one connection carries one line each way, and
    // what follows it (nothing, today) stays for the next read.
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_PEEK);
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError(std::string("the service connection broke: ") + std::strerror(errno));
    }
    if (n == 0) return IoError("the service connection closed before a whole line");
    const void* nl = std::memchr(buf, '\n', static_cast<size_t>(n));
    const size_t take =
        nl ? static_cast<size_t>(static_cast<const char*>(nl) - buf) + 1 : static_cast<size_t>(n);
    const ssize_t got = ::recv(fd, buf, take, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return IoError(std::string("the service connection broke: ") + std::strerror(errno));
    }
    line.append(buf, static_cast<size_t>(got));
    if (line.size() > kMaxLineBytes) return IoError("a service message passed 256 MiB");
    if (!line.empty() && line.back() == '\n') {
      line.pop_back();
      return line;
    }
  }
}

BlockStopSignals::BlockStopSignals() {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, &old_);
}

BlockStopSignals::~BlockStopSignals() {
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

Status CheckSocketPath(const std::string& path) {
  if (path.size() < sizeof(sockaddr_un{}.sun_path)) return Status::OK();
  return IoError("the service socket path is too long for a Unix socket: " + path,
                 "set XDG_RUNTIME_DIR (or XDG_STATE_HOME) to a shorter directory");
}

}  // namespace kebab::service::internal
