#include "service/internal/watch.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <set>

#include "app/ingest.h"
#include "app/queries.h"
#include "core/time.h"
#include "service/internal/watcher.h"
#include "source/walker.h"

namespace kebab::service::internal {
namespace {

using State = app::WatchStatus::State;

// A burst is indexed at the latest this long after its first change, however long it lasts.
constexpr int kMaxBurstMs = 2000;
// How often a paused watch looks for its root, and how often a watch without notifications
// (the watch limit) scans when [watch] scan_interval does not say.
constexpr int kRootPollMs = 2000;
constexpr int kFallbackScanSeconds = 60;
constexpr size_t kKeptWarnings = 5;
// A burst of more changed files than this is read by a whole scan.
constexpr size_t kMaxEditedFiles = 5000;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string Summary(const app::IngestCounts& c) {
  std::string s;
  auto add = [&](int64_t n, const char* what) {
    if (n > 0) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(c.new_docs, "new");
  add(c.updated, "updated");
  add(c.purged, "purged");
  add(c.errors, "errors");
  return s.empty() ? "nothing changed" : s;
}

}  // namespace

WatchLoop::WatchLoop(app::Session& session, Log log)
    : session_(session), log_(std::move(log)), stop_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  status_.root = session_.config().workspace.root;
}

WatchLoop::~WatchLoop() {
  stop_ = true;
  const uint64_t one = 1;
  if (stop_fd_.valid()) (void)!::write(stop_fd_.get(), &one, sizeof one);
  if (thread_.joinable()) thread_.join();
}

void WatchLoop::Start() {
  if (!session_.config().watch.enabled) {
    log_("watch: off ([watch] enabled = false); run `kebab ingest` after changes");
    return;
  }
  if (session_.readonly()) {
    log_("watch: off (read-only service)");
    return;
  }
  SetState(State::kStarting);
  thread_ = std::thread([this] { Run(); });
}

app::WatchStatus WatchLoop::Status() const {
  std::lock_guard lock(mu_);
  return status_;
}

void WatchLoop::SetState(State state) {
  std::lock_guard lock(mu_);
  status_.state = state;
}

void WatchLoop::Warn(const std::string& line) {
  log_("watch: " + line);
  std::lock_guard lock(mu_);
  status_.warnings.push_back(line);
  if (status_.warnings.size() > kKeptWarnings) status_.warnings.erase(status_.warnings.begin());
}

bool WatchLoop::Wait(int fd, int ms) {
  pollfd fds[2] = {{stop_fd_.get(), POLLIN, 0}, {fd, POLLIN, 0}};
  const int ready = ::poll(fds, fd >= 0 ? 2 : 1, ms);
  return ready > 0 && fd >= 0 && (fds[1].revents & POLLIN) != 0 && !stop_;
}

std::vector<std::string> WatchLoop::EditedFiles(const WatchBatch& batch) {
  const config::Config& config = session_.config();
  if (batch.overflow || batch.rules_changed || batch.paths.size() > kMaxEditedFiles) return {};
  const std::set<std::string> unique(batch.paths.begin(), batch.paths.end());
  std::vector<std::string> paths(unique.begin(), unique.end()), files;
  for (const std::string& ws : paths) {
    const std::string abs = config.workspace.root + "/" + ws;
    struct stat st {};
    if (::stat(abs.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_size > config.ingest.max_file_bytes) {
      return {};
    }
    files.push_back(abs);
  }
  Result<std::vector<bool>> indexed = app::AreIndexed(session_, paths);
  if (!indexed.ok()) return {};
  for (bool known : *indexed) {
    if (!known) return {};
  }
  return files;
}

bool WatchLoop::Update(const std::string& why, std::vector<std::string> edited) {
  const config::Config& config = session_.config();
  if (!IsDirectory(config.workspace.root)) return false;
  SetState(State::kUpdating);
  app::IngestOptions options;
  options.summary_only = true;
  options.explicit_files = std::move(edited);
  const int64_t started = NowMs();
  Result<app::IngestReport> report = app::Ingest(session_, options, nullptr, &stop_);
  const int64_t ms = NowMs() - started;
  if (!report.ok()) {
    Warn("update failed (" + why + "): " + report.status().message());
    return IsDirectory(config.workspace.root);
  }
  // A warning that stands (an unreadable folder) is said once, not at every update.
  for (const std::string& w : report->warnings) {
    if (warned_.insert(w).second) Warn(w);
  }
  const app::IngestCounts& c = report->counts;
  if (c.new_docs + c.updated + c.purged + c.errors > 0) {
    log_("watch: " + why + ": " + Summary(c) + " in " + std::to_string(ms) + " ms");
  }
  std::lock_guard lock(mu_);
  ++status_.updates;
  status_.last_update_at = NowRfc3339();
  status_.last_counts = c;
  return true;
}

void WatchLoop::Run() {
  const config::Config& config = session_.config();
  const std::string& root = config.workspace.root;
  source::PathRules rules(root, config.workspace.exclude, config.watch.ignore);
  std::unique_ptr<Watcher> watcher;
  bool paused = false;
  // Scans while notifications see everything: [watch] scan_interval (0: none); without them
  // (inotify unavailable, the watch limit reached) at least every kFallbackScanSeconds.
  const int fallback_seconds =
      config.watch.scan_interval > 0 ? config.watch.scan_interval : kFallbackScanSeconds;
  int scan_seconds = config.watch.scan_interval;  // the interval in effect
  int64_t next_scan = -1;  // steady ms of the next periodic scan, -1 for none
  auto scan_every = [&](int seconds) {
    scan_seconds = seconds;
    next_scan = seconds > 0 ? NowMs() + int64_t{seconds} * 1000 : -1;
  };
  auto pause = [&] {
    if (!paused) {
      Warn("the workspace root " + root +
           " is gone (an unmounted disk, a moved folder?): watching paused, nothing purged; it "
           "resumes when the root is back");
    }
    paused = true;
    watcher.reset();
    std::lock_guard lock(mu_);
    status_.state = State::kPaused;
    status_.notifications = false;
    status_.directories = 0;
  };
  auto start_watching = [&]() -> bool {
    Result<std::unique_ptr<Watcher>> started = Watcher::Start(root, &rules);
    if (!started.ok()) {
      Warn(started.status().message() + "; scanning every " + std::to_string(fallback_seconds) +
           " s instead");
      scan_every(fallback_seconds);
      return false;
    }
    watcher = std::move(started).value();
    if (watcher->limit_reached()) {
      Warn("the inotify watch limit was reached after " + std::to_string(watcher->directories()) +
           " folders: changes in the others are seen by a scan every " +
           std::to_string(fallback_seconds) +
           " s; raise it with `sysctl fs.inotify.max_user_watches=524288`");
      scan_every(fallback_seconds);
    } else {
      scan_every(config.watch.scan_interval);
    }
    std::lock_guard lock(mu_);
    status_.notifications = true;
    status_.directories = watcher->directories();
    return true;
  };

  // Watching starts before the catch-up scan, so nothing saved during it is missed.
  if (IsDirectory(root)) start_watching();
  if (!Update("catch-up at start")) pause();
  while (!stop_) {
    if (paused) {
      Wait(-1, kRootPollMs);
      if (stop_ || !IsDirectory(root)) continue;
      paused = false;
      log_("watch: the workspace root " + root + " is back; catching up");
      start_watching();
      if (!Update("the root came back")) pause();
      continue;
    }
    SetState(State::kWatching);
    const int fd = watcher ? watcher->fd() : -1;
    const int timeout =
        next_scan < 0 ? -1 : static_cast<int>(std::max<int64_t>(0, next_scan - NowMs()));
    if (!Wait(fd, timeout)) {
      if (stop_) break;
      if (next_scan >= 0 && NowMs() >= next_scan) {
        scan_every(scan_seconds);
        if (!Update("periodic scan")) pause();
      }
      continue;
    }
    // A burst: gather until debounce_ms pass without a change, or kMaxBurstMs since its start.
    WatchBatch batch;
    const int64_t burst_start = NowMs();
    watcher->Drain(&batch);
    for (;;) {
      const int64_t left = kMaxBurstMs - (NowMs() - burst_start);
      if (left <= 0 || stop_) break;
      if (!Wait(fd, static_cast<int>(std::min<int64_t>(config.watch.debounce_ms, left)))) break;
      watcher->Drain(&batch);
    }
    if (stop_) break;
    if (batch.root_gone || !IsDirectory(root)) {
      pause();
      continue;
    }
    if (batch.overflow) Warn("the change queue overflowed; scanning the whole workspace");
    {
      std::lock_guard lock(mu_);
      status_.directories = watcher->directories();
    }
    if (!batch.relevant()) continue;
    std::vector<std::string> edited = EditedFiles(batch);
    const std::set<std::string> paths(batch.paths.begin(), batch.paths.end());
    const std::string why = paths.size() == 1 ? *paths.begin()
                            : paths.empty()   ? std::string("ignore rules changed")
                                              : std::to_string(paths.size()) + " paths changed";
    if (!Update(why, std::move(edited))) pause();
  }
  SetState(State::kOff);
}

}  // namespace kebab::service::internal
