// Names the walker skips whatever the ignore files say, shared by the walker and PathRules.
// Module-private to source. Thread safety: pure functions.
#pragma once

#include <algorithm>
#include <iterator>
#include <string_view>

namespace kebab::source::internal {

inline constexpr std::string_view kGitignoreName = ".gitignore";
inline constexpr std::string_view kKebabignoreName = ".kebabignore";

// Directories of tools' output, never anyone's notes (counted as builtin_blacklist; `.git` is
// passed over without a count).
inline bool IsBlacklistedDir(std::string_view name) {
  static constexpr std::string_view kDirs[] = {"node_modules", "target", "__pycache__", ".venv",
                                               "venv"};
  return std::find(std::begin(kDirs), std::end(kDirs), name) != std::end(kDirs);
}

// Editors' temporary, swap, backup and lock files (`.#x.md`, `x.md~`, `.x.md.swp`, vim's
// `4913`, `.goutputstream-*`, LibreOffice's `.~lock.x#`, emacs' `#x.md#`): a save in progress,
// never a document, however it is named.
inline bool IsEditorTempFile(std::string_view n) {
  auto ends = [&](std::string_view s) { return n.ends_with(s); };
  return n.starts_with(".#") || n.starts_with(".~lock.") || n.starts_with(".goutputstream-") ||
         (n.size() > 1 && n.front() == '#' && n.back() == '#') || ends("~") || ends(".swp") ||
         ends(".swo") || ends(".swx") || ends(".swpx") || ends(".kate-swp") ||
         ends(".crdownload") || n == "4913";
}

// Files never worth a report line: the ignore files themselves, macOS Finder debris (AppleDouble
// "._x.md" files would otherwise pass as Markdown) and editors' temporary files.
inline bool IsSilentlySkippedFile(std::string_view name) {
  return name == kGitignoreName || name == kKebabignoreName || name == ".DS_Store" ||
         name.starts_with("._") || IsEditorTempFile(name);
}

}  // namespace kebab::source::internal
