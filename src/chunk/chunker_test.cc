#include "chunk/chunker.h"

#include <gtest/gtest.h>

#include "chunk/md_heading.h"
#include "chunk/test_doc_builder.h"

namespace kebab::chunk {
namespace {

TEST(ChunkerTest, MarkdownIsBehindTheInterfaceWithIdenticalChunks) {
  const Chunker* chunker = ChunkerFor(MediaKind::kMarkdown);
  ASSERT_NE(chunker, nullptr);
  EXPECT_EQ(chunker->version(), kMdHeadingV2);
  ChunkPolicy policy;
  policy.target_tokens = 20;
  EXPECT_EQ(chunker->PolicyHash(policy), PolicyHash(policy));
  EXPECT_NE(chunker->PolicyHash(policy), chunker->PolicyHash(ChunkPolicy{}));

  const CanonicalDocument doc = testing::DocBuilder()
                                    .Heading(1, "Title", 1)
                                    .Para("One paragraph of words that fill the budget.", 3, 3)
                                    .Para("Another paragraph, with more words in it.", 5, 6)
                                    .Heading(2, "Section", 8)
                                    .Code("int x = 1;", 10, 12, "c")
                                    .Build();
  const std::vector<Chunk> via = chunker->Split(doc, policy);
  const std::vector<Chunk> direct = ChunkMarkdown(doc, policy);
  ASSERT_EQ(via.size(), direct.size());
  ASSERT_GE(via.size(), 2u);
  for (size_t i = 0; i < via.size(); ++i) {
    EXPECT_EQ(via[i].chunk_id, direct[i].chunk_id);
    EXPECT_EQ(via[i].text, direct[i].text);
  }
}

TEST(ChunkerTest, NoChunkerForAMediumWithoutOne) {
  EXPECT_EQ(ChunkerFor(MediaKind::kOther), nullptr);
}

}  // namespace
}  // namespace kebab::chunk
