// The service's side: the lock, the socket, and a thread per connection calling app/api.h.
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <list>
#include <mutex>
#include <thread>

#include "app/admin.h"
#include "app/api.h"
#include "app/wire.h"
#include "core/time.h"
#include "service/internal/socket.h"
#include "service/internal/watch.h"
#include "service/service.h"

namespace kebab::service {
namespace {

using nlohmann::json;

std::string Errno(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// Makes `dir` (and its parents) and insists it is the user's alone: the socket in it is.
Status PrepareSocketDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("cannot create " + dir + ": " + ec.message());
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return IoError(Errno("cannot stat " + dir));
  if (st.st_uid != ::geteuid()) {
    return IoError(dir +
                       " belongs to another user; the service's socket must be in a directory "
                       "of yours",
                   "set XDG_RUNTIME_DIR to a directory of yours");
  }
  if ((st.st_mode & 077) != 0 && ::chmod(dir.c_str(), 0700) != 0) {
    return IoError(Errno("cannot make " + dir + " private (0700)"));
  }
  return Status::OK();
}

uint64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

class Server {
 public:
  Server(app::Session& session, const Endpoint& endpoint, const ServeOptions& options)
      : session_(session),
        endpoint_(endpoint),
        options_(options),
        fingerprint_(ConfigFingerprint(session.config())),
        started_(std::chrono::steady_clock::now()),
        started_at_(NowRfc3339()) {}

  Status Run(const std::atomic<bool>& stop) {
    KEBAB_RETURN_IF_ERROR(TakeLock());
    KEBAB_RETURN_IF_ERROR(Listen());
    Log("serving " + session_.config().storage.data_dir + " on " + endpoint_.socket + " (pid " +
        std::to_string(::getpid()) + ")");
    if (options_.on_listening) options_.on_listening();
    if (options_.watch) {
      const internal::BlockStopSignals blocked;
      watch_ = std::make_unique<internal::WatchLoop>(session_, options_.log);
      watch_->Start();
    }
    while (!stop.load()) {
      // Ctrl-C interrupts this poll (the other threads have the stop signals blocked); the
      // timeout is for a stop set some other way, and for joining finished calls' threads.
      pollfd p{listener_.get(), POLLIN, 0};
      const int ready = ::poll(&p, 1, 2000);
      if (ready < 0 && errno != EINTR) return IoError(Errno("poll on the service socket"));
      JoinFinished();
      if (ready <= 0) continue;
      internal::Fd conn(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
      if (!conn.valid()) continue;
      if (!SamePeer(conn.get())) continue;
      Start(std::move(conn));
    }
    listener_.Reset();
    ::unlink(endpoint_.socket.c_str());
    {
      std::unique_lock lock(mu_);
      idle_.wait(lock, [&] { return threads_.empty(); });
    }
    JoinFinished();
    // After the calls: a status call reads it.
    watch_.reset();
    // The lock goes with the process; its text would name a service that is gone.
    if (::ftruncate(lock_.get(), 0) != 0) Log(Errno("cannot clear " + endpoint_.lock));
    Log("stopped");
    return Status::OK();
  }

 private:
  void Log(const std::string& line) const {
    if (options_.log) options_.log(line);
  }

  Status TakeLock() {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(endpoint_.lock).parent_path(), ec);
    lock_ = internal::Fd(::open(endpoint_.lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (!lock_.valid()) return IoError(Errno("cannot open " + endpoint_.lock));
    if (::flock(lock_.get(), LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK) return IoError(Errno("cannot lock " + endpoint_.lock));
      std::string who = "another service";
      std::ifstream in(endpoint_.lock);
      const json j = json::parse(in, nullptr, false);
      if (j.is_object() && j.contains("pid")) {
        who = "pid " + std::to_string(j.value("pid", 0L)) + ", since " +
              j.value("started_at", std::string("?")) + ", socket " +
              j.value("socket", std::string("?"));
      }
      return IoError(
          "a service already runs for " + session_.config().storage.data_dir + " (" + who + ")",
          "`kebab status` shows it; stop it (Ctrl-C where it runs, or kill PID) before "
          "starting another");
    }
    const std::string text = json{{"pid", ::getpid()},
                                  {"socket", endpoint_.socket},
                                  {"started_at", started_at_},
                                  {"data_dir", session_.config().storage.data_dir}}
                                 .dump() +
                             "\n";
    if (::ftruncate(lock_.get(), 0) != 0 ||
        ::pwrite(lock_.get(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
      return IoError(Errno("cannot write " + endpoint_.lock));
    }
    return Status::OK();
  }

  Status Listen() {
    KEBAB_RETURN_IF_ERROR(PrepareSocketDir(endpoint_.socket_dir));
    KEBAB_RETURN_IF_ERROR(internal::CheckSocketPath(endpoint_.socket));
    // We hold the lock, so a socket there is one a killed service left.
    ::unlink(endpoint_.socket.c_str());
    listener_ = internal::Fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!listener_.valid()) return IoError(Errno("cannot make a Unix socket"));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, endpoint_.socket.c_str(), endpoint_.socket.size() + 1);
    // Made 0600 from the start: no moment in which another user could connect.
    const mode_t old = ::umask(077);
    const int bound = ::bind(listener_.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::umask(old);
    if (bound != 0) return IoError(Errno("cannot bind " + endpoint_.socket));
    // Read and write is what connecting takes; no one needs to execute a socket.
    if (::chmod(endpoint_.socket.c_str(), 0600) != 0) {
      return IoError(Errno("cannot make " + endpoint_.socket + " private (0600)"));
    }
    if (::listen(listener_.get(), 64) != 0) return IoError(Errno("cannot listen on the socket"));
    return Status::OK();
  }

  // The socket's permissions already keep others out; the peer's uid is checked all the same
  // (a directory made by hand with wider rights).
  bool SamePeer(int fd) const {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != ::geteuid()) {
      Log("refused a connection from uid " + std::to_string(cred.uid));
      return false;
    }
    return true;
  }

  void Start(internal::Fd conn) {
    const internal::BlockStopSignals blocked;
    std::lock_guard lock(mu_);
    ++in_flight_;
    threads_.emplace_back();
    auto it = std::prev(threads_.end());
    *it = std::thread([this, it, fd = std::move(conn)]() mutable {
      Handle(fd.get());
      fd.Reset();
      std::lock_guard done(mu_);
      --in_flight_;
      ++requests_;
      finished_.splice(finished_.end(), threads_, it);
      idle_.notify_all();
    });
  }

  void JoinFinished() {
    std::list<std::thread> finished;
    {
      std::lock_guard lock(mu_);
      finished.swap(finished_);
    }
    for (std::thread& t : finished) t.join();
  }

  void Handle(int fd) {
    json reply = {{"pid", ::getpid()}};
    Result<std::string> line = internal::ReadLine(fd);
    if (!line.ok()) return;  // the client went away
    const json request = json::parse(*line, nullptr, /*allow_exceptions=*/false);
    if (!request.is_object() || !request.contains("op") || !request["op"].is_string()) {
      reply["error"] =
          app::wire::Error(InvalidInput("not a service request: " + line->substr(0, 80)));
    } else if (request["op"] != "status" &&
               request.value("config", std::string()) != fingerprint_) {
      reply["config_mismatch"] = true;
    } else {
      const std::string op = request["op"];
      const json args = request.value("args", json::object());
      Result<json> result = op == "status" ? Result<json>(StatusJson()) : Call(fd, op, args);
      if (result.ok()) {
        reply["result"] = std::move(*result);
      } else {
        reply["error"] = app::wire::Error(result.status());
        if (result.status().code() == ErrorCode::kIoError ||
            result.status().code() == ErrorCode::kCorrupt) {
          Log(op + ": " + result.status().message());
        }
      }
    }
    const std::string text = reply.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    (void)internal::WriteAll(fd, text);
  }

  Result<json> Call(int fd, const std::string& op, const json& args) {
    const app::api::Operation* operation = app::api::FindOperation(op);
    app::api::CallContext context;
    std::atomic<bool> cancel{false};
    std::thread listener;
    std::mutex write_mu;
    if (operation != nullptr && operation->reports_progress) {
      context.cancel = &cancel;
      context.on_event = [&](const json& event) {
        const std::string line =
            json{{"event", event}}.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
        std::lock_guard lock(write_mu);
        // A client that went away cancels; the call ends at its next document.
        if (!internal::WriteAll(fd, line).ok()) cancel = true;
      };
      // A cancel line or the client hanging up stops the operation.
      listener = std::thread([fd, &cancel] {
        (void)internal::ReadLine(fd);
        cancel = true;
      });
    }
    Result<json> result = [&]() -> Result<json> {
      // A third-party exception must not end the service.
      try {
        return app::api::Call(session_, op, args, context);
      } catch (const std::exception& e) {
        return GenericError(op + " failed: " + e.what());
      }
    }();
    if (listener.joinable()) {
      ::shutdown(fd, SHUT_RD);  // ends the listener's read
      listener.join();
    }
    return result;
  }

  json StatusJson() {
    app::StatusReport report;
    report.data_dir = session_.config().storage.data_dir;
    report.config_path = session_.config().config_path;
    app::ServiceStatus& s = report.service;
    s.running = true;
    s.pid = ::getpid();
    s.started_at = started_at_;
    s.socket = endpoint_.socket;
    s.uptime_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    {
      std::lock_guard lock(mu_);
      s.requests = requests_;
      s.in_flight = in_flight_;
    }
    s.rss_bytes = ResidentBytes();
    s.loaded = session_.Resources();
    if (watch_) s.watch = watch_->Status();
    return app::wire::StatusReport(report);
  }

  app::Session& session_;
  const Endpoint endpoint_;
  const ServeOptions options_;
  const std::string fingerprint_;
  const std::chrono::steady_clock::time_point started_;
  const std::string started_at_;
  internal::Fd lock_, listener_;
  std::unique_ptr<internal::WatchLoop> watch_;

  std::mutex mu_;
  // A connection's thread moves itself from threads_ to finished_ as it ends; the accept loop
  // joins those. Guarded by mu_.
  std::list<std::thread> threads_, finished_;
  std::condition_variable idle_;  // threads_ became empty
  int in_flight_ = 0;
  uint64_t requests_ = 0;
};

}  // namespace

Status Serve(app::Session& session, const Endpoint& endpoint, const ServeOptions& options,
             const std::atomic<bool>& stop) {
  return Server(session, endpoint, options).Run(stop);
}

}  // namespace kebab::service
