// cmark-gfm AST → kebab Blocks (internal to the parse module). One call parses one piece of a
// Markdown body with the GFM extensions and appends a Block per top-level element, with its
// exact 1-based line span, its heading path and NFC text. Block ids are left to the caller.
// Thread-safe: each call owns its parser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/types.h"

namespace kebab::parse {

// State carried from one piece of a body to the next.
struct BlockContext {
  bool mdx = false;  // skip top-level MDX `import` / `export` blocks
  std::vector<std::pair<int, std::string>> headings;  // open headings: (level, text)
  std::optional<size_t> first_paragraph;   // index of the first prose paragraph in the blocks
  std::vector<size_t> command_paragraphs;  // indexes of paragraphs of inline code only
  std::vector<std::string> warnings;       // problems met while parsing
};

// Parses `text`, whose first line is line `line_offset + 1` of the file, and appends its
// blocks (ordinal set, block_id empty) to `blocks`.
void AppendMarkdownBlocks(std::string_view text, uint32_t line_offset, BlockContext* context,
                          std::vector<Block>* blocks);

}  // namespace kebab::parse
