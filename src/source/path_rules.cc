// source::PathRules: the walker's ignore rules for one path at a time (walker.h).
#include <fstream>
#include <sstream>

#include "source/internal/names.h"
#include "source/walker.h"

namespace kebab::source {

struct PathRules::DirRules {
  IgnoreList gitignore, kebabignore;
};

namespace {

std::string ReadIgnoreFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

PathRules::PathRules(std::string root, const std::vector<std::string>& exclude,
                     const std::vector<std::string>& extra)
    : root_(std::move(root)), excludes_([&] {
        std::vector<std::string> all = exclude;
        all.insert(all.end(), extra.begin(), extra.end());
        return IgnoreList("", all);
      }()) {}

PathRules::~PathRules() = default;

void PathRules::Forget() {
  dirs_.clear();
}

const PathRules::DirRules& PathRules::RulesOf(const std::string& dir_ws) {
  auto it = dirs_.find(dir_ws);
  if (it != dirs_.end()) return *it->second;
  const std::string abs = dir_ws.empty() ? root_ : root_ + "/" + dir_ws;
  auto rules = std::make_unique<DirRules>();
  rules->gitignore =
      IgnoreList(dir_ws, ReadIgnoreFile(abs + "/" + std::string(internal::kGitignoreName)));
  rules->kebabignore =
      IgnoreList(dir_ws, ReadIgnoreFile(abs + "/" + std::string(internal::kKebabignoreName)));
  return *dirs_.emplace(dir_ws, std::move(rules)).first->second;
}

bool PathRules::SkipsOne(std::string_view ws, std::string_view name, bool is_dir) {
  if (name == ".git") return true;
  if (is_dir && internal::IsBlacklistedDir(name)) return true;
  if (excludes_.Match(ws, is_dir) == IgnoreList::Verdict::kIgnored) return true;
  // Each kind of ignore file from the path's folder up to the root: the deepest that has a
  // say decides, as in git.
  for (const bool git : {true, false}) {
    for (size_t end = ws.size();;) {
      const size_t slash = ws.rfind('/', end == 0 ? 0 : end - 1);
      const std::string dir = slash == std::string_view::npos || end == 0
                                  ? std::string()
                                  : std::string(ws.substr(0, slash));
      const DirRules& rules = RulesOf(dir);
      const IgnoreList::Verdict v = (git ? rules.gitignore : rules.kebabignore).Match(ws, is_dir);
      if (v != IgnoreList::Verdict::kNone) {
        if (v == IgnoreList::Verdict::kIgnored) return true;
        break;
      }
      if (dir.empty()) break;
      end = slash;
    }
  }
  return false;
}

bool PathRules::Skips(std::string_view ws, bool is_dir) {
  // The folders above it first: the walker never enters one it skips.
  for (size_t slash = ws.find('/'); slash != std::string_view::npos;
       slash = ws.find('/', slash + 1)) {
    const std::string_view dir = ws.substr(0, slash);
    const size_t name_at = dir.rfind('/');
    const std::string_view name = name_at == std::string_view::npos ? dir : dir.substr(name_at + 1);
    if (SkipsOne(dir, name, true)) return true;
  }
  const size_t name_at = ws.rfind('/');
  const std::string_view name = name_at == std::string_view::npos ? ws : ws.substr(name_at + 1);
  if (!is_dir && internal::IsSilentlySkippedFile(name)) return true;
  return SkipsOne(ws, name, is_dir);
}

}  // namespace kebab::source
