#include "parse/extractor.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "parse/markdown.h"

namespace kebab::parse {
namespace {

TEST(ExtractorTest, MarkdownIsBehindTheInterfaceWithItsOwnVersionAndOutput) {
  const Extractor* extractor = ExtractorFor(MediaKind::kMarkdown);
  ASSERT_NE(extractor, nullptr);
  EXPECT_EQ(extractor->version(), kMarkdownParserVersion);
  const std::string bytes = "---\ntitle: T\n---\n# Head\n\nBody text.\n";
  Result<CanonicalDocument> via =
      extractor->Extract({bytes, "n.md", "asset", "2026-01-01T00:00:00Z"});
  Result<CanonicalDocument> direct =
      ParseMarkdown({bytes, "n.md", "asset", "2026-01-01T00:00:00Z"});
  ASSERT_TRUE(via.ok() && direct.ok());
  EXPECT_EQ(via->doc_id, direct->doc_id);
  ASSERT_EQ(via->blocks.size(), direct->blocks.size());
  for (size_t i = 0; i < via->blocks.size(); ++i) {
    EXPECT_EQ(via->blocks[i].block_id, direct->blocks[i].block_id);
  }
  EXPECT_EQ(via->title, "T");
}

TEST(ExtractorTest, OnlyMediaWithAnExtractorAreExtractable) {
  for (MediaKind m : {MediaKind::kMarkdown, MediaKind::kPdf, MediaKind::kImage, MediaKind::kAudio,
                      MediaKind::kCode, MediaKind::kOther}) {
    const std::vector<MediaKind> media = ExtractableMedia();
    const bool listed = std::find(media.begin(), media.end(), m) != media.end();
    EXPECT_EQ(listed, ExtractorFor(m) != nullptr) << MediaKindName(m);
  }
  EXPECT_EQ(ExtractorFor(MediaKind::kOther), nullptr);
}

}  // namespace
}  // namespace kebab::parse
