// Token budgeting shared by the md-heading chunker: the byte-class tally behind
// EstimateTokens, and the splitter that cuts an over-budget chunk text into pieces that fit
// max_chunk_tokens (line breaks first, UTF-8 character boundaries for a lone long line).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace kebab::chunk {

// Counts the inputs of the token estimate: ASCII bytes and UTF-8 lead bytes (one per
// non-ASCII code point; continuation bytes count nothing).
struct TokenTally {
  size_t ascii = 0;
  size_t non_ascii = 0;

  void Add(unsigned char c) {
    if (c < 0x80) {
      ++ascii;
    } else if (c >= 0xC0) {
      ++non_ascii;
    }
  }
  void Add(std::string_view s) {
    for (char c : s) Add(static_cast<unsigned char>(c));
  }
  void Add(const TokenTally& o) {
    ascii += o.ascii;
    non_ascii += o.non_ascii;
  }
  size_t Tokens() const { return (ascii + 3) / 4 + non_ascii; }
};

// Half-open byte range [begin, end) of a text.
struct ByteRange {
  size_t begin = 0;
  size_t end = 0;
};

// Cuts `text` into consecutive pieces whose token estimate is at most `max_tokens` (values
// below 1 are treated as 1): whole lines are packed greedily, and a single line over budget
// is cut at UTF-8 character boundaries, so valid UTF-8 input gives valid UTF-8 pieces. Line
// breaks at either end of a piece and trailing whitespace are left out; pieces that would be
// only whitespace are dropped. Ranges come back in text order.
std::vector<ByteRange> SplitOversize(std::string_view text, size_t max_tokens);

}  // namespace kebab::chunk
