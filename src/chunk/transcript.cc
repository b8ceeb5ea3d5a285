#include "chunk/internal/transcript.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/hash.h"
#include "core/ids.h"

namespace kebab::chunk::internal {
namespace {

Chunk MakeChunk(const CanonicalDocument& doc, const std::vector<const Block*>& blocks,
                const std::string& policy_hash) {
  Chunk c;
  c.doc_id = doc.doc_id;
  SourceSpan span;
  span.kind = SourceSpan::Kind::kTime;
  span.start = blocks.front()->span.start;
  span.end = blocks.front()->span.end;
  for (const Block* b : blocks) {
    c.block_ids.push_back(b->block_id);
    if (!c.text.empty()) c.text += ' ';
    c.text += b->text;
    span.start = std::min(span.start, b->span.start);
    span.end = std::max(span.end, b->span.end);
  }
  c.source_spans.push_back(span);
  c.token_estimate = EstimateTokens(c.text);
  c.chunker_version = kTranscriptV1;
  c.policy_hash = policy_hash;
  c.chunk_id = ChunkId(c.doc_id, kTranscriptV1, c.block_ids, policy_hash);
  return c;
}

}  // namespace

std::string TranscriptPolicyHash(const ChunkPolicy& policy) {
  const nlohmann::json j = {
      {"chunker_version", kTranscriptV1},        {"target_tokens", policy.target_tokens},
      {"overlap_tokens", policy.overlap_tokens}, {"min_window_ms", kMinWindowMs},
      {"max_window_ms", kMaxWindowMs},           {"pause_ms", kPauseMs}};
  return Blake3Hex(CanonicalJson(j)).substr(0, 16);
}

std::vector<Chunk> ChunkTranscript(const CanonicalDocument& doc, const ChunkPolicy& policy) {
  const std::string policy_hash = TranscriptPolicyHash(policy);
  std::vector<Chunk> chunks;
  std::vector<const Block*> window;
  int tokens = 0;
  auto close = [&] {
    if (window.empty()) return;
    chunks.push_back(MakeChunk(doc, window, policy_hash));
    const Block* last = window.back();
    const int last_tokens = EstimateTokens(last->text);
    window.clear();
    tokens = 0;
    if (last_tokens <= policy.overlap_tokens) {
      window.push_back(last);
      tokens = last_tokens;
    }
  };
  const Block* carried = nullptr;  // the overlap a window starts with; alone it is no chunk
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    const Block& b = doc.blocks[i];
    if (b.kind == BlockKind::kAudioRef) {
      chunks.push_back(MakeChunk(doc, {&b}, policy_hash));
      continue;
    }
    window.push_back(&b);
    tokens += EstimateTokens(b.text);
    const uint64_t span_ms = b.span.end - window.front()->span.start;
    const Block* next = i + 1 < doc.blocks.size() ? &doc.blocks[i + 1] : nullptr;
    const bool full = tokens >= policy.target_tokens || span_ms >= kMaxWindowMs;
    const bool pause = next != nullptr && next->span.start >= b.span.end + kPauseMs;
    if (full || (span_ms >= kMinWindowMs && pause)) {
      close();
      carried = window.empty() ? nullptr : window.front();
    }
  }
  // What is left, unless it is only the segment carried over from the last chunk.
  if (!window.empty() && !(window.size() == 1 && window.front() == carried)) {
    chunks.push_back(MakeChunk(doc, window, policy_hash));
  }
  return chunks;
}

}  // namespace kebab::chunk::internal
