// Chunker md-heading-v2 (spec §3.5 chunking policy; reference notes §4.2): headings are hard
// boundaries; code blocks and tables are atomic chunks; paragraphs, lists and quotes
// accumulate up to target_tokens, seeding the next chunk with trailing blocks worth up to
// overlap_tokens; any chunk whose text exceeds max_chunk_tokens is split on line breaks,
// then on UTF-8 boundaries. policy_hash covers every policy value, so changing one changes
// every chunk id. Pure function of its inputs; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "chunk/chunker.h"
#include "core/types.h"

namespace kebab::chunk {

inline constexpr char kMdHeadingV2[] = "md-heading-v2";

// First 16 hex chars of BLAKE3(canonical JSON of the policy and the chunker version).
std::string PolicyHash(const ChunkPolicy& policy);

// Chunks `doc` (its blocks must carry block ids and line spans). Every chunk has
// source_spans (the line range it covers), heading_path, section_label, token_estimate,
// chunker_version = kMdHeadingV2, policy_hash and a chunk id from core::ChunkId.
std::vector<Chunk> ChunkMarkdown(const CanonicalDocument& doc, const ChunkPolicy& policy);

}  // namespace kebab::chunk
