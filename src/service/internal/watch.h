// The service's watch: keeps the index current as files change. A thread that waits on the
// inotify watch (watcher.h) and on nothing else while nothing changes (no polling), gathers a
// burst of changes until debounce_ms of quiet (a `git checkout`, an editor's save through a
// temporary file, is one update), then runs an incremental ingest: of just those files when the
// burst only edited indexed documents (a save), else of the whole workspace, where unchanged
// files cost a stat, changed ones are read again, deleted ones purged by ingest's rule (never a
// vanished root, never more than [ingest] max_purge_share at once without `--purge`). It starts
// with a catch-up scan. When the root goes (an unmounted disk) it pauses, purging nothing, and
// resumes with a catch-up scan when the root is back. A full kernel queue or the inotify watch
// limit means a scan and, for the limit, a warning naming fs.inotify.max_user_watches and a scan
// every [watch] scan_interval (60 s by default) from then on.
// Module-private to service. Thread safety: Status may be called from any thread.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "app/admin.h"
#include "app/session.h"
#include "service/internal/socket.h"
#include "service/internal/watcher.h"

namespace kebab::service::internal {

class WatchLoop {
 public:
  using Log = std::function<void(const std::string& line)>;
  WatchLoop(app::Session& session, Log log);
  // Stops the loop (an update running is cancelled between documents) and waits for it.
  ~WatchLoop();
  WatchLoop(const WatchLoop&) = delete;
  WatchLoop& operator=(const WatchLoop&) = delete;

  // Starts the thread; does nothing when [watch] enabled = false or the session is read-only.
  void Start();
  app::WatchStatus Status() const;

 private:
  void Run();
  // Runs one incremental ingest, of `edited` files only when given (else of the whole
  // workspace); false when the root is gone.
  bool Update(const std::string& why, std::vector<std::string> edited = {});
  // The files of `batch` when it holds only edits of indexed documents: existing regular files
  // within the size cap, no folder, no ignore file, nothing missing. Those need no scan: the
  // walker's rules took them in before. Empty when the batch needs a scan.
  std::vector<std::string> EditedFiles(const WatchBatch& batch);
  // Waits up to `ms` (-1: for ever) for the stop signal or `fd` (-1: none) to be readable;
  // true when `fd` is.
  bool Wait(int fd, int ms);
  void SetState(app::WatchStatus::State state);
  void Warn(const std::string& line);

  app::Session& session_;
  const Log log_;
  Fd stop_fd_;  // an eventfd, written once to stop
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::set<std::string> warned_;  // the loop thread's

  mutable std::mutex mu_;
  app::WatchStatus status_;  // guarded by mu_
};

}  // namespace kebab::service::internal
