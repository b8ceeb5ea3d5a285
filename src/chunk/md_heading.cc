#include "chunk/md_heading.h"

#include <algorithm>
#include <climits>
#include <nlohmann/json.hpp>

#include "chunk/block_text.h"
#include "chunk/outline.h"
#include "chunk/oversize.h"
#include "core/hash.h"
#include "core/ids.h"

namespace kebab::chunk {
namespace {

bool IsHeading(const BlockText& b) {
  return b.block().kind == BlockKind::kHeading;
}

// Blocks that always stand in a chunk of their own.
bool IsAtomic(BlockKind kind) {
  return kind == BlockKind::kCode || kind == BlockKind::kTable || kind == BlockKind::kImageRef ||
         kind == BlockKind::kAudioRef;
}

SourceSpan LineSpan(uint64_t first, uint64_t last) {
  SourceSpan s;
  s.start = first;
  s.end = std::max(first, last);
  return s;
}

// Ingest chunks every document with the same policy; hashing it once per thread instead of
// once per document saves a canonical-JSON round trip per file.
const std::string& CachedPolicyHash(const ChunkPolicy& p) {
  thread_local ChunkPolicy last;
  thread_local std::string hash = PolicyHash(last);
  if (p.target_tokens != last.target_tokens || p.overlap_tokens != last.overlap_tokens ||
      p.max_chunk_tokens != last.max_chunk_tokens ||
      p.respect_markdown_headings != last.respect_markdown_headings) {
    last = p;
    hash = PolicyHash(p);
  }
  return hash;
}

// Where one member block's text sits inside a chunk's text.
struct Part {
  size_t begin;
  size_t end;
  const BlockText* block;
};

// Maps byte ranges of a chunk's text back to source lines. Queries must move forward
// through the text, which lets one pass count line breaks for every piece of a chunk.
class LineLocator {
 public:
  LineLocator(std::string_view text, const std::vector<Part>& parts)
      : text_(text), parts_(parts), scan_(parts.front().begin) {}

  SourceSpan Span(ByteRange r) {
    Seek(r.begin);
    const uint64_t first = parts_[part_].block->SourceLines(line_).first;
    Seek(r.end - 1);
    const uint64_t last = parts_[part_].block->SourceLines(line_).second;
    return LineSpan(first, last);
  }

 private:
  void Seek(size_t pos) {
    while (part_ + 1 < parts_.size() && pos >= parts_[part_].end) {
      ++part_;
      scan_ = parts_[part_].begin;
      line_ = 0;
    }
    const size_t stop = std::min(pos, parts_[part_].end);
    for (; scan_ < stop; ++scan_) line_ += text_[scan_] == '\n';
  }

  std::string_view text_;
  const std::vector<Part>& parts_;
  size_t part_ = 0;
  size_t scan_;
  size_t line_ = 0;
};

class MdHeadingChunker {
 public:
  MdHeadingChunker(const CanonicalDocument& doc, const ChunkPolicy& policy)
      : doc_(doc),
        respect_headings_(policy.respect_markdown_headings),
        target_(static_cast<size_t>(std::max(policy.target_tokens, 1))),
        overlap_(static_cast<size_t>(std::max(policy.overlap_tokens, 0))),
        max_(static_cast<size_t>(std::max(policy.max_chunk_tokens, 1))),
        policy_hash_(CachedPolicyHash(policy)),
        outline_(doc.blocks) {}

  std::vector<Chunk> Run() {
    texts_.reserve(doc_.blocks.size());
    for (size_t i = 0; i < doc_.blocks.size(); ++i) {
      const Block& block = doc_.blocks[i];
      const bool boundary = respect_headings_ && block.kind == BlockKind::kHeading;
      BlockText text;
      if (!text.Render(block, i)) {
        // An empty heading still ends its predecessor's section.
        if (boundary) Flush();
        continue;
      }
      texts_.push_back(std::move(text));
      const size_t at = texts_.size() - 1;
      if (boundary) {
        Flush();
        Push(at);
      } else if (IsAtomic(block.kind)) {
        AddAtomic(at);
      } else {
        AddFlowing(at);
      }
    }
    Flush();
    return std::move(out_);
  }

 private:
  void Push(size_t t) {
    acc_.push_back(t);
    acc_tokens_ += texts_[t].tokens();
  }

  void Flush() {
    if (acc_.empty()) return;
    Emit(acc_);
    acc_.clear();
    acc_tokens_ = 0;
  }

  // A heading directly followed by a code block, table or media ref would otherwise be
  // emitted as a chunk holding nothing but the heading. Such a heading joins the atomic
  // chunk as its first line instead, so no chunk is a lone heading and the code or table is
  // found by its section title. A heading that already leads other content stays there.
  void AddAtomic(size_t t) {
    std::vector<size_t> members;
    if (acc_.size() == 1 && IsHeading(texts_[acc_.front()])) {
      members.push_back(acc_.front());
      acc_.clear();
      acc_tokens_ = 0;
    } else {
      Flush();
    }
    members.push_back(t);
    Emit(members);
  }

  void AddFlowing(size_t t) {
    const size_t tokens = texts_[t].tokens();
    if (acc_tokens_ + tokens > target_ && HasContent()) {
      std::vector<size_t> seed = OverlapSeed(tokens);
      Flush();
      for (size_t s : seed) Push(s);
    }
    Push(t);
  }

  bool HasContent() const {
    return std::any_of(acc_.begin(), acc_.end(), [&](size_t t) { return !IsHeading(texts_[t]); });
  }

  // Trailing whole blocks of the chunk about to close, carried into the next one for
  // context. They are worth at most min(overlap, target/2) tokens and leave room for the
  // incoming block within target. Headings are never carried (the next chunk's heading_path
  // already names them), and neither is the chunk's first content block: carrying all of a
  // chunk's content would make that chunk a redundant subset of the next.
  std::vector<size_t> OverlapSeed(size_t incoming_tokens) const {
    size_t budget = std::min(overlap_, target_ / 2);
    budget = std::min(budget, target_ > incoming_tokens ? target_ - incoming_tokens : 0);
    auto first_content =
        std::find_if(acc_.begin(), acc_.end(), [&](size_t t) { return !IsHeading(texts_[t]); });
    std::vector<size_t> seed;
    for (auto it = acc_.end(); budget > 0 && it - 1 > first_content;) {
      --it;
      const BlockText& b = texts_[*it];
      if (IsHeading(b) || b.tokens() > budget) break;
      budget -= b.tokens();
      seed.push_back(*it);
    }
    std::reverse(seed.begin(), seed.end());
    return seed;
  }

  void Emit(const std::vector<size_t>& members) {
    size_t size = 0;
    for (size_t t : members) size += texts_[t].text().size() + 2;
    std::string text;
    text.reserve(size);
    std::vector<Part> parts;
    parts.reserve(members.size());
    Chunk chunk;
    chunk.doc_id = doc_.doc_id;
    chunk.block_ids.reserve(members.size());
    uint64_t first_line = UINT64_MAX;
    uint64_t last_line = 0;
    for (size_t t : members) {
      const BlockText& b = texts_[t];
      if (!text.empty()) text += "\n\n";
      const size_t begin = text.size();
      text += b.text();
      parts.push_back({begin, text.size(), &b});
      chunk.block_ids.push_back(b.block().block_id);
      first_line = std::min(first_line, b.block().span.start);
      last_line = std::max(last_line, b.block().span.end);
    }
    const BlockText& lead = texts_[members.front()];
    chunk.heading_path = lead.block().heading_path;
    chunk.section_label = outline_.Label(lead.index());
    chunk.chunker_version = kMdHeadingV2;
    chunk.policy_hash = policy_hash_;

    TokenTally tally;
    tally.Add(text);
    if (tally.Tokens() <= max_) {
      chunk.token_estimate = static_cast<int>(tally.Tokens());
      chunk.source_spans.push_back(LineSpan(first_line, last_line));
      chunk.chunk_id = ChunkId(chunk.doc_id, kMdHeadingV2, chunk.block_ids, policy_hash_);
      chunk.text = std::move(text);
      out_.push_back(std::move(chunk));
      return;
    }
    // Every piece keeps the chunk's block ids; the segment index keeps their ids apart.
    LineLocator locator(text, parts);
    const std::vector<ByteRange> pieces = SplitOversize(text, max_);
    for (size_t i = 0; i < pieces.size(); ++i) {
      Chunk piece = chunk;
      piece.text.assign(text, pieces[i].begin, pieces[i].end - pieces[i].begin);
      piece.token_estimate = EstimateTokens(piece.text);
      piece.source_spans.push_back(locator.Span(pieces[i]));
      piece.chunk_id = ChunkId(piece.doc_id, kMdHeadingV2, piece.block_ids,
                               policy_hash_ + "#seg" + std::to_string(i));
      out_.push_back(std::move(piece));
    }
  }

  const CanonicalDocument& doc_;
  const bool respect_headings_;
  const size_t target_;
  const size_t overlap_;
  const size_t max_;
  const std::string policy_hash_;
  const Outline outline_;
  std::vector<BlockText> texts_;  // blocks with visible text, in document order
  std::vector<size_t> acc_;       // indexes into texts_ of the chunk being built
  size_t acc_tokens_ = 0;
  std::vector<Chunk> out_;
};

}  // namespace

std::string PolicyHash(const ChunkPolicy& policy) {
  const nlohmann::json j = {{"chunker_version", kMdHeadingV2},
                            {"target_tokens", policy.target_tokens},
                            {"overlap_tokens", policy.overlap_tokens},
                            {"max_chunk_tokens", policy.max_chunk_tokens},
                            {"respect_markdown_headings", policy.respect_markdown_headings}};
  return Blake3Hex(CanonicalJson(j)).substr(0, 16);
}

int EstimateTokens(std::string_view text) {
  TokenTally tally;
  tally.Add(text);
  return static_cast<int>(std::min<size_t>(tally.Tokens(), INT_MAX));
}

std::vector<Chunk> ChunkMarkdown(const CanonicalDocument& doc, const ChunkPolicy& policy) {
  return MdHeadingChunker(doc, policy).Run();
}

}  // namespace kebab::chunk
