// Whether a sentence says "not", and the sentences of a chunk: a claim that negates what its
// source says (or the other way round) shares nearly all its words with the source, so the
// overlap check alone lets it through.
#pragma once

#include <string_view>
#include <vector>

namespace kebab::rag::internal {

// English not, no, never, none, nothing, nobody, neither, nor, without, cannot and any n't;
// Korean 않, 없, 못, 아니 and a standalone 안 (안 한다).
bool IsNegated(std::string_view sentence);

// The sentences of `text`: split after . ! ? 。 followed by whitespace, and at blank lines.
std::vector<std::string_view> Sentences(std::string_view text);

}  // namespace kebab::rag::internal
