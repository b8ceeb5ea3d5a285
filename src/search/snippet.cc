#include "search/snippet.h"

#include <vector>

#include "core/unicode.h"

namespace kebab::search {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …

bool IsContinuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

}  // namespace

std::string StripHighlights(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != kHighlightOpen && c != kHighlightClose) out += c;
  }
  return out;
}

ShapedSnippet ShapeSnippet(std::string_view fts_snippet, int max_chars) {
  ShapedSnippet result;
  std::string s = CollapseWhitespace(fts_snippet);
  bool leading = s.starts_with(kEllipsis);
  bool trailing = s.ends_with(kEllipsis);
  if (leading) s.erase(0, kEllipsis.size());
  if (trailing) s.erase(s.size() - kEllipsis.size());
  result.cut = leading || trailing;

  // Code point starts of visible characters and the index of the first highlight.
  std::vector<size_t> starts;
  size_t first_hit = 0;
  bool seen_hit = false;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == kHighlightOpen) {
      if (!seen_hit) first_hit = starts.size();
      seen_hit = true;
      continue;
    }
    if (c == kHighlightClose || IsContinuation(c)) continue;
    starts.push_back(i);
  }
  const size_t visible = starts.size();
  if (max_chars <= 0 || visible <= static_cast<size_t>(max_chars)) {
    result.text =
        (leading ? std::string(kEllipsis) : "") + s + (trailing ? std::string(kEllipsis) : "");
    return result;
  }
  // Keep the first highlight in view, a quarter of the budget from the left edge.
  size_t begin_cp = first_hit > static_cast<size_t>(max_chars / 4) ? first_hit - max_chars / 4 : 0;
  if (begin_cp + max_chars > visible) begin_cp = visible - max_chars;
  size_t end_cp = begin_cp + max_chars;
  size_t begin = begin_cp == 0 ? 0 : starts[begin_cp];
  size_t end = end_cp >= visible ? s.size() : starts[end_cp];
  // Carry an open highlight across the cut edges so markers stay balanced.
  bool open_at_begin = false;
  for (size_t i = 0; i < begin; ++i) {
    if (s[i] == kHighlightOpen) open_at_begin = true;
    if (s[i] == kHighlightClose) open_at_begin = false;
  }
  std::string body = s.substr(begin, end - begin);
  bool open = open_at_begin;
  for (char c : body) {
    if (c == kHighlightOpen) open = true;
    if (c == kHighlightClose) open = false;
  }
  std::string text;
  if (begin_cp > 0 || leading) text += kEllipsis;
  if (open_at_begin) text += kHighlightOpen;
  text += body;
  if (open) text += kHighlightClose;
  if (end < s.size() || trailing) text += kEllipsis;
  result.text = std::move(text);
  result.cut = true;
  return result;
}

}  // namespace kebab::search
