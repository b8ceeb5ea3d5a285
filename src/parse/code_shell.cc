// Shell scripts as one unit per function (code_lines.h). A best-effort reader: a function's
// body ends where its braces balance, braces in quotes, after `\` and in comments not counted;
// a body it cannot close (a heredoc holding a lone `}`, say) ends at the first `}` line
// indented as its definition, else at the next blank line.
#include <cctype>

#include "parse/internal/code_lines.h"

namespace kebab::parse::internal {
namespace {

bool NameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' ||
         c == '.';
}

// The function `line` defines, and the offset just past its header (`name()`, `function
// name`, `function name()`); false when it defines none.
bool FunctionHeader(std::string_view line, std::string* name, size_t* after) {
  size_t pos = line.find_first_not_of(" \t");
  if (pos == std::string_view::npos) return false;
  bool keyword = false;
  if (line.substr(pos).starts_with("function") && pos + 8 < line.size() && IsSpace(line[pos + 8])) {
    keyword = true;
    pos += 8;
    while (pos < line.size() && IsSpace(line[pos])) ++pos;
  }
  const size_t start = pos;
  if (pos >= line.size() ||
      !(std::isalpha(static_cast<unsigned char>(line[pos])) || line[pos] == '_')) {
    return false;
  }
  while (pos < line.size() && NameChar(line[pos])) ++pos;
  *name = std::string(line.substr(start, pos - start));
  while (pos < line.size() && IsSpace(line[pos])) ++pos;
  if (line.substr(pos).starts_with('(')) {
    ++pos;
    while (pos < line.size() && IsSpace(line[pos])) ++pos;
    if (pos >= line.size() || line[pos] != ')') return false;
    ++pos;
  } else if (!keyword) {
    return false;  // `name` alone is a command, not a definition
  }
  *after = pos;
  return true;
}

// The line where the brace opened at (`line`, `col`) closes, or 0 when it never does.
uint32_t ClosingLine(const SourceLines& lines, uint32_t line, size_t col) {
  int depth = 0;
  char quote = 0;  // the open quote, if any
  for (uint32_t n = line; n <= lines.size(); ++n) {
    const std::string_view s = lines[n - 1];
    for (size_t i = n == line ? col : 0; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '\\' && quote != '\'') {
        ++i;
      } else if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '#' && (i == 0 || IsSpace(s[i - 1]))) {
        break;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && --depth == 0) {
        return n;
      }
    }
  }
  return 0;
}

// Fallback end of a function at `line` whose braces never balance.
uint32_t FallbackEnd(const SourceLines& lines, uint32_t line) {
  const size_t indent = lines[line - 1].find_first_not_of(" \t");
  for (uint32_t n = line + 1; n <= lines.size(); ++n) {
    const std::string_view s = lines[n - 1];
    if (s.find_first_not_of(" \t") == indent && s[indent] == '}') return n;
  }
  uint32_t n = line;
  while (n < lines.size() && !BlankLine(lines[n])) ++n;
  return n;
}

}  // namespace

LineUnits ShellUnits(const SourceLines& lines) {
  LineUnits out;
  const auto count = static_cast<uint32_t>(lines.size());
  uint32_t floor = 1;  // the first line not inside an earlier unit
  for (uint32_t n = 1; n <= count; ++n) {
    std::string name;
    size_t after = 0;
    if (!FunctionHeader(lines[n - 1], &name, &after)) continue;
    // The body's brace: on the header line, or opening the next non-blank line.
    uint32_t brace_line = n;
    size_t col = lines[n - 1].find_first_not_of(" \t", after);
    if (col == std::string_view::npos) {
      brace_line = n + 1;
      while (brace_line <= count && BlankLine(lines[brace_line - 1])) ++brace_line;
      if (brace_line > count) continue;
      col = lines[brace_line - 1].find_first_not_of(" \t");
    }
    if (lines[brace_line - 1][col] != '{') continue;  // `f() (...)` and the like: glue
    uint32_t end = ClosingLine(lines, brace_line, col);
    if (end == 0) end = FallbackEnd(lines, n);
    uint32_t first = n;
    while (first > floor && TrimSpace(lines[first - 2]).starts_with('#') &&
           !TrimSpace(lines[first - 2]).starts_with("#!")) {
      --first;
    }
    out.units.push_back({std::move(name), first, end});
    floor = end + 1;
    n = end;
  }
  return out;
}

}  // namespace kebab::parse::internal
