#include "chunk/md_heading.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "chunk/test_doc_builder.h"
#include "core/ids.h"
#include "core/unicode.h"

namespace kebab::chunk {
namespace {

using testing::DocBuilder;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::vector<std::string>> BlockIds(const std::vector<Chunk>& chunks) {
  std::vector<std::vector<std::string>> out;
  for (const Chunk& c : chunks) out.push_back(c.block_ids);
  return out;
}

std::vector<std::string> Texts(const std::vector<Chunk>& chunks) {
  std::vector<std::string> out;
  for (const Chunk& c : chunks) out.push_back(c.text);
  return out;
}

std::vector<std::string> Labels(const std::vector<Chunk>& chunks) {
  std::vector<std::string> out;
  for (const Chunk& c : chunks) out.push_back(c.section_label);
  return out;
}

std::string Repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(EstimateTokensTest, AsciiQuartersPlusNonAsciiCodePoints) {
  EXPECT_EQ(EstimateTokens(""), 0);
  EXPECT_EQ(EstimateTokens("abcd"), 1);
  EXPECT_EQ(EstimateTokens("abcde"), 2);
  EXPECT_EQ(EstimateTokens("한국어"), 3);
  EXPECT_EQ(EstimateTokens("ab 한국"), 3);  // 3 ASCII bytes → 1, plus 2 syllables
  EXPECT_EQ(EstimateTokens("😀"), 1);
}

TEST(PolicyHashTest, SixteenHexCharsAndStable) {
  const std::string h = PolicyHash(ChunkPolicy{});
  ASSERT_EQ(h.size(), 16u);
  for (char c : h) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << h;
  EXPECT_EQ(PolicyHash(ChunkPolicy{}), h);
}

TEST(PolicyHashTest, EveryPolicyValueChangesHashAndEveryChunkId) {
  const CanonicalDocument doc = DocBuilder()
                                    .Heading(1, "Title", 1)
                                    .Para("First paragraph.", 3, 3)
                                    .Code("int x;", 5, 7)
                                    .Heading(2, "Next", 9)
                                    .Para("Second paragraph.", 11, 11)
                                    .Build();
  const ChunkPolicy base;
  std::vector<ChunkPolicy> variants(4, base);
  variants[0].target_tokens += 1;
  variants[1].overlap_tokens += 1;
  variants[2].max_chunk_tokens += 1;
  variants[3].respect_markdown_headings = false;

  const std::vector<Chunk> base_chunks = ChunkMarkdown(doc, base);
  ASSERT_FALSE(base_chunks.empty());
  std::set<std::string> hashes = {PolicyHash(base)};
  for (const ChunkPolicy& p : variants) {
    EXPECT_TRUE(hashes.insert(PolicyHash(p)).second) << "policy hash collision";
    std::set<std::string> old_ids;
    for (const Chunk& c : base_chunks) old_ids.insert(c.chunk_id);
    for (const Chunk& c : ChunkMarkdown(doc, p)) {
      EXPECT_EQ(c.policy_hash, PolicyHash(p));
      EXPECT_EQ(old_ids.count(c.chunk_id), 0u) << c.text;
    }
  }
}

TEST(ChunkMarkdownTest, EmptyDocumentGivesNoChunks) {
  EXPECT_THAT(ChunkMarkdown(CanonicalDocument{}, ChunkPolicy{}), IsEmpty());
}

TEST(ChunkMarkdownTest, WhitespaceOnlyBlocksNeverProduceChunks) {
  const CanonicalDocument doc = DocBuilder()
                                    .Para("  \n\t ", 1, 2)
                                    .List({" ", ""}, false, 4, 5)
                                    .Code("\n\n", 7, 10)
                                    .Image("", "", 12)
                                    .Build();
  EXPECT_THAT(ChunkMarkdown(doc, ChunkPolicy{}), IsEmpty());

  const CanonicalDocument mixed = DocBuilder().Para(" ", 1, 1).Para("real", 3, 3).Build();
  const std::vector<Chunk> chunks = ChunkMarkdown(mixed, ChunkPolicy{});
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_THAT(chunks[0].block_ids, ElementsAre("b1"));
}

TEST(ChunkMarkdownTest, HeadingsAreHardBoundaries) {
  const CanonicalDocument doc = DocBuilder()
                                    .Para("Preamble.", 1, 1)
                                    .Heading(2, "Intro", 3)
                                    .Para("Intro text.", 5, 6)
                                    .Quote("A quote.", 7, 7)
                                    .Heading(2, "Usage", 9)
                                    .Para("Usage text.", 11, 11)
                                    .Build();
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, ChunkPolicy{});
  EXPECT_THAT(BlockIds(chunks), ElementsAre(ElementsAre("b0"), ElementsAre("b1", "b2", "b3"),
                                            ElementsAre("b4", "b5")));
  EXPECT_THAT(Texts(chunks),
              ElementsAre("Preamble.", "Intro\n\nIntro text.\n\nA quote.", "Usage\n\nUsage text."));
  EXPECT_THAT(chunks[0].heading_path, IsEmpty());
  EXPECT_THAT(chunks[1].heading_path, ElementsAre("Intro"));
  EXPECT_THAT(chunks[2].heading_path, ElementsAre("Usage"));
  EXPECT_EQ(chunks[1].source_spans, std::vector<SourceSpan>{SourceSpan::Lines(3, 7)});
  for (const Chunk& c : chunks) {
    EXPECT_EQ(c.chunker_version, kMdHeadingV2);
    EXPECT_EQ(c.doc_id, "doc-1");
    EXPECT_EQ(c.token_estimate, EstimateTokens(c.text));
    EXPECT_EQ(c.chunk_id, ChunkId("doc-1", kMdHeadingV2, c.block_ids, PolicyHash(ChunkPolicy{})));
  }
}

TEST(ChunkMarkdownTest, HeadingFollowedByHeadingKeepsItsOwnChunk) {
  const CanonicalDocument doc =
      DocBuilder().Heading(2, "A", 1).Heading(3, "A.1", 3).Para("text", 5, 5).Build();
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, ChunkPolicy{});
  EXPECT_THAT(BlockIds(chunks), ElementsAre(ElementsAre("b0"), ElementsAre("b1", "b2")));
  EXPECT_THAT(chunks[1].heading_path, ElementsAre("A", "A.1"));
}

TEST(ChunkMarkdownTest, IgnoredHeadingsAccumulateLikeParagraphs) {
  const CanonicalDocument doc = DocBuilder()
                                    .Heading(2, "Intro", 1)
                                    .Para("Intro text.", 3, 3)
                                    .Heading(2, "Usage", 5)
                                    .Para("Usage text.", 7, 7)
                                    .Build();
  ChunkPolicy policy;
  policy.respect_markdown_headings = false;
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, policy);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_THAT(chunks[0].block_ids, ElementsAre("b0", "b1", "b2", "b3"));
  EXPECT_EQ(chunks[0].text, "Intro\n\nIntro text.\n\nUsage\n\nUsage text.");
  EXPECT_THAT(chunks[0].heading_path, ElementsAre("Intro"));
  EXPECT_EQ(chunks[0].source_spans, std::vector<SourceSpan>{SourceSpan::Lines(1, 7)});
}

TEST(ChunkMarkdownTest, CodeAndTablesAreAtomicChunks) {
  const CanonicalDocument doc =
      DocBuilder()
          .Heading(2, "Build", 1)
          .Para("Run this:", 3, 3)
          .Code("cmake -B build\nninja -C build\n", 4, 7, "sh")
          .Para("Options:", 9, 9)
          .Table({"flag", "meaning"}, {{"-j", "jobs"}, {"-v", "verbose"}}, 10, 13)
          .Para("Done.", 15, 15)
          .Build();
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, ChunkPolicy{});
  EXPECT_THAT(BlockIds(chunks),
              ElementsAre(ElementsAre("b0", "b1"), ElementsAre("b2"), ElementsAre("b3"),
                          ElementsAre("b4"), ElementsAre("b5")));
  EXPECT_EQ(chunks[1].text, "cmake -B build\nninja -C build");
  EXPECT_EQ(chunks[3].text, "flag | meaning\n-j | jobs\n-v | verbose");
  EXPECT_EQ(chunks[3].source_spans, std::vector<SourceSpan>{SourceSpan::Lines(10, 13)});
  for (const Chunk& c : chunks) EXPECT_THAT(c.heading_path, ElementsAre("Build"));
}

TEST(ChunkMarkdownTest, LoneHeadingJoinsTheAtomicChunkThatFollowsIt) {
  const CanonicalDocument doc = DocBuilder()
                                    .Heading(2, "Example", 1)
                                    .Code("print(1)", 3, 5, "python")
                                    .Heading(2, "Data", 7)
                                    .Table({"k", "v"}, {{"a", "1"}}, 9, 11)
                                    .Heading(2, "Picture", 13)
                                    .Image("img/cat.png", "A cat", 15)
                                    .Build();
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, ChunkPolicy{});
  EXPECT_THAT(BlockIds(chunks), ElementsAre(ElementsAre("b0", "b1"), ElementsAre("b2", "b3"),
                                            ElementsAre("b4", "b5")));
  EXPECT_THAT(Texts(chunks),
              ElementsAre("Example\n\nprint(1)", "Data\n\nk | v\na | 1", "Picture\n\nA cat"));
  EXPECT_THAT(chunks[0].heading_path, ElementsAre("Example"));
  EXPECT_EQ(chunks[0].source_spans, std::vector<SourceSpan>{SourceSpan::Lines(1, 5)});
}

TEST(ChunkMarkdownTest, MediaRefsAreTheirOwnChunks) {
  const CanonicalDocument doc = DocBuilder()
                                    .Para("Before.", 1, 1)
                                    .Image("assets/img/diagram.png?raw=1", "", 2)
                                    .Image("x.png", "Architecture overview", 3)
                                    .Audio("rec/talk.m4a", 4)
                                    .Para("After.", 5, 5)
                                    .Build();
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, ChunkPolicy{});
  EXPECT_THAT(Texts(chunks),
              ElementsAre("Before.", "diagram.png", "Architecture overview", "talk.m4a", "After."));
  EXPECT_EQ(chunks[1].source_spans, std::vector<SourceSpan>{SourceSpan::Lines(2, 2)});
  EXPECT_EQ(chunks[2].token_estimate, EstimateTokens("Architecture overview"));
}

TEST(ChunkMarkdownTest, ListsRenderOneItemPerLine) {
  const CanonicalDocument doc = DocBuilder()
                                    .List({"apples", "pears"}, false, 1, 2)
                                    .Para("then", 4, 4)
                                    .List({"first", "second", "third"}, true, 6, 8)
                                    .Build();
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, ChunkPolicy{});
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].text, "- apples\n- pears\n\nthen\n\n1. first\n2. second\n3. third");
}

// Eight ASCII bytes: two tokens each.
CanonicalDocument EightParagraphDoc() {
  DocBuilder b;
  b.Heading(2, "H", 1);  // one token
  for (uint32_t i = 1; i <= 6; ++i)
    b.Para("para " + std::to_string(i) + "!!", 2 * i + 1, 2 * i + 1);
  return b.Build();
}

TEST(ChunkMarkdownTest, AccumulatesToTargetAndSeedsOverlap) {
  ChunkPolicy policy;
  policy.target_tokens = 7;
  policy.overlap_tokens = 4;  // seed budget min(4, 7/2) = 3 tokens: one paragraph
  const std::vector<Chunk> chunks = ChunkMarkdown(EightParagraphDoc(), policy);
  EXPECT_THAT(BlockIds(chunks),
              ElementsAre(ElementsAre("b0", "b1", "b2", "b3"), ElementsAre("b3", "b4", "b5"),
                          ElementsAre("b5", "b6")));
  EXPECT_EQ(chunks[0].text.rfind("H\n\n", 0), 0u);
  EXPECT_EQ(chunks[1].text, "para 3!!\n\npara 4!!\n\npara 5!!");  // heading not re-seeded
  EXPECT_THAT(chunks[1].heading_path, ElementsAre("H"));
  EXPECT_EQ(chunks[1].source_spans, std::vector<SourceSpan>{SourceSpan::Lines(7, 11)});
}

TEST(ChunkMarkdownTest, OverlapBudgetIsCappedAtHalfTheTarget) {
  ChunkPolicy policy;
  policy.target_tokens = 7;
  policy.overlap_tokens = 100;  // still min(100, 3) = 3 tokens
  EXPECT_THAT(BlockIds(ChunkMarkdown(EightParagraphDoc(), policy)),
              ElementsAre(ElementsAre("b0", "b1", "b2", "b3"), ElementsAre("b3", "b4", "b5"),
                          ElementsAre("b5", "b6")));
  policy.target_tokens = 9;  // budget min(100, 4) = 4 tokens: two paragraphs
  EXPECT_THAT(
      BlockIds(ChunkMarkdown(EightParagraphDoc(), policy)),
      ElementsAre(ElementsAre("b0", "b1", "b2", "b3", "b4"), ElementsAre("b3", "b4", "b5", "b6")));
}

TEST(ChunkMarkdownTest, ZeroOverlapSeedsNothing) {
  ChunkPolicy policy;
  policy.target_tokens = 7;
  policy.overlap_tokens = 0;
  EXPECT_THAT(BlockIds(ChunkMarkdown(EightParagraphDoc(), policy)),
              ElementsAre(ElementsAre("b0", "b1", "b2", "b3"), ElementsAre("b4", "b5", "b6")));
}

TEST(ChunkMarkdownTest, SeedNeverRepeatsAWholeChunk) {
  // The closed chunk's only content block would fit the seed budget, but carrying it would
  // make the closed chunk (heading + that block) redundant with the next one.
  const CanonicalDocument doc = DocBuilder()
                                    .Heading(2, "Long heading", 1)  // 3 tokens
                                    .Para("tiny", 3, 3)             // 1 token
                                    .Para(Repeat("x", 24), 5, 5)    // 6 tokens
                                    .Build();
  ChunkPolicy policy;
  policy.target_tokens = 8;
  policy.overlap_tokens = 4;
  EXPECT_THAT(BlockIds(ChunkMarkdown(doc, policy)),
              ElementsAre(ElementsAre("b0", "b1"), ElementsAre("b2")));
}

TEST(ChunkMarkdownTest, SeedLeavesRoomForTheIncomingBlock) {
  // Budget min(overlap 4, target/2 = 5) would carry "b" and "c"; it shrinks to
  // target - incoming = 10 - 8 = 2 tokens so the next chunk stays within target.
  const CanonicalDocument doc = DocBuilder()
                                    .Para(Repeat("a", 12), 1, 1)  // 3 tokens
                                    .Para(Repeat("b", 8), 3, 3)   // 2 tokens
                                    .Para(Repeat("c", 8), 5, 5)   // 2 tokens
                                    .Para(Repeat("d", 32), 7, 7)  // 8 tokens
                                    .Build();
  ChunkPolicy policy;
  policy.target_tokens = 10;
  policy.overlap_tokens = 4;
  EXPECT_THAT(BlockIds(ChunkMarkdown(doc, policy)),
              ElementsAre(ElementsAre("b0", "b1", "b2"), ElementsAre("b2", "b3")));
}

TEST(ChunkMarkdownTest, OversizeChunkSplitsAtLineBreaksWithNarrowSpans) {
  std::string body;
  for (int i = 0; i < 40; ++i) body += "line " + std::to_string(100 + i) + " of the listing\n";
  // Fence on line 10, body on lines 11..50, closing fence on 51.
  const CanonicalDocument doc = DocBuilder().Code(body, 10, 51, "text").Build();
  ChunkPolicy policy;
  policy.max_chunk_tokens = 20;  // 23 bytes per line → 6 tokens: three lines per piece
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, policy);
  ASSERT_EQ(chunks.size(), 14u);
  std::string rejoined;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& c = chunks[i];
    EXPECT_LE(c.token_estimate, 20);
    EXPECT_EQ(c.token_estimate, EstimateTokens(c.text));
    EXPECT_THAT(c.block_ids, ElementsAre("b0"));
    EXPECT_EQ(c.policy_hash, PolicyHash(policy));
    EXPECT_EQ(c.chunk_id, ChunkId("doc-1", kMdHeadingV2, {"b0"},
                                  PolicyHash(policy) + "#seg" + std::to_string(i)));
    const int first = std::stoi(c.text.substr(5, 3)) - 100;
    const int lines = static_cast<int>(std::count(c.text.begin(), c.text.end(), '\n')) + 1;
    EXPECT_EQ(c.source_spans,
              std::vector<SourceSpan>{SourceSpan::Lines(11 + first, 10 + first + lines)})
        << c.text;
    rejoined += c.text + "\n";
  }
  EXPECT_EQ(rejoined, body);
}

TEST(ChunkMarkdownTest, HugeKoreanLineSplitsAtCharacterBoundaries) {
  const std::string line = Repeat("가나다라마바사아자차카타파하", 150);  // 2100 syllables
  const CanonicalDocument doc =
      DocBuilder().Heading(2, "한국어", 1).Para("짧은 줄\n" + line + "\n끝.", 3, 5).Build();
  ChunkPolicy policy;
  policy.max_chunk_tokens = 100;
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, policy);
  ASSERT_GE(chunks.size(), 22u);
  std::string rejoined;
  std::set<std::string> ids;
  for (const Chunk& c : chunks) {
    EXPECT_TRUE(IsValidUtf8(c.text));
    EXPECT_LE(c.token_estimate, 100);
    EXPECT_THAT(c.block_ids, ElementsAre("b0", "b1"));
    EXPECT_EQ(c.section_label, "§1 한국어");
    ASSERT_EQ(c.source_spans.size(), 1u);
    EXPECT_GE(c.source_spans[0].start, 1u);
    EXPECT_LE(c.source_spans[0].end, 5u);
    EXPECT_LE(c.source_spans[0].start, c.source_spans[0].end);
    EXPECT_TRUE(ids.insert(c.chunk_id).second);
    rejoined += c.text;
  }
  // The short lines before the long one fill the first piece rather than stand alone.
  EXPECT_EQ(chunks.front().text.rfind("한국어\n\n짧은 줄\n가나다", 0), 0u);
  EXPECT_EQ(chunks.front().source_spans[0], SourceSpan::Lines(1, 4));
  for (size_t i = 1; i + 1 < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].source_spans[0], SourceSpan::Lines(4, 4));
  }
  EXPECT_EQ(chunks.back().text, "끝.");
  EXPECT_EQ(chunks.back().source_spans[0], SourceSpan::Lines(5, 5));
  EXPECT_EQ(rejoined, "한국어\n\n짧은 줄\n" + line + "끝.");
}

TEST(ChunkMarkdownTest, SplitPiecesOfUnmappableBlocksCiteTheWholeBlock) {
  // Two source lines joined into one text line: no line-exact mapping exists.
  const CanonicalDocument doc = DocBuilder().Para(Repeat("word ", 40), 7, 8).Build();
  ChunkPolicy policy;
  policy.max_chunk_tokens = 10;
  const std::vector<Chunk> chunks = ChunkMarkdown(doc, policy);
  ASSERT_GE(chunks.size(), 2u);
  for (const Chunk& c : chunks) {
    EXPECT_EQ(c.source_spans, std::vector<SourceSpan>{SourceSpan::Lines(7, 8)});
  }
}

TEST(SectionLabelTest, SingleLeadingH1IsTheTitle) {
  const CanonicalDocument doc = DocBuilder()
                                    .Heading(1, "Guide", 1)
                                    .Para("About.", 2, 2)
                                    .Heading(2, "Intro", 3)
                                    .Para("a", 4, 4)
                                    .Heading(2, "Usage", 5)
                                    .Para("b", 6, 6)
                                    .Heading(3, "Flags", 7)
                                    .Para("c", 8, 8)
                                    .Heading(3, "Env", 9)
                                    .Para("d", 10, 10)
                                    .Heading(2, "FAQ", 11)
                                    .Para("e", 12, 12)
                                    .Build();
  EXPECT_THAT(Labels(ChunkMarkdown(doc, ChunkPolicy{})),
              ElementsAre("Guide", "§1 Intro", "§2 Usage", "§2.1 Flags", "§2.2 Env", "§3 FAQ"));
}

TEST(SectionLabelTest, SeveralH1sAreNumbered) {
  const CanonicalDocument doc = DocBuilder()
                                    .Para("Loose text.", 1, 1)
                                    .Heading(1, "A", 2)
                                    .Para("a", 3, 3)
                                    .Heading(2, "A one", 4)
                                    .Para("a1", 5, 5)
                                    .Heading(1, "B", 6)
                                    .Para("b", 7, 7)
                                    .Build();
  EXPECT_THAT(Labels(ChunkMarkdown(doc, ChunkPolicy{})),
              ElementsAre("", "§1 A", "§1.1 A one", "§2 B"));
}

TEST(SectionLabelTest, H1AfterAnotherHeadingIsNotATitle) {
  const CanonicalDocument doc = DocBuilder()
                                    .Heading(2, "Pre", 1)
                                    .Para("p", 2, 2)
                                    .Heading(1, "Main", 3)
                                    .Para("m", 4, 4)
                                    .Heading(4, "Deep", 5)
                                    .Para("d", 6, 6)
                                    .Build();
  EXPECT_THAT(Labels(ChunkMarkdown(doc, ChunkPolicy{})),
              ElementsAre("§1 Pre", "§2 Main", "§2.1 Deep"));
}

TEST(SectionLabelTest, LabelsFollowTheFirstBlockOfEachChunk) {
  ChunkPolicy policy;
  policy.target_tokens = 7;
  policy.overlap_tokens = 4;
  for (const Chunk& c : ChunkMarkdown(EightParagraphDoc(), policy)) {
    EXPECT_EQ(c.section_label, "§1 H");
  }
}

TEST(ChunkMarkdownTest, Deterministic) {
  const CanonicalDocument doc = DocBuilder()
                                    .Heading(1, "T", 1)
                                    .Para(Repeat("결정적 ", 300), 2, 2)
                                    .Code(Repeat("x = 1\n", 200), 3, 204)
                                    .List({"a", "b"}, true, 205, 206)
                                    .Build();
  ChunkPolicy policy;
  policy.target_tokens = 50;
  policy.max_chunk_tokens = 120;
  const std::vector<Chunk> first = ChunkMarkdown(doc, policy);
  for (int run = 0; run < 20; ++run) {
    const std::vector<Chunk> again = ChunkMarkdown(doc, policy);
    ASSERT_EQ(again.size(), first.size());
    for (size_t i = 0; i < first.size(); ++i) {
      EXPECT_EQ(again[i].chunk_id, first[i].chunk_id);
      EXPECT_EQ(again[i].text, first[i].text);
      EXPECT_EQ(again[i].source_spans, first[i].source_spans);
    }
  }
}

}  // namespace
}  // namespace kebab::chunk
