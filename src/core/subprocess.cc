#include "core/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace kebab {
namespace {

constexpr size_t kStderrTail = 4096;

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { Close(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void Reset(int fd) {
    Close();
    fd_ = fd;
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  void Release() { fd_ = -1; }

 private:
  int fd_ = -1;
};

Status Pipe(Fd* read_end, Fd* write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return IoError(std::string("pipe: ") + std::strerror(errno));
  read_end->Reset(fds[0]);
  write_end->Reset(fds[1]);
  return Status::OK();
}

// write(2) to a pipe whose reader is gone raises SIGPIPE, whose default action would end
// kebab: block it in this thread for the write (SIGPIPE from a write goes to the writing
// thread) and discard the one the write raised, leaving EPIPE.
ssize_t WriteWithoutSigpipe(int fd, std::string_view data) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  const ssize_t w = ::write(fd, data.data(), data.size());
  if (w < 0 && errno == EPIPE) {
    const timespec zero = {0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
    }
    errno = EPIPE;
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return w;
}

}  // namespace

std::string ExecutableDir() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.parent_path().string();
}

Result<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv, std::string_view input,
                                       std::chrono::milliseconds timeout,
                                       const std::function<bool(std::string_view line)>& on_line) {
  Fd in_r, in_w, out_r, out_w, err_r, err_w;
  KEBAB_RETURN_IF_ERROR(Pipe(&in_r, &in_w));
  KEBAB_RETURN_IF_ERROR(Pipe(&out_r, &out_w));
  KEBAB_RETURN_IF_ERROR(Pipe(&err_r, &err_w));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_r.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_w.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_w.get(), 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return IoError("cannot start " + argv[0] + ": " + std::strerror(rc));
  in_r.Close();
  out_w.Close();
  err_w.Close();
  ::fcntl(in_w.get(), F_SETFL, O_NONBLOCK);

  SubprocessResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  size_t written = 0;
  if (input.empty()) in_w.Close();
  std::string pending;  // stdout bytes after the last newline
  bool out_open = true, err_open = true, killed = false;
  char buf[65536];
  while (out_open || err_open) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 && !killed) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      killed = true;
    }
    pollfd fds[3];
    nfds_t n = 0;
    const int out_i = out_open ? static_cast<int>(n++) : -1;
    if (out_i >= 0) fds[out_i] = {out_r.get(), POLLIN, 0};
    const int err_i = err_open ? static_cast<int>(n++) : -1;
    if (err_i >= 0) fds[err_i] = {err_r.get(), POLLIN, 0};
    const int in_i = in_w.get() >= 0 ? static_cast<int>(n++) : -1;
    if (in_i >= 0) fds[in_i] = {in_w.get(), POLLOUT, 0};
    const int wait_ms = killed ? 1000 : static_cast<int>(std::max<int64_t>(1, left.count()));
    if (::poll(fds, n, wait_ms) < 0 && errno != EINTR) break;
    if (in_i >= 0 && (fds[in_i].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t w = WriteWithoutSigpipe(in_w.get(), input.substr(written));
      if (w > 0) written += static_cast<size_t>(w);
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) in_w.Close();
    }
    if (out_i >= 0 && (fds[out_i].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t r = ::read(out_r.get(), buf, sizeof(buf));
      if (r <= 0) {
        if (r == 0 || (errno != EINTR && errno != EAGAIN)) out_open = false;
      } else {
        pending.append(buf, static_cast<size_t>(r));
        size_t start = 0;
        for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
          if (!killed && !on_line(std::string_view(pending).substr(start, nl - start))) {
            result.stopped = true;
            ::kill(pid, SIGKILL);
            killed = true;
          }
        }
        pending.erase(0, start);
      }
    }
    if (err_i >= 0 && (fds[err_i].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t r = ::read(err_r.get(), buf, sizeof(buf));
      if (r <= 0) {
        if (r == 0 || (errno != EINTR && errno != EAGAIN)) err_open = false;
      } else {
        result.stderr_tail.append(buf, static_cast<size_t>(r));
        if (result.stderr_tail.size() > kStderrTail) {
          result.stderr_tail.erase(0, result.stderr_tail.size() - kStderrTail);
        }
      }
    }
    if (killed && left.count() < -5000) break;  // a child that ignores SIGKILL's pipes
  }
  if (!killed && !pending.empty()) on_line(pending);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::Start(const std::vector<std::string>& argv) {
  Fd in_r, in_w, out_r, out_w, err_r, err_w;
  KEBAB_RETURN_IF_ERROR(Pipe(&in_r, &in_w));
  KEBAB_RETURN_IF_ERROR(Pipe(&out_r, &out_w));
  KEBAB_RETURN_IF_ERROR(Pipe(&err_r, &err_w));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_r.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_w.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_w.get(), 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return IoError("cannot start " + argv[0] + ": " + std::strerror(rc));
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  child->pid_ = pid;
  child->in_ = in_w.get();
  child->out_ = out_r.get();
  child->err_ = err_r.get();
  in_w.Release();
  out_r.Release();
  err_r.Release();
  ::fcntl(child->in_, F_SETFL, O_NONBLOCK);
  return child;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) Reap(/*kill=*/false);
}

std::string ChildProcess::Reap(bool kill) {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
  int status = 0;
  if (kill) ::kill(pid_, SIGKILL);
  // A child told its input is over exits at once; one that does not within a second is
  // killed.
  for (int i = 0; !kill && i < 100; ++i) {
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      break;
    }
    ::usleep(10000);
  }
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = -1;
  for (int* fd : {&out_, &err_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  std::string how = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                        : "exit " + std::to_string(WEXITSTATUS(status));
  if (!stderr_tail_.empty()) {
    std::string tail = stderr_tail_;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
    how += ": " + tail.substr(tail.rfind('\n') == std::string::npos ? 0 : tail.rfind('\n') + 1);
  }
  return how;
}

Result<std::string> ChildProcess::Exchange(std::string_view request,
                                           std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return IoError("the worker has ended");
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  size_t written = 0;
  char buf[65536];
  while (true) {
    if (size_t nl = pending_.find('\n'); nl != std::string::npos && written == request.size()) {
      std::string line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      Reap(/*kill=*/true);
      return Status(ErrorCode::kTimeout, "the worker gave no answer within " +
                                             std::to_string(timeout.count() / 1000) +
                                             " s and was stopped");
    }
    pollfd fds[3] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}, {in_, POLLOUT, 0}};
    const nfds_t n = written < request.size() ? 3 : 2;
    if (::poll(fds, n, static_cast<int>(left.count())) < 0 && errno != EINTR) {
      return IoError(std::string("poll: ") + std::strerror(errno));
    }
    if (n == 3 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t w = WriteWithoutSigpipe(in_, request.substr(written));
      if (w > 0) written += static_cast<size_t>(w);
      if (w < 0 && errno != EAGAIN && errno != EINTR) {
        return IoError("the worker stopped reading (" + Reap(/*kill=*/true) + ")");
      }
    }
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t r = ::read(err_, buf, sizeof(buf));
      if (r == 0) {  // stderr closed: poll would report it at once every time
        ::close(err_);
        err_ = -1;
      } else if (r > 0) {
        stderr_tail_.append(buf, static_cast<size_t>(r));
        if (stderr_tail_.size() > kStderrTail) {
          stderr_tail_.erase(0, stderr_tail_.size() - kStderrTail);
        }
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t r = ::read(out_, buf, sizeof(buf));
      if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
        return IoError("the worker ended (" + Reap(/*kill=*/false) + ")");
      }
      if (r > 0) pending_.append(buf, static_cast<size_t>(r));
    }
  }
}

std::string FindHelper(const std::string& exe_dir, std::string_view name) {
  // Relative to the executable, so an installed tree works wherever its prefix is; the install
  // rules (cmake/Install.cmake) put the workers there.
  const std::filesystem::path installed =
      (std::filesystem::path(exe_dir) / "../libexec/kebab" / name).lexically_normal();
  std::error_code ec;
  if (std::filesystem::exists(installed, ec)) return installed.string();
  return (std::filesystem::path(exe_dir) / name).string();
}

std::string HelperPath(const char* env_var, std::string_view name) {
  if (const char* env = std::getenv(env_var); env != nullptr && *env != '\0') return env;
  return FindHelper(ExecutableDir(), name);
}

}  // namespace kebab
