// Line iteration for the Markdown parser. Lines end at LF, CRLF or a lone CR — the CommonMark
// rule cmark-gfm follows — so that every line number computed here agrees with cmark's.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace kebab::parse {

// Index of the line terminator at or after `pos` (text.size() when the last line has none).
inline size_t LineEnd(std::string_view text, size_t pos) {
  while (pos < text.size() && text[pos] != '\n' && text[pos] != '\r') ++pos;
  return pos;
}

// Index just past the terminator at `end` (as returned by LineEnd).
inline size_t SkipTerminator(std::string_view text, size_t end) {
  if (end < text.size() && text[end] == '\r') ++end;
  if (end < text.size() && text[end] == '\n') ++end;
  return end;
}

inline bool IsBlankLine(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

// Random access to the lines of a text, numbered from 1.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) : text_(text) {
    size_t pos = 0;
    while (pos < text.size()) {
      starts_.push_back(pos);
      pos = SkipTerminator(text, LineEnd(text, pos));
    }
  }

  size_t size() const { return starts_.size(); }

  // Line `n` (1-based) without its terminator; empty when out of range.
  std::string_view Line(size_t n) const {
    if (n == 0 || n > starts_.size()) return {};
    size_t begin = starts_[n - 1];
    return text_.substr(begin, LineEnd(text_, begin) - begin);
  }

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
};

}  // namespace kebab::parse
