#include "chunk/internal/pdf_page.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "chunk/oversize.h"
#include "core/hash.h"
#include "core/ids.h"

namespace kebab::chunk::internal {
namespace {

struct Piece {
  const Block* block;
  size_t tokens;
};

// An image's description and a model's caption are chunks of their own: they cite the whole
// image or `#caption`, never a region of text.
bool Alone(const Block& b) {
  return b.kind == BlockKind::kImageRef || b.span.kind == SourceSpan::Kind::kCaption;
}

class PageChunker {
 public:
  PageChunker(const CanonicalDocument& doc, const ChunkPolicy& policy, const char* version)
      : doc_(doc),
        version_(version),
        target_(static_cast<size_t>(std::max(1, policy.target_tokens))),
        overlap_(static_cast<size_t>(std::max(0, policy.overlap_tokens))),
        max_(static_cast<size_t>(std::max(1, policy.max_chunk_tokens))),
        policy_hash_(PagePolicyHash(policy, version)) {}

  std::vector<Chunk> Run() {
    uint32_t page = 0;
    for (const Block& b : doc_.blocks) {
      if (b.text.empty()) continue;
      if (b.span.page != page || Alone(b) || (!acc_.empty() && Alone(*acc_.back().block))) {
        Flush();
        acc_.clear();
        page = b.span.page;
      }
      const size_t tokens = static_cast<size_t>(EstimateTokens(b.text));
      if (!acc_.empty() && Tokens() + tokens > target_) {
        Flush();
        Seed();
      }
      acc_.push_back({&b, tokens});
      fresh_ = true;
    }
    Flush();
    return std::move(out_);
  }

 private:
  size_t Tokens() const {
    size_t n = 0;
    for (const Piece& p : acc_) n += p.tokens;
    return n;
  }

  // Keeps the trailing paragraphs worth up to overlap_ tokens (never all of them, so every
  // chunk adds a paragraph of its own).
  void Seed() {
    size_t keep = 0, tokens = 0;
    while (keep + 1 < acc_.size() && tokens + acc_[acc_.size() - 1 - keep].tokens <= overlap_) {
      tokens += acc_[acc_.size() - 1 - keep].tokens;
      ++keep;
    }
    acc_.erase(acc_.begin(), acc_.end() - static_cast<std::ptrdiff_t>(keep));
    fresh_ = false;
  }

  void Flush() {
    if (acc_.empty() || !fresh_) return;
    fresh_ = false;
    Chunk chunk;
    chunk.doc_id = doc_.doc_id;
    const SourceSpan& first = acc_.front().block->span;
    const SourceSpan& last = acc_.back().block->span;
    SourceSpan span;
    if (first.kind == SourceSpan::Kind::kCaption) {
      span = first;
    } else if (first.kind == SourceSpan::Kind::kRegion) {
      // The box around every region in the chunk (all on one page).
      uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
      for (const Piece& p : acc_) {
        const SourceSpan& s = p.block->span;
        x0 = std::min(x0, s.x);
        y0 = std::min(y0, s.y);
        x1 = std::max(x1, s.x + s.w);
        y1 = std::max(y1, s.y + s.h);
      }
      span = first;
      span.x = x0;
      span.y = y0;
      span.w = x1 - x0;
      span.h = y1 - y0;
    } else {
      span.kind = SourceSpan::Kind::kPage;
      span.page = first.page;
      span.start = first.page;
      span.end = first.page;
      span.char_start = first.char_start;
      span.char_end = last.char_end;
    }
    std::string text;
    for (const Piece& p : acc_) {
      if (!text.empty()) text += "\n\n";
      text += p.block->text;
      chunk.block_ids.push_back(p.block->block_id);
    }
    chunk.heading_path = acc_.front().block->heading_path;
    // The outline's innermost heading names the section; without an outline, the page (a
    // lone image has none).
    chunk.section_label = !chunk.heading_path.empty() ? chunk.heading_path.back()
                          : first.page > 0            ? "p. " + std::to_string(first.page)
                                                      : std::string();
    chunk.chunker_version = version_;
    chunk.policy_hash = policy_hash_;
    chunk.source_spans.push_back(span);
    const int tokens = EstimateTokens(text);
    if (static_cast<size_t>(tokens) <= max_) {
      chunk.token_estimate = tokens;
      chunk.chunk_id = ChunkId(chunk.doc_id, version_, chunk.block_ids, policy_hash_);
      chunk.text = std::move(text);
      out_.push_back(std::move(chunk));
      return;
    }
    // Every piece keeps the chunk's blocks and page; the segment index keeps their ids apart.
    const std::vector<ByteRange> pieces = SplitOversize(text, max_);
    for (size_t i = 0; i < pieces.size(); ++i) {
      Chunk piece = chunk;
      piece.text.assign(text, pieces[i].begin, pieces[i].end - pieces[i].begin);
      piece.token_estimate = EstimateTokens(piece.text);
      piece.chunk_id = ChunkId(piece.doc_id, version_, piece.block_ids,
                               policy_hash_ + "#seg" + std::to_string(i));
      out_.push_back(std::move(piece));
    }
  }

  const CanonicalDocument& doc_;
  const char* const version_;
  const size_t target_, overlap_, max_;
  const std::string policy_hash_;
  std::vector<Piece> acc_;
  bool fresh_ = false;  // acc_ holds a paragraph no chunk has yet
  std::vector<Chunk> out_;
};

}  // namespace

std::string PagePolicyHash(const ChunkPolicy& policy, const char* version) {
  const nlohmann::json j = {{"chunker_version", version},
                            {"target_tokens", policy.target_tokens},
                            {"overlap_tokens", policy.overlap_tokens},
                            {"max_chunk_tokens", policy.max_chunk_tokens}};
  return Blake3Hex(CanonicalJson(j)).substr(0, 16);
}

std::vector<Chunk> ChunkPages(const CanonicalDocument& doc, const ChunkPolicy& policy,
                              const char* version) {
  return PageChunker(doc, policy, version).Run();
}

}  // namespace kebab::chunk::internal
