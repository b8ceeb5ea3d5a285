// Chunker code-v3: a symbol's block (a function, a class's own lines, a manifest, a build
// stage, a Kubernetes resource, `<top-level>` glue) is a chunk of its own; one longer than
// max_chunk_tokens splits at blank lines into `symbol [part i/N]`, each part citing its own
// lines. Blocks without a symbol (Tier 3 paragraphs) accumulate up to target_tokens, as
// paragraphs do; one longer than max_chunk_tokens is cut into line windows that overlap by a
// tenth of their lines. Every chunk cites its lines with
// kind code, its symbol and language. Module-private; pure function of its inputs.
#pragma once

#include <string>
#include <vector>

#include "chunk/chunker.h"

namespace kebab::chunk::internal {

inline constexpr char kCodeChunkerVersion[] = "code-v3";

std::string CodePolicyHash(const ChunkPolicy& policy);
std::vector<Chunk> ChunkCode(const CanonicalDocument& doc, const ChunkPolicy& policy);

}  // namespace kebab::chunk::internal
