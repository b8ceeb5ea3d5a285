#include "service/internal/watcher.h"

#include <dirent.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

namespace kebab::service::internal {
namespace {

constexpr uint32_t kDirMask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM |
                              IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR |
                              IN_DONT_FOLLOW;

std::string Join(const std::string& dir, std::string_view name) {
  return dir.empty() ? std::string(name) : dir + "/" + std::string(name);
}

}  // namespace

Result<std::unique_ptr<Watcher>> Watcher::Start(const std::string& root, source::PathRules* rules) {
  Fd fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (!fd.valid()) return IoError(std::string("inotify: ") + std::strerror(errno));
  std::unique_ptr<Watcher> w(new Watcher(root, rules, std::move(fd)));
  if (!w->AddOne("")) {
    return IoError("cannot watch " + root + ": " + std::strerror(errno));
  }
  w->root_wd_ = w->dirs_.begin()->first;
  w->AddTree("");
  return w;
}

bool Watcher::AddOne(const std::string& ws) {
  const std::string abs = ws.empty() ? root_ : root_ + "/" + ws;
  const int wd = ::inotify_add_watch(fd_.get(), abs.c_str(), kDirMask);
  if (wd < 0) {
    if (errno == ENOSPC) limit_reached_ = true;
    return false;
  }
  dirs_[wd] = ws;
  return true;
}

void Watcher::AddTree(const std::string& ws) {
  std::vector<std::string> pending = {ws};
  while (!pending.empty()) {
    const std::string dir = std::move(pending.back());
    pending.pop_back();
    if (!dir.empty() && !AddOne(dir)) continue;
    const std::string abs = dir.empty() ? root_ : root_ + "/" + dir;
    DIR* d = ::opendir(abs.c_str());
    if (d == nullptr) continue;
    while (const dirent* e = ::readdir(d)) {
      const std::string_view name = e->d_name;
      if (name == "." || name == ".." || e->d_type != DT_DIR) continue;
      const std::string child = Join(dir, name);
      if (!rules_->Skips(child, true)) pending.push_back(child);
    }
    ::closedir(d);
  }
}

void Watcher::RemoveTree(const std::string& ws) {
  const std::string prefix = ws + "/";
  for (auto it = dirs_.begin(); it != dirs_.end();) {
    if (it->second == ws || it->second.starts_with(prefix)) {
      ::inotify_rm_watch(fd_.get(), it->first);
      it = dirs_.erase(it);
    } else {
      ++it;
    }
  }
}

void Watcher::Drain(WatchBatch* batch) {
  alignas(inotify_event) char buf[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd_.get(), buf, sizeof buf);
    if (n <= 0) return;  // EAGAIN: nothing more queued
    for (ssize_t at = 0; at < n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(buf + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
      if (ev->mask & IN_Q_OVERFLOW) {
        batch->overflow = true;
        continue;
      }
      if (ev->wd == root_wd_ && (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT))) {
        batch->root_gone = true;
        continue;
      }
      auto dir = dirs_.find(ev->wd);
      if (dir == dirs_.end()) continue;
      if (ev->mask & IN_IGNORED) {  // the folder went; its parent reports it
        dirs_.erase(dir);
        continue;
      }
      if (ev->len == 0) continue;  // about the folder itself: its parent reports it
      const std::string_view name(ev->name);
      const std::string path = Join(dir->second, name);
      const bool is_dir = (ev->mask & IN_ISDIR) != 0;
      if (!is_dir && (name == ".gitignore" || name == ".kebabignore")) {
        rules_->Forget();
        batch->rules_changed = true;
        continue;
      }
      if (is_dir && (ev->mask & IN_MOVED_FROM)) RemoveTree(path);
      if (rules_->Skips(path, is_dir)) continue;
      if (is_dir && (ev->mask & (IN_CREATE | IN_MOVED_TO))) AddTree(path);
      batch->paths.push_back(path);
    }
  }
}

}  // namespace kebab::service::internal
