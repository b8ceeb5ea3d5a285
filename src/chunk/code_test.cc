// Chunker code-v4: a symbol block per chunk, overlong units in numbered parts citing their own
// lines (a definition's head first), paragraphs of grammar-less sources gathered up to the
// target size.
#include "chunk/internal/code.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace kebab::chunk {
namespace {

Block CodeBlock(std::string text, uint64_t start, uint64_t end, std::optional<std::string> symbol) {
  Block b;
  b.kind = BlockKind::kCode;
  b.text = std::move(text);
  b.block_id = "b" + std::to_string(start);
  b.span.kind = SourceSpan::Kind::kCode;
  b.span.start = start;
  b.span.end = end;
  b.span.lang = "rust";
  b.span.symbol = std::move(symbol);
  return b;
}

TEST(CodeChunkerTest, EachSymbolIsAChunkCitingItsLines) {
  CanonicalDocument doc;
  doc.doc_id = "d";
  doc.blocks = {CodeBlock("use std::io;", 1, 1, "<top-level>"),
                CodeBlock("fn a() {}", 3, 3, "m::a"), CodeBlock("fn b() {}", 5, 5, "m::b")};
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kCode)->Split(doc, ChunkPolicy{});
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[1].text, "fn a() {}");
  EXPECT_EQ(chunks[1].section_label, "m::a");
  const SourceSpan& s = chunks[1].source_spans.at(0);
  EXPECT_EQ(s.kind, SourceSpan::Kind::kCode);
  EXPECT_EQ(std::make_pair(s.start, s.end), std::make_pair(uint64_t{3}, uint64_t{3}));
  EXPECT_EQ(s.symbol, "m::a");
  EXPECT_EQ(s.lang, "rust");
  EXPECT_EQ(chunks[0].chunker_version, "code-v4");
}

TEST(CodeChunkerTest, AnOverlongUnitSplitsAtBlankLinesIntoParts) {
  std::string body = "fn long() {\n";
  for (int i = 0; i < 60; ++i) {
    body += "    let value_" + std::to_string(i) + " = compute(" + std::to_string(i) + ");\n";
    if (i % 10 == 9) body += "\n";
  }
  body += "}";
  CanonicalDocument doc;
  doc.doc_id = "d";
  doc.blocks = {CodeBlock(body, 10, 77, "m::long")};  // 68 lines
  ChunkPolicy policy;
  policy.max_chunk_tokens = 200;
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kCode)->Split(doc, policy);
  ASSERT_GT(chunks.size(), 1u);
  uint64_t next = 10;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const SourceSpan& s = chunks[i].source_spans.at(0);
    EXPECT_EQ(s.symbol,
              "m::long [part " + std::to_string(i + 1) + "/" + std::to_string(chunks.size()) + "]");
    EXPECT_GE(s.start, next) << i;
    EXPECT_LE(chunks[i].token_estimate, 200) << i;
    next = s.end + 1;
  }
  EXPECT_EQ(chunks.back().source_spans.at(0).end, 77u);
  EXPECT_NE(chunks[0].chunk_id, chunks[1].chunk_id);
}

// A Rust function: doc comment and signature (lines 1-3), then `n` statements of about 11
// tokens each, a blank line (its indentation left behind) after every fifth, then its
// closing brace.
std::string LongFunction(int n) {
  std::string body =
      "/// Sums the squares of the first values.\n/// Used by the report.\nfn sum() {\n";
  for (int i = 0; i < n; ++i) {
    body += "    let value_" + std::to_string(i) + " = compute(" + std::to_string(i) + ");\n";
    if (i % 5 == 4) body += "    \n";
  }
  return body + "}";
}

TEST(CodeChunkerTest, ADefinitionOverAQuarterOfTheTargetSplitsHeadFirst) {
  const std::string body = LongFunction(30);  // 3 + 30 + 6 blank + 1 = 40 lines, ~400 tokens
  Block unit = CodeBlock(body, 101, 140, "m::sum");
  unit.head_end = 103;
  CanonicalDocument doc;
  doc.doc_id = "d";
  doc.blocks = {unit};
  ChunkPolicy policy;  // target 500: units split past 125 tokens
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kCode)->Split(doc, policy);
  ASSERT_GT(chunks.size(), 2u);
  // The head alone first, so the doc comment's words are not outweighed by the body's.
  EXPECT_EQ(chunks[0].text,
            "/// Sums the squares of the first values.\n/// Used by the report.\nfn sum() {");
  const SourceSpan& head = chunks[0].source_spans.at(0);
  EXPECT_EQ(std::make_pair(head.start, head.end), std::make_pair(uint64_t{101}, uint64_t{103}));
  EXPECT_EQ(head.symbol, "m::sum [part 1/" + std::to_string(chunks.size()) + "]");
  EXPECT_EQ(chunks[0].heading_path, std::vector<std::string>{"m::sum"});
  uint64_t next = 104;
  for (size_t i = 1; i < chunks.size(); ++i) {
    const SourceSpan& s = chunks[i].source_spans.at(0);
    EXPECT_GE(s.start, next) << i;
    EXPECT_LE(chunks[i].token_estimate, 125) << i;
    // A part starts and ends on a line of code, never on a blank one, and is its lines.
    const std::string& text = chunks[i].text;
    EXPECT_NE(text.substr(0, text.find('\n')).find_first_not_of(' '), std::string::npos) << i;
    EXPECT_NE(text.back(), ' ') << i;
    EXPECT_EQ(static_cast<uint64_t>(std::count(chunks[i].text.begin(), chunks[i].text.end(), '\n')),
              s.end - s.start)
        << i;
    next = s.end + 1;
  }
  EXPECT_EQ(chunks.back().source_spans.at(0).end, 140u);

  // Under the cap, or with no head (a manifest, a build stage), it stays one chunk.
  policy.target_tokens = 2000;
  EXPECT_EQ(ChunkerFor(MediaKind::kCode)->Split(doc, policy).size(), 1u);
  policy.target_tokens = 500;
  doc.blocks[0].head_end = 0;
  EXPECT_EQ(ChunkerFor(MediaKind::kCode)->Split(doc, policy).size(), 1u);
}

TEST(CodeChunkerTest, AClassPartsCiteTheirOwnLinesAroundItsMethods) {
  // class C: its head (lines 1-2), a method (lines 4-5, a block of its own), then 16
  // attributes (lines 7-22); the class's text holds its own lines, without the method's.
  std::string own = "class C:\n    \"\"\"A class.\"\"\"\n\n";  // lines 1-3
  own += "\n";                                                 // line 6
  for (int i = 0; i < 16; ++i) {
    own += "    attribute_number_" + std::to_string(i) + " = compute_default_value()";
    if (i < 15) own += "\n";
  }
  Block cls = CodeBlock(own, 1, 22, "m.C");
  cls.head_end = 2;
  Block method = CodeBlock("    def f(self):\n        return 1", 4, 5, "m.C.f");
  method.head_end = 4;
  CanonicalDocument doc;
  doc.doc_id = "d";
  doc.blocks = {cls, method};
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kCode)->Split(doc, ChunkPolicy{});
  ASSERT_GE(chunks.size(), 4u);  // head, two or more parts of attributes, the method
  const SourceSpan& head = chunks[0].source_spans.at(0);
  EXPECT_EQ(std::make_pair(head.start, head.end), std::make_pair(uint64_t{1}, uint64_t{2}));
  const SourceSpan& attrs = chunks[1].source_spans.at(0);
  EXPECT_EQ(attrs.start, 7u);  // after the method, not line 4
  EXPECT_EQ(chunks[1].text.substr(0, 23), "    attribute_number_0 ");
  EXPECT_EQ(chunks[chunks.size() - 2].source_spans.at(0).end, 22u);
  EXPECT_EQ(chunks.back().source_spans.at(0).symbol, "m.C.f");
}

TEST(CodeChunkerTest, ParagraphsWithoutASymbolGatherUpToTheTarget) {
  CanonicalDocument doc;
  doc.doc_id = "d";
  doc.blocks = {CodeBlock("set -e", 1, 1, std::nullopt), CodeBlock("make all", 3, 3, std::nullopt)};
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kCode)->Split(doc, ChunkPolicy{});
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].text, "set -e\n\nmake all");
  EXPECT_EQ(chunks[0].source_spans.at(0).end, 3u);
  EXPECT_FALSE(chunks[0].source_spans.at(0).symbol.has_value());
}

TEST(CodeChunkerTest, AnOverlongTier3ParagraphIsCutIntoOverlappingLineWindows) {
  // 100 lines of equal size (SELECT nnn, an identical token count each), lines 201-300.
  std::string text;
  for (int i = 0; i < 100; ++i) {
    text += (i ? "\n" : "") + std::string("SELECT ") + std::to_string(100 + i) + ";";
  }
  Block b = CodeBlock(text, 201, 300, std::nullopt);
  b.span.lang = "sql";
  CanonicalDocument doc;
  doc.doc_id = "d";
  doc.blocks = {b};
  const int per_line = EstimateTokens("SELECT 100;");
  ChunkPolicy policy;
  // Windows of 30 lines: each line with its LF costs per_line + 1.
  policy.max_chunk_tokens = 30 * per_line + 29;
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kCode)->Split(doc, policy);
  // 30-line windows sharing 3 lines: 201-230, 228-257, 255-284, 282-300.
  const std::vector<std::pair<uint64_t, uint64_t>> want = {
      {201, 230}, {228, 257}, {255, 284}, {282, 300}};
  ASSERT_EQ(chunks.size(), want.size());
  std::set<std::string> ids;
  for (size_t i = 0; i < want.size(); ++i) {
    const SourceSpan& s = chunks[i].source_spans.at(0);
    EXPECT_EQ(std::make_pair(s.start, s.end), want[i]) << i;
    EXPECT_FALSE(s.symbol.has_value());
    EXPECT_EQ(s.lang, "sql");
    // Each window is exactly its cited lines.
    const uint64_t first = s.start - 201;
    EXPECT_EQ(chunks[i].text.substr(0, chunks[i].text.find('\n')),
              "SELECT " + std::to_string(100 + first) + ";");
    EXPECT_EQ(static_cast<uint64_t>(std::count(chunks[i].text.begin(), chunks[i].text.end(), '\n')),
              s.end - s.start);
    ids.insert(chunks[i].chunk_id);
  }
  EXPECT_EQ(ids.size(), want.size());
  // Deterministic: the same document chunks to the same ids.
  const std::vector<Chunk> again = ChunkerFor(MediaKind::kCode)->Split(doc, policy);
  for (size_t i = 0; i < chunks.size(); ++i) EXPECT_EQ(again[i].chunk_id, chunks[i].chunk_id);
}

}  // namespace
}  // namespace kebab::chunk
