// The git repository around a file, read from `.git` directly: HEAD, the ref it names (loose
// or packed) and the remote in `config`. Reading four small files costs less than starting
// `git` once, and needs neither git nor libgit2 on the machine.
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "source/walker.h"

namespace kebab::source {
namespace {

std::optional<std::string> ReadSmallFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

bool IsHex40(std::string_view s) {
  return s.size() == 40 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

std::string Parent(const std::string& dir) {
  const size_t slash = dir.rfind('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return dir.substr(0, slash);
}

std::string BaseName(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  const size_t slash = path.find_last_of("/:");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// The git directory `.git` names: itself when a folder; the `gitdir:` target when a file (a
// linked worktree or a submodule), relative to the folder holding `.git`.
std::optional<std::string> GitDir(const std::string& dir) {
  const std::string dot_git = (dir == "/" ? "" : dir) + "/.git";
  struct stat st;
  if (::stat(dot_git.c_str(), &st) != 0) return std::nullopt;
  if (S_ISDIR(st.st_mode)) return dot_git;
  if (!S_ISREG(st.st_mode)) return std::nullopt;
  const auto text = ReadSmallFile(dot_git);
  if (!text || !text->starts_with("gitdir:")) return std::nullopt;
  std::string target = Trim(std::string_view(*text).substr(7));
  if (target.empty()) return std::nullopt;
  return target.front() == '/' ? target : dir + "/" + target;
}

// The commit a ref names: its loose file, else its line in packed-refs.
std::string ResolveRef(const std::string& common_dir, const std::string& ref) {
  if (auto loose = ReadSmallFile(common_dir + "/" + ref)) {
    std::string sha = Trim(*loose);
    if (IsHex40(sha)) return sha;
  }
  if (auto packed = ReadSmallFile(common_dir + "/packed-refs")) {
    std::istringstream lines(*packed);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.size() > 41 && line[40] == ' ' && Trim(std::string_view(line).substr(41)) == ref &&
          IsHex40(std::string_view(line).substr(0, 40))) {
        return line.substr(0, 40);
      }
    }
  }
  return "";
}

// A URL without the user and password an https remote may carry ("https://user:token@host/x"):
// the index must never hold a credential.
std::string WithoutCredentials(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const size_t host = scheme + 3;
  const size_t at = url.find('@', host);
  const size_t slash = url.find('/', host);
  if (at == std::string::npos || (slash != std::string::npos && at > slash)) return url;
  return url.substr(0, host) + url.substr(at + 1);
}

// origin's URL from the git config, else the first remote's; empty when there is none.
std::string RemoteUrl(const std::string& common_dir) {
  const auto config = ReadSmallFile(common_dir + "/config");
  if (!config) return "";
  std::istringstream lines(*config);
  std::string line, section, first, origin;
  while (std::getline(lines, line)) {
    const std::string t = Trim(line);
    if (t.starts_with("[")) {
      section = t;
      continue;
    }
    if (!section.starts_with("[remote ")) continue;
    const size_t eq = t.find('=');
    if (eq == std::string::npos || Trim(std::string_view(t).substr(0, eq)) != "url") continue;
    const std::string url = Trim(std::string_view(t).substr(eq + 1));
    if (first.empty()) first = url;
    if (section == "[remote \"origin\"]" && origin.empty()) origin = url;
  }
  return WithoutCredentials(origin.empty() ? first : origin);
}

GitRepo ReadRepo(const std::string& root, const std::string& git_dir) {
  GitRepo repo;
  repo.root = root;
  // A linked worktree keeps its own HEAD; refs and config live in the common directory.
  std::string common_dir = git_dir;
  if (auto common = ReadSmallFile(git_dir + "/commondir")) {
    const std::string c = Trim(*common);
    if (!c.empty()) common_dir = c.front() == '/' ? c : git_dir + "/" + c;
  }
  repo.remote = RemoteUrl(common_dir);
  std::string name = BaseName(repo.remote);
  if (name.ends_with(".git")) name.resize(name.size() - 4);
  repo.name = name.empty() ? BaseName(root) : name;
  const std::string head = Trim(ReadSmallFile(git_dir + "/HEAD").value_or(""));
  if (head.starts_with("ref:")) {
    const std::string ref = Trim(std::string_view(head).substr(4));
    if (ref.starts_with("refs/heads/")) repo.branch = ref.substr(11);
    repo.commit = ResolveRef(common_dir, ref);
  } else if (IsHex40(head)) {
    repo.commit = head;
  }
  return repo;
}

}  // namespace

const GitRepo* GitRepos::Resolve(const std::string& dir) {
  if (auto it = by_dir_.find(dir); it != by_dir_.end()) return it->second;
  const GitRepo* found = nullptr;
  if (auto git_dir = GitDir(dir)) {
    found = &repos_.emplace_back(ReadRepo(dir, *git_dir));
  } else if (dir != "/" && !dir.empty()) {
    found = Resolve(Parent(dir));
  }
  by_dir_.emplace(dir, found);
  return found;
}

const GitRepo* GitRepos::Find(const std::string& dir) const {
  auto it = by_dir_.find(dir);
  return it == by_dir_.end() ? nullptr : it->second;
}

}  // namespace kebab::source
