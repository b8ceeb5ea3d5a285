// Chunkers: one per chunking policy, each turning a document's blocks into chunks: text sized
// for retrieval, the source spans it covers, its heading path and section label, and an id
// from core::ChunkId. The ingest pipeline asks ChunkerFor for the document's medium and names
// no policy itself, so a new one (pdf-page, code symbols, transcript windows) plugs in here.
// Thread safety: chunkers are immutable singletons; Split is a pure function of its inputs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace kebab::chunk {

// The configured sizes ([chunking]); every chunker reads what applies to it.
struct ChunkPolicy {
  int target_tokens = 500;
  int overlap_tokens = 80;
  int max_chunk_tokens = 4000;
  bool respect_markdown_headings = true;
};

class Chunker {
 public:
  virtual ~Chunker() = default;
  // Stored with every chunk (chunker_version); part of its id through the policy hash.
  virtual std::string_view version() const = 0;
  // First 16 hex chars of BLAKE3 over this chunker's version and the policy values it uses:
  // changing one changes every chunk id.
  virtual std::string PolicyHash(const ChunkPolicy& policy) const = 0;
  // Chunks `doc`, whose blocks carry block ids and source spans.
  virtual std::vector<Chunk> Split(const CanonicalDocument& doc,
                                   const ChunkPolicy& policy) const = 0;
};

// The chunker for documents of `media`, or null when none exists.
const Chunker* ChunkerFor(MediaKind media);

// Token estimate used for budgets: one per 4 ASCII bytes (rounded up) plus one per
// non-ASCII code point (CJK text runs about one token per character).
int EstimateTokens(std::string_view text);

}  // namespace kebab::chunk
