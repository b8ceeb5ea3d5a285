#include "chunk/internal/code.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/hash.h"
#include "core/ids.h"

namespace kebab::chunk::internal {
namespace {

struct Piece {
  std::string text;
  uint64_t start = 0, end = 0;  // lines
};

// The source line of each line of blocks[i]'s text. A container's text (a class, an impl)
// leaves out the lines of the units inside it (parse/internal/code.h), which are the blocks
// after it that start within its lines; every other text is its lines in order.
std::vector<uint64_t> TextLines(const std::vector<Block>& blocks, size_t i) {
  const Block& b = blocks[i];
  std::vector<uint64_t> lines;
  uint64_t n = b.span.start;
  for (size_t j = i + 1; j < blocks.size() && blocks[j].span.start <= b.span.end; ++j) {
    for (; n < blocks[j].span.start; ++n) lines.push_back(n);
    n = std::max(n, blocks[j].span.end + 1);
  }
  for (; n <= b.span.end; ++n) lines.push_back(n);
  return lines;
}

// `b`'s text in pieces of at most `max` tokens, cut at blank lines (a piece of one overlong
// paragraph is cut at line ends), the unit's head (b.head_end) ending a piece of its own; each
// piece cites its lines (`lines`: the source line of each text line), blank lines at its
// edges left out.
std::vector<Piece> Split(const Block& b, size_t max, const std::vector<uint64_t>& lines) {
  std::vector<Piece> pieces;
  Piece cur;
  size_t cur_tokens = 0;
  size_t cur_kept = 0;  // cur.text's size up to its last non-blank line, that line's LF left out
  auto flush = [&] {
    cur.text.resize(cur_kept);
    if (!cur.text.empty()) pieces.push_back(std::move(cur));
    cur = Piece{};
    cur_tokens = cur_kept = 0;
  };
  size_t pos = 0;
  for (size_t k = 0; pos <= b.text.size(); ++k) {
    size_t end = b.text.find('\n', pos);
    if (end == std::string::npos) end = b.text.size();
    const std::string_view text = std::string_view(b.text).substr(pos, end - pos);
    pos = end + 1;
    const uint64_t line =
        k < lines.size() ? lines[k] : (lines.empty() ? b.span.start : lines.back());
    const bool blank = text.find_first_not_of(" \t") == std::string_view::npos;
    const size_t tokens = static_cast<size_t>(EstimateTokens(text)) + 1;
    if (!cur.text.empty() &&
        (cur_tokens + tokens > max || (blank && cur_tokens + tokens > max / 2) ||
         (b.head_end != 0 && cur.end == b.head_end))) {
      flush();
    }
    if (cur.text.empty() && blank) continue;  // a piece starts at its first non-blank line
    if (cur.text.empty()) cur.start = line;
    cur.text.append(text);
    if (!blank) {
      cur.end = line;
      cur_kept = cur.text.size();
    }
    cur.text += '\n';
    cur_tokens += tokens;
  }
  flush();
  return pieces;
}

// A definition with a head (a Tier 1 unit: its signature, doc comment or docstring) longer
// than target_tokens / kUnitShareOfTarget splits into parts: its head first, then its body.
// BM25 discounts a word by the length of the chunk holding it, so a question in the words
// of a docstring should meet the docstring in a chunk of about its own size rather than
// diluted by a long body, and each part cites lines a reader can take in. bench/code_bench.py's
// symbol lookup (300 docstring questions on Python's standard library) measured the cap,
// hit@1/hit@10/MRR@10: 0.840/0.970/0.889 with whole units up to max_chunk_tokens, 0.860/0.977/0.905
// at 500 tokens, 0.883/0.980/0.921 at 250, 0.887/0.990/0.931 at 150, 0.920/0.990/0.948 at 125 (a
// quarter of the default 500), 0.897/0.987/0.935 at 100; the same files as plain paragraphs
// 0.877/0.980/0.912. Units without a head (manifests, build stages, resources, `<top-level>` glue)
// are read whole up to max_chunk_tokens: no part of them speaks for the rest.
constexpr size_t kUnitShareOfTarget = 4;

// Tier 3 windows share this share of their lines (at least one) with the window before: a
// definition or statement cut at a window's edge is then whole in one of the two, and a query
// for the lines around the cut finds them together. A tenth keeps the index small (a file is
// stored about 1.1 times) while covering a short function at the default window size.
constexpr size_t kWindowOverlapPercent = 10;

// An overlong paragraph of a grammar-less source in line windows of at most `max` tokens (a
// single longer line is a window of its own), each sharing kWindowOverlapPercent of its lines
// with the next; each window knows its lines.
std::vector<Piece> Windows(const Block& b, size_t max) {
  std::vector<std::string_view> lines;
  for (size_t pos = 0; pos <= b.text.size();) {
    size_t end = b.text.find('\n', pos);
    if (end == std::string::npos) end = b.text.size();
    lines.push_back(std::string_view(b.text).substr(pos, end - pos));
    pos = end + 1;
  }
  std::vector<Piece> pieces;
  size_t first = 0;
  while (first < lines.size()) {
    size_t last = first;  // inclusive
    size_t tokens = static_cast<size_t>(EstimateTokens(lines[first]));
    while (last + 1 < lines.size()) {
      const size_t grown = tokens + static_cast<size_t>(EstimateTokens(lines[last + 1])) + 1;
      if (grown > max) break;
      tokens = grown;
      ++last;
    }
    Piece piece{"", b.span.start + first, b.span.start + last};
    for (size_t i = first; i <= last; ++i) {
      piece.text.append(lines[i]);
      if (i < last) piece.text += '\n';
    }
    pieces.push_back(std::move(piece));
    if (last + 1 >= lines.size()) break;
    const size_t overlap = std::max<size_t>(1, (last - first + 1) * kWindowOverlapPercent / 100);
    // Always move on by a line at least, so a window of one line ends the overlap.
    first = std::max(first + 1, last + 1 - std::min(overlap, last - first));
  }
  return pieces;
}

}  // namespace

std::string CodePolicyHash(const ChunkPolicy& policy) {
  const nlohmann::json j = {{"chunker_version", kCodeChunkerVersion},
                            {"target_tokens", policy.target_tokens},
                            {"max_chunk_tokens", policy.max_chunk_tokens}};
  return Blake3Hex(CanonicalJson(j)).substr(0, 16);
}

std::vector<Chunk> ChunkCode(const CanonicalDocument& doc, const ChunkPolicy& policy) {
  const std::string policy_hash = CodePolicyHash(policy);
  const auto max = static_cast<size_t>(std::max(1, policy.max_chunk_tokens));
  const auto target = static_cast<size_t>(std::max(1, policy.target_tokens));
  const size_t unit_max = std::clamp<size_t>(target / kUnitShareOfTarget, 1, max);
  std::vector<Chunk> out;
  auto emit = [&](std::string text, uint64_t start, uint64_t end, const Block& like,
                  std::vector<std::string> block_ids, std::optional<std::string> symbol,
                  const std::string& id_salt) {
    Chunk c;
    c.doc_id = doc.doc_id;
    c.text = std::move(text);
    c.block_ids = std::move(block_ids);
    c.chunker_version = kCodeChunkerVersion;
    c.policy_hash = policy_hash;
    c.token_estimate = EstimateTokens(c.text);
    SourceSpan span = like.span;
    span.start = start;
    span.end = end;
    span.symbol = symbol;
    c.source_spans.push_back(std::move(span));
    c.section_label = symbol.value_or("");
    // The unit's symbol is its heading: a query naming it finds the definition's chunk in
    // the heading column too, above chunks that only call it.
    if (like.span.symbol && *like.span.symbol != kTopLevelSymbol) {
      c.heading_path = {*like.span.symbol};
    }
    c.chunk_id = ChunkId(c.doc_id, kCodeChunkerVersion, c.block_ids, policy_hash + id_salt);
    out.push_back(std::move(c));
  };
  size_t i = 0;
  while (i < doc.blocks.size()) {
    const Block& b = doc.blocks[i];
    if (b.span.symbol) {
      const size_t cap = b.head_end != 0 ? unit_max : max;
      const std::vector<Piece> pieces = static_cast<size_t>(EstimateTokens(b.text)) <= cap
                                            ? std::vector<Piece>{{b.text, b.span.start, b.span.end}}
                                            : Split(b, cap, TextLines(doc.blocks, i));
      for (size_t p = 0; p < pieces.size(); ++p) {
        std::string symbol = *b.span.symbol;
        if (pieces.size() > 1) {
          symbol += " [part " + std::to_string(p + 1) + "/" + std::to_string(pieces.size()) + "]";
        }
        emit(pieces[p].text, pieces[p].start, pieces[p].end, b, {b.block_id}, symbol,
             pieces.size() > 1 ? "#part" + std::to_string(p) : "");
      }
      ++i;
      continue;
    }
    // Paragraphs of a source without a grammar (Tier 3), up to target_tokens a chunk; one
    // longer than max_chunk_tokens in overlapping line windows.
    if (static_cast<size_t>(EstimateTokens(b.text)) > max) {
      const std::vector<Piece> pieces = Windows(b, max);
      for (size_t p = 0; p < pieces.size(); ++p) {
        emit(pieces[p].text, pieces[p].start, pieces[p].end, b, {b.block_id}, std::nullopt,
             "#part" + std::to_string(p));
      }
      ++i;
      continue;
    }
    std::string text = b.text;
    std::vector<std::string> ids = {b.block_id};
    const uint64_t start = b.span.start;
    uint64_t end = b.span.end;
    size_t j = i + 1;
    while (j < doc.blocks.size() && !doc.blocks[j].span.symbol &&
           static_cast<size_t>(EstimateTokens(text) + EstimateTokens(doc.blocks[j].text)) <=
               target) {
      text += "\n\n" + doc.blocks[j].text;
      ids.push_back(doc.blocks[j].block_id);
      end = doc.blocks[j].span.end;
      ++j;
    }
    emit(std::move(text), start, end, b, std::move(ids), std::nullopt, "");
    i = j;
  }
  return out;
}

}  // namespace kebab::chunk::internal
