// Workspace walker: finds the files to ingest under a root, applying ignore rules in this
// order of attribution: built-in blacklist, config excludes, .gitignore (every level),
// .kebabignore (every level); then size caps and media detection. Symlinks are followed with
// loop detection. Every skip is counted by reason with up to 5 examples. Also the per-file
// classification the ingest shares (media, generated files) and the git repository a file
// lies in (GitRepos).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "source/ignore.h"

namespace kebab::source {

struct WalkOptions {
  std::string root;                  // absolute directory
  std::vector<std::string> exclude;  // gitignore-style patterns, relative to root
  uint64_t max_file_bytes = 20ULL * 1024 * 1024;
  uint64_t max_audio_bytes = 1024ULL * 1024 * 1024;  // replaces max_file_bytes for recordings
  bool follow_symlinks = true;
  // The media to return (the ingest passes what parse can extract); files of other media are
  // tallied as "unsupported" by extension.
  std::vector<MediaKind> media = {MediaKind::kMarkdown};
  // Source code under a directory of one of these names (at any depth) is someone else's or
  // built (vendor, dist, build): skipped as "vendored". Notes and documents there are kept.
  std::vector<std::string> code_skip_dirs;
};

struct FoundFile {
  std::string abs_path;
  std::string workspace_path;  // NormalizeWorkspacePath of the path relative to root
  MediaKind media = MediaKind::kOther;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
};

// Skip reasons, as named in ingest_report.v1 (`skipped_<reason>` and skip_examples keys).
inline constexpr std::string_view kSkipGitignore = "gitignore";
inline constexpr std::string_view kSkipKebabignore = "kebabignore";
inline constexpr std::string_view kSkipConfigExclude = "config_exclude";
inline constexpr std::string_view kSkipBuiltinBlacklist = "builtin_blacklist";
inline constexpr std::string_view kSkipGenerated = "generated";
inline constexpr std::string_view kSkipVendored = "vendored";  // code in code_skip_dirs
inline constexpr std::string_view kSkipSizeExceeded = "size_exceeded";
inline constexpr std::string_view kSkipUnsupported = "unsupported";  // media kind not ingested
inline constexpr std::string_view kSkipUnreadable = "unreadable";
inline constexpr std::string_view kSkipSymlinkLoop = "symlink_loop";

struct SkipTally {
  std::map<std::string, uint64_t> counts;                    // reason -> files
  std::map<std::string, std::vector<std::string>> examples;  // reason -> up to 5 paths
  std::map<std::string, uint64_t> by_extension;              // unsupported files by ".ext"

  void Add(std::string_view reason, std::string_view workspace_path);
  uint64_t Total() const;
};

struct WalkResult {
  std::vector<FoundFile> files;  // sorted by workspace_path
  SkipTally skipped;
  std::vector<std::string> warnings;  // e.g. unreadable directories
  // Workspace paths of the directories that could not be listed: their files are unknown,
  // not gone.
  std::vector<std::string> unreadable_dirs;
};

// Walks `options.root`, returning the files of `options.media`. Fails only when the root itself is
// missing, not a directory or unreadable (an empty result would look like a deleted workspace).
Result<WalkResult> Walk(const WalkOptions& options);

// The walker's ignore rules for one path at a time, outside a walk: `kebab serve`'s watch asks
// whether a changed path is one an ingest would look at, and which folders to watch. The order
// is the walker's: `.git` and the built-in blacklist, the config's excludes (and `extra`
// patterns), then .gitignore and .kebabignore at every level, read from disk when first needed
// and kept until Forget. Size caps and media are not its business (the ingest decides those).
// Not thread-safe: one owner.
class PathRules {
 public:
  PathRules(std::string root, const std::vector<std::string>& exclude,
            const std::vector<std::string>& extra = {});
  ~PathRules();
  PathRules(const PathRules&) = delete;
  PathRules& operator=(const PathRules&) = delete;

  // Whether the walker would pass over `workspace_path` (relative to the root, '/'-separated)
  // or a folder above it.
  bool Skips(std::string_view workspace_path, bool is_dir);

  // Drops the ignore files read so far (one changed).
  void Forget();

 private:
  struct DirRules;
  const DirRules& RulesOf(const std::string& dir_ws);
  bool SkipsOne(std::string_view workspace_path, std::string_view name, bool is_dir);

  std::string root_;
  IgnoreList excludes_;
  std::map<std::string, std::unique_ptr<DirRules>, std::less<>> dirs_;  // by the folder's path
};

// Media kind from a file name (case-insensitive): its extension, or for code
// CodeLanguageOfPath.
MediaKind DetectMedia(std::string_view file_name);

// The lowercase language of a source file from its name, case-insensitive: by extension
// ("rust" for `.rs`, "shell" for `.sh`, "yaml", "sql", ...) or by a conventional whole name
// ("dockerfile" for Dockerfile, Containerfile and Dockerfile.*, "make" for Makefile, "cmake"
// for CMakeLists.txt, "gomod" for go.mod); empty when the name is not a source file's. The
// one table of source languages: media detection and the code parser both read it. The view
// points into static storage.
std::string_view CodeLanguageOfPath(std::string_view path);

// True when the first bytes of a file carry a generated-file marker ("@generated",
// "code generated by", "do not edit", "auto-generated", ...) within its first 10 lines.
bool LooksGenerated(std::string_view head);

// True for source files no one writes by hand, whatever their head says: lock files
// (package-lock.json, pnpm-lock.yaml, ...) and minified code (`.min.` in the name, or a first
// line over 1000 bytes in `head`, the file's first 4 KiB).
bool LooksMachineMade(std::string_view workspace_path, std::string_view head);

// A git repository as its files say (spec §3.6: repo, git_branch, git_commit).
struct GitRepo {
  std::string root;    // absolute folder holding `.git`
  std::string name;    // the remote URL's basename without ".git", else the root's folder name
  std::string remote;  // origin's URL (else the first remote's) without credentials; may be ""
  std::string branch;  // the branch HEAD names; "" when detached
  std::string commit;  // HEAD's commit, 40 hex digits; "" before the first commit
};

// The nearest enclosing git repository of each directory, read from `.git` itself (a folder,
// or a `gitdir:` file as in linked worktrees and submodules: loose and packed refs, the
// config's remotes), with no git process. Resolve() memoizes and is not thread-safe: resolve
// every directory first, then Find() may be called from many threads at once.
class GitRepos {
 public:
  // The repository enclosing `dir` (absolute, no trailing slash), or null.
  const GitRepo* Resolve(const std::string& dir);
  // What Resolve(dir) returned; null for a directory never resolved.
  const GitRepo* Find(const std::string& dir) const;

 private:
  std::map<std::string, const GitRepo*> by_dir_;
  std::deque<GitRepo> repos_;  // stable addresses
};

}  // namespace kebab::source
