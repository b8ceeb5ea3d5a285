// Chunker code-v2: a symbol's block (a function, a class's own lines, `<top-level>` glue) is a
// chunk of its own; one longer than max_chunk_tokens splits at blank lines into
// `symbol [part i/N]`, each part citing its own lines. Blocks without a symbol (sources with no
// grammar) accumulate up to target_tokens, as paragraphs do. Every chunk cites its lines with
// kind code, its symbol and language. Module-private; pure function of its inputs.
#pragma once

#include <string>
#include <vector>

#include "chunk/chunker.h"

namespace kebab::chunk::internal {

inline constexpr char kCodeChunkerVersion[] = "code-v2";

std::string CodePolicyHash(const ChunkPolicy& policy);
std::vector<Chunk> ChunkCode(const CanonicalDocument& doc, const ChunkPolicy& policy);

}  // namespace kebab::chunk::internal
