// The text one block contributes to an md-heading chunk, its token estimate, and where each
// of its lines sits in the source file, so a piece cut out of an oversize chunk can cite a
// narrower line range than its whole block without ever pointing outside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/types.h"

namespace kebab::chunk {

class BlockText {
 public:
  // Renders `block` (list items as "- x" / "1. x", table rows as cells joined " | ", image
  // and audio refs as alt text or the file name of src). Returns false when the block has no
  // visible text; such blocks never reach a chunk.
  bool Render(const Block& block, size_t index);

  const Block& block() const { return *block_; }
  size_t index() const { return index_; }  // position in CanonicalDocument::blocks
  std::string_view text() const {
    std::string_view all = owns_text_ ? std::string_view(rendered_) : block_->text;
    return all.substr(begin_, end_ - begin_);
  }
  size_t tokens() const { return tokens_; }

  // Inclusive source lines that hold line `k` (0-based) of text(), always inside the block's
  // span: exact where the line counts prove a one-to-one mapping, else the whole span.
  std::pair<uint64_t, uint64_t> SourceLines(size_t k) const;

 private:
  enum class LineMap {
    kWhole,          // no provable mapping: every line cites the block's span
    kOffset,         // line k sits at span.start + offset_ + k (offset_ 1 skips an opening fence)
    kFenceOrIndent,  // code one line short of its span: open fence at EOF or not; cite both
    kTable,          // header row, delimiter row, then one source line per row
  };

  void PickLineMap(std::string_view source);

  const Block* block_ = nullptr;
  size_t index_ = 0;
  std::string rendered_;
  bool owns_text_ = false;
  size_t begin_ = 0;
  size_t end_ = 0;
  size_t tokens_ = 0;
  size_t lead_lines_ = 0;  // blank lines trimmed off the front of the text
  LineMap map_ = LineMap::kWhole;
  uint64_t offset_ = 0;
};

}  // namespace kebab::chunk
