// The Unix-socket plumbing both ends of the service share: an owned file descriptor, whole
// writes, and reading one line. Module-private to service.
// Thread safety: a Fd is one thread's; the functions keep no state.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <string>
#include <string_view>
#include <utility>

#include "core/status.h"

namespace kebab::service::internal {

// Closes its descriptor when it goes.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { Reset(); }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      Reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void Reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// The most a request or reply line may hold: a fetch of a whole document is the largest.
inline constexpr size_t kMaxLineBytes = 256u << 20;

// Writes all of `bytes` (retrying short writes and EINTR; no SIGPIPE). io_error when the peer
// went away.
Status WriteAll(int fd, std::string_view bytes);

// Reads up to and without the next '\n'. io_error when the peer closes first or the line
// passes kMaxLineBytes.
Result<std::string> ReadLine(int fd);

// A sockaddr_un path fits in 107 bytes; longer ones are refused with a hint.
Status CheckSocketPath(const std::string& path);

// While alive, SIGINT and SIGTERM are blocked in this thread, so the threads it starts inherit
// them blocked: Ctrl-C then interrupts the thread that waits for it (the accept loop's poll)
// instead of landing on a worker that does not look.
class BlockStopSignals {
 public:
  BlockStopSignals();
  ~BlockStopSignals();
  BlockStopSignals(const BlockStopSignals&) = delete;
  BlockStopSignals& operator=(const BlockStopSignals&) = delete;

 private:
  sigset_t old_;
};

}  // namespace kebab::service::internal
