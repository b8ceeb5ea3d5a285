// Chunkers pdf-page-v1 (spec §4.2 lists the reference's pdf-page-v1.2) and image-region-v1: a chunk
// never crosses a page. A page's paragraphs accumulate up to target_tokens, the next chunk seeded
// with trailing paragraphs worth up to overlap_tokens; a short page is one chunk; a chunk over
// max_chunk_tokens is split on line breaks, then on UTF-8 boundaries, each piece with an id of
// its own. Every chunk cites its page and the character range of its paragraphs.
// Module-private; pure function of its inputs.
#pragma once

#include <string>
#include <vector>

#include "chunk/chunker.h"

namespace kebab::chunk::internal {

inline constexpr char kPdfPageV1[] = "pdf-page-v1";
// The same policy over an image's pages (a tiff's frames; a lone image is page 0). Both cite
// OCR'd text by region: a chunk of region blocks cites the box around their lines.
inline constexpr char kImageRegionV1[] = "image-region-v1";

// `version` is kPdfPageV1 or kImageRegionV1.
std::string PagePolicyHash(const ChunkPolicy& policy, const char* version);

// Chunks of region blocks cite the box around them, on their page; a description block
// (kImageRef) is a chunk of its own.
std::vector<Chunk> ChunkPages(const CanonicalDocument& doc, const ChunkPolicy& policy,
                              const char* version);

}  // namespace kebab::chunk::internal
