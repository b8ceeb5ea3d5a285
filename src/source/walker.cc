#include "source/walker.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <memory>
#include <variant>

#include "core/ids.h"
#include "core/unicode.h"
#include "source/ignore.h"
#include "source/internal/names.h"

namespace kebab::source {
namespace {

using internal::IsBlacklistedDir;
using internal::IsSilentlySkippedFile;
using internal::kGitignoreName;
using internal::kKebabignoreName;

// Key of skipped_by_extension: the lower-cased last extension with its dot, "(none)" when
// the name has none (a leading dot alone does not start an extension).
std::string ExtensionKey(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size()) return "(none)";
  std::string key(name.substr(dot));
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

// Ignore files of one kind from the root down to a directory; deeper lists come first so
// their patterns win, as in git.
struct IgnoreChain {
  IgnoreList list;
  std::shared_ptr<const IgnoreChain> parent;
};

bool ChainIgnores(const IgnoreChain* chain, std::string_view ws_path, bool is_dir) {
  for (; chain != nullptr; chain = chain->parent.get()) {
    const IgnoreList::Verdict v = chain->list.Match(ws_path, is_dir);
    if (v != IgnoreList::Verdict::kNone) return v == IgnoreList::Verdict::kIgnored;
  }
  return false;
}

// The directories on the path from the root to a directory, to spot symlink cycles.
struct DirIdentity {
  dev_t dev;
  ino_t ino;
  std::shared_ptr<const DirIdentity> parent;
};

bool OnPath(const DirIdentity* node, const struct stat& st) {
  for (; node != nullptr; node = node->parent.get()) {
    if (node->dev == st.st_dev && node->ino == st.st_ino) return true;
  }
  return false;
}

struct PendingDir {
  std::string abs;
  std::string ws;
  std::shared_ptr<const IgnoreChain> gitignore;
  std::shared_ptr<const IgnoreChain> kebabignore;
  std::shared_ptr<const DirIdentity> ancestors;
  bool vendored = false;  // inside a directory of WalkOptions::code_skip_dirs
};

// A directory entry with its type resolved (symlinks followed when the walk follows them).
struct Entry {
  std::string name;
  unsigned char type = DT_UNKNOWN;  // DT_DIR, DT_REG, DT_LNK (not followed), or other
  bool dangling = false;            // its type could not be determined: a broken link
  bool have_stat = false;
  struct stat st;
};

unsigned char TypeOf(mode_t mode) {
  if (S_ISDIR(mode)) return DT_DIR;
  if (S_ISREG(mode)) return DT_REG;
  if (S_ISLNK(mode)) return DT_LNK;
  return DT_UNKNOWN;
}

// Workspace-path order: a directory sorts as if its name ended in '/'. Walking entries
// depth-first in this order yields files already sorted by workspace path.
bool WorkspaceOrder(const Entry& a, const Entry& b) {
  const size_t n = std::min(a.name.size(), b.name.size());
  const int c = a.name.compare(0, n, b.name, 0, n);
  if (c != 0) return c < 0;
  const auto next = [n](const Entry& e) -> int {
    if (e.name.size() > n) return static_cast<unsigned char>(e.name[n]);
    return e.type == DT_DIR ? '/' : -1;
  };
  return next(a) < next(b);
}

// Work still to do, in walk order: a file to report or a directory to descend into.
using Pending = std::variant<FoundFile, PendingDir>;

std::string ErrnoText(int err) {
  return std::strerror(err);
}

// Reads a whole small file relative to an open directory.
bool ReadFileAt(int dir_fd, const char* name, std::string& out, int& err) {
  const int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    err = errno;
    return false;
  }
  out.clear();
  char buf[8192];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      close(fd);
      return false;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return true;
}

// Workspace path of `name` inside the directory `dir_ws` (already canonical). Equals
// NormalizeWorkspacePath(dir_ws + "/" + name), without its cost for ordinary names.
std::string JoinWorkspace(std::string_view dir_ws, std::string_view name) {
  std::string joined;
  joined.reserve(dir_ws.size() + 1 + name.size());
  joined.append(dir_ws);
  if (!joined.empty()) joined += '/';
  joined.append(name);
  if (name.find('\\') != std::string_view::npos || !IsKnownNfc(name)) {
    return NormalizeWorkspacePath(joined);
  }
  return joined;
}

// Read permission from the mode bits, which saves an access() call per file. ACLs are not
// consulted; a file only an ACL locks is reported later by whoever reads it.
class ReadPermission {
 public:
  ReadPermission() : euid_(geteuid()), egid_(getegid()) {
    const int n = getgroups(0, nullptr);
    if (n > 0) {
      groups_.resize(static_cast<size_t>(n));
      groups_.resize(static_cast<size_t>(std::max(0, getgroups(n, groups_.data()))));
    }
  }
  bool CanRead(const struct stat& st) const {
    if (euid_ == 0) return true;
    if (st.st_uid == euid_) return (st.st_mode & S_IRUSR) != 0;
    if (st.st_gid == egid_ ||
        std::find(groups_.begin(), groups_.end(), st.st_gid) != groups_.end()) {
      return (st.st_mode & S_IRGRP) != 0;
    }
    return (st.st_mode & S_IROTH) != 0;
  }

 private:
  uid_t euid_;
  gid_t egid_;
  std::vector<gid_t> groups_;
};

class Walker {
 public:
  explicit Walker(const WalkOptions& options)
      : options_(options), excludes_(std::string(), options.exclude) {}

  Status Run(const std::string& root);
  WalkResult TakeResult() { return std::move(result_); }

 private:
  enum class Visit { kDone, kLoop, kUnreadable };
  // Lists one directory, loads its ignore files and classifies its entries, pushing the
  // files to report and the subdirectories to descend into onto `stack` so that they pop
  // in workspace-path order. On kUnreadable, `error_` says why.
  Visit VisitDir(const PendingDir& dir, std::vector<Pending>& stack);
  void ResolveType(int dir_fd, Entry& entry) const;
  void VisitEntry(const PendingDir& dir, const PendingDir& children_template, int dir_fd,
                  Entry& entry, std::vector<Pending>& items);
  std::shared_ptr<const IgnoreChain> LoadIgnore(int dir_fd, const PendingDir& dir,
                                                std::string_view file_name,
                                                std::shared_ptr<const IgnoreChain> parent);

  const WalkOptions& options_;
  IgnoreList excludes_;
  ReadPermission permission_;
  std::string error_;
  WalkResult result_;
};

Status Walker::Run(const std::string& root) {
  std::vector<Pending> stack;
  PendingDir root_dir;
  root_dir.abs = root;
  if (VisitDir(root_dir, stack) == Visit::kUnreadable) {
    // Reporting an empty workspace instead would make ingest purge every stored document.
    return IoError("cannot read workspace root " + root + ": " + error_,
                   "check the permissions of workspace.root");
  }
  while (!stack.empty()) {
    Pending next = std::move(stack.back());
    stack.pop_back();
    if (FoundFile* file = std::get_if<FoundFile>(&next)) {
      result_.files.push_back(std::move(*file));
      continue;
    }
    const PendingDir& dir = std::get<PendingDir>(next);
    switch (VisitDir(dir, stack)) {
      case Visit::kDone:
        break;
      case Visit::kLoop:
        result_.skipped.Add(kSkipSymlinkLoop, dir.ws);
        break;
      case Visit::kUnreadable:
        result_.warnings.push_back("cannot read directory " + dir.abs + ": " + error_);
        result_.skipped.Add(kSkipUnreadable, dir.ws);
        result_.unreadable_dirs.push_back(dir.ws);
        break;
    }
  }
  // Walk order already is workspace-path order unless NFC changed how names compare.
  const auto by_path = [](const FoundFile& a, const FoundFile& b) {
    return a.workspace_path < b.workspace_path;
  };
  if (!std::is_sorted(result_.files.begin(), result_.files.end(), by_path)) {
    std::sort(result_.files.begin(), result_.files.end(), by_path);
  }
  return Status::OK();
}

Walker::Visit Walker::VisitDir(const PendingDir& dir, std::vector<Pending>& stack) {
  // open() follows a symlinked directory, so fstat identifies the directory it names.
  const int fd = open(dir.abs.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    error_ = ErrnoText(errno);
    if (fd >= 0) close(fd);
    return Visit::kUnreadable;
  }
  if (OnPath(dir.ancestors.get(), st)) {
    close(fd);
    return Visit::kLoop;
  }
  DIR* handle = fdopendir(fd);
  if (handle == nullptr) {
    error_ = ErrnoText(errno);
    close(fd);
    return Visit::kUnreadable;
  }
  std::vector<Entry> entries;
  bool has_gitignore = false;
  bool has_kebabignore = false;
  while (const dirent* d = readdir(handle)) {
    const std::string_view name = d->d_name;
    if (name == "." || name == "..") continue;
    has_gitignore |= name == kGitignoreName;
    has_kebabignore |= name == kKebabignoreName;
    Entry& entry = entries.emplace_back();
    entry.name = name;
    entry.type = d->d_type;
    ResolveType(fd, entry);
  }
  // A fixed order also makes skip examples deterministic across file systems.
  std::sort(entries.begin(), entries.end(), WorkspaceOrder);

  PendingDir children;
  children.gitignore =
      has_gitignore ? LoadIgnore(fd, dir, kGitignoreName, dir.gitignore) : dir.gitignore;
  children.kebabignore =
      has_kebabignore ? LoadIgnore(fd, dir, kKebabignoreName, dir.kebabignore) : dir.kebabignore;
  children.ancestors =
      std::make_shared<const DirIdentity>(DirIdentity{st.st_dev, st.st_ino, dir.ancestors});

  std::vector<Pending> items;
  for (Entry& entry : entries) VisitEntry(dir, children, fd, entry, items);
  closedir(handle);
  std::move(items.rbegin(), items.rend(), std::back_inserter(stack));
  return Visit::kDone;
}

void Walker::ResolveType(int dir_fd, Entry& entry) const {
  if (entry.type == DT_UNKNOWN) {
    if (fstatat(dir_fd, entry.name.c_str(), &entry.st, AT_SYMLINK_NOFOLLOW) != 0) {
      entry.dangling = true;
      return;
    }
    entry.type = TypeOf(entry.st.st_mode);
    entry.have_stat = entry.type != DT_LNK;
  }
  if (entry.type == DT_LNK && options_.follow_symlinks) {
    if (fstatat(dir_fd, entry.name.c_str(), &entry.st, 0) != 0) {
      entry.dangling = true;
      return;
    }
    entry.type = TypeOf(entry.st.st_mode);
    entry.have_stat = true;
  }
}

std::shared_ptr<const IgnoreChain> Walker::LoadIgnore(int dir_fd, const PendingDir& dir,
                                                      std::string_view file_name,
                                                      std::shared_ptr<const IgnoreChain> parent) {
  std::string contents;
  int err = 0;
  if (!ReadFileAt(dir_fd, std::string(file_name).c_str(), contents, err)) {
    result_.warnings.push_back("cannot read " + dir.abs + "/" + std::string(file_name) + ": " +
                               ErrnoText(err));
    return parent;
  }
  IgnoreList list(dir.ws, contents);
  if (list.empty()) return parent;
  return std::make_shared<const IgnoreChain>(IgnoreChain{std::move(list), std::move(parent)});
}

void Walker::VisitEntry(const PendingDir& dir, const PendingDir& children_template, int dir_fd,
                        Entry& entry, std::vector<Pending>& items) {
  const std::string& name = entry.name;
  if (name == ".git") return;
  if (entry.dangling) {
    result_.skipped.Add(kSkipUnreadable, JoinWorkspace(dir.ws, name));
    return;
  }
  const bool is_dir = entry.type == DT_DIR;
  // Unfollowed links are skipped silently. Sockets, FIFOs and devices are not documents,
  // and opening a FIFO would block ingest.
  if (!is_dir && entry.type != DT_REG) return;
  if (!is_dir && IsSilentlySkippedFile(name)) return;

  std::string ws = JoinWorkspace(dir.ws, name);
  if (is_dir && IsBlacklistedDir(name)) {
    result_.skipped.Add(kSkipBuiltinBlacklist, ws);
    return;
  }
  if (excludes_.Match(ws, is_dir) == IgnoreList::Verdict::kIgnored) {
    result_.skipped.Add(kSkipConfigExclude, ws);
    return;
  }
  if (ChainIgnores(children_template.gitignore.get(), ws, is_dir)) {
    result_.skipped.Add(kSkipGitignore, ws);
    return;
  }
  if (ChainIgnores(children_template.kebabignore.get(), ws, is_dir)) {
    result_.skipped.Add(kSkipKebabignore, ws);
    return;
  }

  std::string abs;
  abs.reserve(dir.abs.size() + 1 + name.size());
  abs.append(dir.abs);
  if (abs.empty() || abs.back() != '/') abs += '/';
  abs.append(name);

  if (is_dir) {
    PendingDir child = children_template;
    child.abs = std::move(abs);
    child.ws = std::move(ws);
    child.vendored =
        dir.vendored || std::find(options_.code_skip_dirs.begin(), options_.code_skip_dirs.end(),
                                  name) != options_.code_skip_dirs.end();
    items.emplace_back(std::move(child));
    return;
  }

  const MediaKind media = DetectMedia(name);
  if (std::find(options_.media.begin(), options_.media.end(), media) == options_.media.end()) {
    ++result_.skipped.by_extension[ExtensionKey(name)];
    result_.skipped.Add(kSkipUnsupported, ws);
    return;
  }
  if (dir.vendored && media == MediaKind::kCode) {
    result_.skipped.Add(kSkipVendored, ws);
    return;
  }
  struct stat& st = entry.st;
  if (!entry.have_stat && fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    result_.skipped.Add(kSkipUnreadable, ws);
    return;
  }
  const uint64_t cap =
      media == MediaKind::kAudio ? options_.max_audio_bytes : options_.max_file_bytes;
  if (static_cast<uint64_t>(st.st_size) > cap) {
    result_.skipped.Add(kSkipSizeExceeded, ws);
    return;
  }
  if (!permission_.CanRead(st)) {
    result_.skipped.Add(kSkipUnreadable, ws);
    return;
  }
  FoundFile file;
  file.abs_path = std::move(abs);
  file.workspace_path = std::move(ws);
  file.media = media;
  file.size = static_cast<uint64_t>(st.st_size);
  file.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  items.emplace_back(std::move(file));
}

}  // namespace

Result<WalkResult> Walk(const WalkOptions& options) {
  if (options.root.empty()) {
    return IoError("workspace root is not set", "set workspace.root in config.toml or pass --root");
  }
  std::error_code ec;
  std::string root = std::filesystem::absolute(options.root, ec).lexically_normal().string();
  if (ec) root = options.root;
  while (root.size() > 1 && root.back() == '/') root.pop_back();

  struct stat st;
  if (stat(root.c_str(), &st) != 0) {
    return IoError("workspace root " + root + " cannot be accessed: " + ErrnoText(errno),
                   "create the directory or point workspace.root (or --root) at an existing one");
  }
  if (!S_ISDIR(st.st_mode)) {
    return IoError("workspace root " + root + " is not a directory",
                   "point workspace.root (or --root) at a directory");
  }
  Walker walker(options);
  KEBAB_RETURN_IF_ERROR(walker.Run(root));
  return walker.TakeResult();
}

}  // namespace kebab::source
