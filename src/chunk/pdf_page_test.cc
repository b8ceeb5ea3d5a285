#include "chunk/internal/pdf_page.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "chunk/chunker.h"

namespace kebab::chunk {
namespace {

// A PDF-like document: `paras[p]` are page p+1's paragraphs (ids and spans filled in).
CanonicalDocument Pages(const std::vector<std::vector<std::string>>& paras) {
  CanonicalDocument doc;
  doc.doc_id = "doc-pdf";
  for (size_t p = 0; p < paras.size(); ++p) {
    uint32_t chars = 0;
    for (const std::string& text : paras[p]) {
      Block b;
      b.kind = BlockKind::kParagraph;
      b.text = text;
      b.ordinal = static_cast<int>(doc.blocks.size());
      b.block_id = "b" + std::to_string(doc.blocks.size());
      b.span.kind = SourceSpan::Kind::kPage;
      b.span.page = static_cast<uint32_t>(p + 1);
      b.span.char_start = chars;
      chars += static_cast<uint32_t>(text.size());
      b.span.char_end = chars;
      chars += 2;
      doc.blocks.push_back(std::move(b));
    }
  }
  return doc;
}

std::string Words(int n, const std::string& word) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? " " : "") + word;
  return s;
}

TEST(PdfPageChunkerTest, AShortPageIsOneChunkCitingItsPageAndCharacters) {
  const Chunker* chunker = ChunkerFor(MediaKind::kPdf);
  ASSERT_NE(chunker, nullptr);
  EXPECT_EQ(chunker->version(), "pdf-page-v1");
  const CanonicalDocument doc = Pages({{"One.", "Two."}, {"Three."}});
  const std::vector<Chunk> chunks = chunker->Split(doc, ChunkPolicy{});
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "One.\n\nTwo.");
  EXPECT_EQ(chunks[0].block_ids, (std::vector<std::string>{"b0", "b1"}));
  ASSERT_EQ(chunks[0].source_spans.size(), 1u);
  const SourceSpan& span = chunks[0].source_spans[0];
  EXPECT_EQ(span.kind, SourceSpan::Kind::kPage);
  EXPECT_EQ(span.page, 1u);
  EXPECT_EQ(span.char_start, 0u);
  EXPECT_EQ(span.char_end, 10u);
  EXPECT_EQ(chunks[0].section_label, "p. 1");
  EXPECT_EQ(chunks[1].source_spans[0].page, 2u);
  EXPECT_EQ(chunks[1].chunker_version, "pdf-page-v1");
  EXPECT_EQ(chunks[1].policy_hash, chunker->PolicyHash(ChunkPolicy{}));
}

TEST(PdfPageChunkerTest, TheOutlinesHeadingNamesTheSection) {
  CanonicalDocument doc = Pages({{"Front."}, {"Walrus habits."}});
  doc.blocks[1].heading_path = {"1 Walrus", "1.1 Habits"};
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kPdf)->Split(doc, ChunkPolicy{});
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].section_label, "p. 1");  // no heading: the page names it
  EXPECT_EQ(chunks[1].heading_path, (std::vector<std::string>{"1 Walrus", "1.1 Habits"}));
  EXPECT_EQ(chunks[1].section_label, "1.1 Habits");
}

TEST(PdfPageChunkerTest, ALongPageSplitsAtParagraphsWithOverlapAndNeverCrossesAPage) {
  ChunkPolicy policy;
  policy.target_tokens = 60;
  policy.overlap_tokens = 30;
  // Paragraphs of ~25 tokens (100 ASCII bytes): two fit a chunk; the second seeds the next.
  std::vector<std::string> page1;
  for (int i = 0; i < 6; ++i) page1.push_back(Words(20, "word" + std::to_string(i)).substr(0, 99));
  const CanonicalDocument doc = Pages({page1, {"tail on page two"}});
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kPdf)->Split(doc, policy);
  ASSERT_GE(chunks.size(), 4u);
  std::set<std::string> ids;
  for (const Chunk& c : chunks) {
    ids.insert(c.chunk_id);
    const uint32_t page = c.source_spans[0].page;
    for (const std::string& id : c.block_ids) {
      const size_t index = std::stoul(id.substr(1));
      EXPECT_EQ(doc.blocks[index].span.page, page) << "chunk crosses a page";
    }
    EXPECT_LE(c.token_estimate, 60);
  }
  EXPECT_EQ(ids.size(), chunks.size());
  // Overlap: each chunk on page 1 after the first starts with the previous chunk's last block.
  EXPECT_EQ(chunks[1].block_ids.front(), chunks[0].block_ids.back());
  EXPECT_EQ(chunks.back().text, "tail on page two");
}

TEST(PdfPageChunkerTest, AnOversizeParagraphSplitsIntoPiecesWithIdsOfTheirOwn) {
  ChunkPolicy policy;
  policy.max_chunk_tokens = 50;
  std::string big;
  for (int i = 0; i < 40; ++i) big += "line number " + std::to_string(i) + " of the page\n";
  const std::vector<Chunk> chunks = ChunkerFor(MediaKind::kPdf)->Split(Pages({{big}}), policy);
  ASSERT_GT(chunks.size(), 1u);
  std::set<std::string> ids;
  for (const Chunk& c : chunks) {
    ids.insert(c.chunk_id);
    EXPECT_LE(c.token_estimate, 50);
    EXPECT_EQ(c.source_spans[0].page, 1u);
  }
  EXPECT_EQ(ids.size(), chunks.size());
}

TEST(PdfPageChunkerTest, PolicyHashDependsOnVersionAndSizes) {
  ChunkPolicy a, b;
  b.overlap_tokens = 10;
  EXPECT_NE(internal::PagePolicyHash(a, internal::kPdfPageV1),
            internal::PagePolicyHash(b, internal::kPdfPageV1));
  EXPECT_NE(internal::PagePolicyHash(a, internal::kPdfPageV1),
            ChunkerFor(MediaKind::kMarkdown)->PolicyHash(a));
}

TEST(PageChunkerTest, RegionBlocksCiteTheBoxAroundTheirLinesAndADescriptionOrCaptionStandsAlone) {
  CanonicalDocument doc;
  doc.doc_id = "doc-img";
  auto add = [&](BlockKind kind, std::string text, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    Block b;
    b.kind = kind;
    b.text = std::move(text);
    b.ordinal = static_cast<int>(doc.blocks.size());
    b.block_id = "b" + std::to_string(doc.blocks.size());
    b.span.kind = SourceSpan::Kind::kRegion;
    b.span.x = x, b.span.y = y, b.span.w = w, b.span.h = h;
    doc.blocks.push_back(std::move(b));
  };
  add(BlockKind::kImageRef, "board.jpg, image 2000 x 1000 pixels", 0, 0, 2000, 1000);
  add(BlockKind::kParagraph, "A whiteboard with sprint goals", 0, 0, 0, 0);
  doc.blocks.back().span = SourceSpan{.kind = SourceSpan::Kind::kCaption, .model = "llava:7b"};
  add(BlockKind::kParagraph, "Sprint goals for the quarter", 100, 50, 800, 60);
  add(BlockKind::kParagraph, "Ship the OCR pipeline", 120, 200, 500, 40);
  const Chunker& chunker = *ChunkerFor(MediaKind::kImage);
  EXPECT_EQ(chunker.version(), "image-region-v1");
  std::vector<Chunk> chunks = chunker.Split(doc, ChunkPolicy{});
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].text, "board.jpg, image 2000 x 1000 pixels");
  // The caption is a chunk of its own, cited as the caption it is.
  EXPECT_EQ(chunks[1].text, "A whiteboard with sprint goals");
  EXPECT_EQ(chunks[1].source_spans, std::vector<SourceSpan>{doc.blocks[1].span});
  chunks.erase(chunks.begin() + 1);
  ASSERT_EQ(chunks[1].source_spans.size(), 1u);
  const SourceSpan& box = chunks[1].source_spans[0];
  EXPECT_EQ(box.kind, SourceSpan::Kind::kRegion);
  EXPECT_EQ(std::tie(box.x, box.y, box.w, box.h), std::make_tuple(100u, 50u, 800u, 190u));
  EXPECT_EQ(chunks[1].section_label, "");
  EXPECT_NE(chunks[0].chunk_id, chunks[1].chunk_id);
  EXPECT_NE(chunker.PolicyHash(ChunkPolicy{}),
            ChunkerFor(MediaKind::kPdf)->PolicyHash(ChunkPolicy{}));
}

}  // namespace
}  // namespace kebab::chunk
