// Snippet shaping: FTS5's snippet() output (highlights between \x01 and \x02) trimmed to a
// character budget around the first highlight, with whitespace collapsed to single spaces.
#pragma once

#include <string>
#include <string_view>

namespace kebab::search {

inline constexpr char kHighlightOpen = '\x01';
inline constexpr char kHighlightClose = '\x02';

struct ShapedSnippet {
  std::string text;  // still carries highlight markers
  bool cut = false;  // text was shortened (by FTS5 or here)
};

// `max_chars` counts code points of visible text (markers excluded).
ShapedSnippet ShapeSnippet(std::string_view fts_snippet, int max_chars);

// Removes highlight markers.
std::string StripHighlights(std::string_view s);

}  // namespace kebab::search
