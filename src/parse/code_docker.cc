// Dockerfiles as one unit per build stage (code_lines.h).
#include <cctype>

#include "parse/internal/code_lines.h"

namespace kebab::parse::internal {
namespace {

struct Stage {
  uint32_t from_line = 0;
  std::string symbol;
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> words;
  size_t pos = 0;
  while (pos < s.size()) {
    while (pos < s.size() && IsSpace(s[pos])) ++pos;
    const size_t start = pos;
    while (pos < s.size() && !IsSpace(s[pos])) ++pos;
    if (pos > start) words.push_back(s.substr(start, pos - start));
  }
  return words;
}

// `FROM [--platform=...] image [AS name]`: the stage's name, else its image, else
// `stage N` (Docker numbers unnamed stages from 0).
std::string StageSymbol(const std::vector<std::string_view>& words, size_t index) {
  size_t i = 1;
  while (i < words.size() && words[i].starts_with("--")) ++i;
  if (i + 2 < words.size() && EqualsIgnoreCase(words[i + 1], "AS")) {
    return std::string(words[i + 2]);
  }
  if (i < words.size()) return std::string(words[i]);
  return "stage " + std::to_string(index);
}

}  // namespace

LineUnits DockerfileUnits(const SourceLines& lines) {
  std::vector<Stage> stages;
  bool continued = false;  // the line before ended with `\`: this one is not an instruction
  for (uint32_t n = 1; n <= lines.size(); ++n) {
    const std::string_view line = TrimSpace(lines[n - 1]);
    const bool was_continued = continued;
    continued = !line.starts_with('#') && line.ends_with('\\');
    if (was_continued || line.empty()) continue;
    const std::vector<std::string_view> words = Words(line);
    if (EqualsIgnoreCase(words.front(), "FROM")) {
      stages.push_back({n, StageSymbol(words, stages.size())});
    }
  }
  LineUnits out;
  for (size_t i = 0; i < stages.size(); ++i) {
    // A stage starts at its FROM with the comments right above it; the first at line 1.
    uint32_t first = 1;
    if (i > 0) {
      first = stages[i].from_line;
      while (first > 1 && TrimSpace(lines[first - 2]).starts_with('#')) --first;
    }
    uint32_t last = static_cast<uint32_t>(lines.size());
    if (i + 1 < stages.size()) {
      last = stages[i + 1].from_line - 1;
      while (last > stages[i].from_line && TrimSpace(lines[last - 1]).starts_with('#')) --last;
    }
    if (const auto range = NonBlankRange(lines, first, last)) {
      out.units.push_back({stages[i].symbol, range->first, range->second});
    }
  }
  return out;
}

}  // namespace kebab::parse::internal
