// Chunker pdf-page-v1 (spec §4.2 lists the reference's pdf-page-v1.2): a chunk never crosses a
// page. A page's paragraphs accumulate up to target_tokens, the next chunk seeded with
// trailing paragraphs worth up to overlap_tokens; a short page is one chunk; a chunk over
// max_chunk_tokens is split on line breaks, then on UTF-8 boundaries, each piece with an id of
// its own. Every chunk cites its page and the character range of its paragraphs.
// Module-private; pure function of its inputs.
#pragma once

#include <string>
#include <vector>

#include "chunk/chunker.h"

namespace kebab::chunk::internal {

inline constexpr char kPdfPageV1[] = "pdf-page-v1";

std::string PdfPagePolicyHash(const ChunkPolicy& policy);

std::vector<Chunk> ChunkPdfPages(const CanonicalDocument& doc, const ChunkPolicy& policy);

}  // namespace kebab::chunk::internal
