// Chunker code-v4: a symbol's block (a function, a class's own lines, a manifest, a build
// stage, a Kubernetes resource, `<top-level>` glue) is a chunk of its own. A definition with a
// head (its doc comment, signature and docstring; Block::head_end) longer than a quarter of
// target_tokens splits into `symbol [part i/N]`: its head first, then its body cut at blank
// lines; any other block splits so only past max_chunk_tokens. Each part cites its own lines
// (a class's parts skip the lines of its methods, chunks of their own). Blocks without a
// symbol (Tier 3 paragraphs) accumulate up to target_tokens, as paragraphs do; one longer than
// max_chunk_tokens is cut into line windows that overlap by a tenth of their lines. Every
// chunk cites its lines with kind code, its symbol and language. Module-private; pure
// function of its inputs.
#pragma once

#include <string>
#include <vector>

#include "chunk/chunker.h"

namespace kebab::chunk::internal {

inline constexpr char kCodeChunkerVersion[] = "code-v4";

std::string CodePolicyHash(const ChunkPolicy& policy);
std::vector<Chunk> ChunkCode(const CanonicalDocument& doc, const ChunkPolicy& policy);

}  // namespace kebab::chunk::internal
