// Splitting a large Markdown body into pieces cmark-gfm can parse one at a time (internal to
// the parse module). cmark holds the whole AST in memory — up to 17 bytes per input byte — so
// a 50 MB file would need most of a gigabyte; parsing it in ~1 MiB pieces keeps memory flat.
// A piece only ever starts where every open block is already closed: at a line after a blank
// line that begins, at column 0, with a letter, a non-ASCII character or an ATX heading, and
// that is neither inside a fenced code block nor inside an HTML block that runs across blank
// lines (<script>, <pre>, <style>, <textarea>, comments, processing instructions,
// declarations, CDATA). Such a line starts a new top-level paragraph, table or heading in any
// case, so the pieces parse to the same blocks as the whole. Known differences: a link
// reference definition only serves references in its own piece, and a fence left unclosed
// inside a list item can mislead the scanner about later fences.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kebab::parse {

struct BodySegment {
  std::string_view text;
  uint32_t line_offset = 0;  // lines of the body before this piece
};

// Pieces of `body` in order, each at least `target_bytes` long except the last (one piece
// when no safe split point exists).
std::vector<BodySegment> SplitBody(std::string_view body, size_t target_bytes);

}  // namespace kebab::parse
