// gitignore pattern matching (the syntax of git's gitignore(5)), used for .gitignore,
// .kebabignore and config excludes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::source {

// Makes sure `root`/.kebabignore has the line `pattern` (a line differing only by a leading
// '/' counts), appending it when missing; a new file starts with `comment_if_new` when given
// (a "# ..." line saying who wrote it). A user's own lines are kept as they are.
Status EnsureKebabignoreLine(const std::string& root, std::string_view pattern,
                             std::string_view comment_if_new = {});

// The patterns of one ignore file (or config list), relative to the directory `base`
// ("" for the workspace root, else a workspace path like "notes/sub").
class IgnoreList {
 public:
  IgnoreList() = default;
  IgnoreList(std::string base, std::string_view file_contents);
  IgnoreList(std::string base, const std::vector<std::string>& patterns);

  enum class Verdict { kNone, kIgnored, kIncluded };
  // Verdict of the last matching pattern for `workspace_path` (relative to the workspace
  // root); kNone when no pattern matches or the path is outside `base`.
  Verdict Match(std::string_view workspace_path, bool is_dir) const;
  bool empty() const { return patterns_.empty(); }

 private:
  struct Pattern {
    std::string glob;
    bool negated = false;
    bool dir_only = false;
    bool anchored = false;  // contained a '/' before the end: match from base, not any level
  };
  void AddLine(std::string_view line);
  std::string base_;
  std::vector<Pattern> patterns_;
};

}  // namespace kebab::source
