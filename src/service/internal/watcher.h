// A recursive inotify watch of a workspace: every folder the walker would enter (PathRules),
// new ones added as they appear, and what changed under them read as workspace paths. It only
// says what changed; the watch loop (watch.h) decides when to index. Module-private to service.
// Thread safety: one owner thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "service/internal/socket.h"
#include "source/walker.h"

namespace kebab::service::internal {

// What one read of the queue found.
struct WatchBatch {
  std::vector<std::string> paths;  // workspace paths created, written, deleted or moved
  bool overflow = false;           // the kernel dropped events: anything may have changed
  bool root_gone = false;          // the root was deleted, moved away or unmounted
  bool rules_changed = false;      // a .gitignore or .kebabignore changed

  bool relevant() const { return !paths.empty() || overflow || rules_changed; }
};

class Watcher {
 public:
  // Watches `root` and the folders under it that `rules` do not skip. io_error when inotify is
  // not available or the root cannot be watched.
  static Result<std::unique_ptr<Watcher>> Start(const std::string& root, source::PathRules* rules);

  int fd() const { return fd_.get(); }
  size_t directories() const { return dirs_.size(); }
  // The user's inotify watch limit (fs.inotify.max_user_watches) was reached: some folders are
  // not watched, and only scans see changes there.
  bool limit_reached() const { return limit_reached_; }

  // Reads the events already queued, without waiting, into `batch`.
  void Drain(WatchBatch* batch);

 private:
  Watcher(std::string root, source::PathRules* rules, Fd fd)
      : root_(std::move(root)), rules_(rules), fd_(std::move(fd)) {}
  // Watches folder `ws` ("" for the root) and the folders under it.
  void AddTree(const std::string& ws);
  bool AddOne(const std::string& ws);
  // Stops watching folder `ws` and those under it (it moved away).
  void RemoveTree(const std::string& ws);

  const std::string root_;
  source::PathRules* rules_;
  Fd fd_;
  std::map<int, std::string> dirs_;  // watch descriptor -> the folder's workspace path
  int root_wd_ = -1;
  bool limit_reached_ = false;
};

}  // namespace kebab::service::internal
