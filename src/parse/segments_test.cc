#include "parse/segments.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "parse/cmark_blocks.h"
#include "parse/parse_test_util.h"

namespace kebab::parse {
namespace {

using ::testing::ElementsAre;

// Start offsets of the pieces, and a check that they tile the body with right line offsets.
std::vector<size_t> Starts(std::string_view body, size_t target) {
  std::vector<BodySegment> segments = SplitBody(body, target);
  std::vector<size_t> starts;
  size_t expected_start = 0;
  for (const BodySegment& segment : segments) {
    size_t start = static_cast<size_t>(segment.text.data() - body.data());
    EXPECT_EQ(start, expected_start);
    EXPECT_EQ(segment.line_offset, testing::SplitLines(body.substr(0, start)).size());
    expected_start = start + segment.text.size();
    starts.push_back(start);
  }
  EXPECT_EQ(expected_start, body.size());
  return starts;
}

TEST(SplitBodyTest, SmallBodyIsOnePiece) {
  EXPECT_THAT(Starts("# a\n\nb\n", 1 << 20), ElementsAre(0u));
  EXPECT_THAT(Starts("", 10), ElementsAre(0u));
}

TEST(SplitBodyTest, SplitsOnlyBeforeTopLevelBlocksAfterBlankLines) {
  std::string body =
      "para one\n"      // 0
      "\n"              // 9
      "- item\n"        // 10: list marker, not a split point
      "\n"              // 17
      "  indented\n"    // 18: indented, not a split point
      "\n"              // 29
      "# Heading\n"     // 30: split point
      "next line\n"     // 40: no blank line before it
      "\n"              // 50
      "한국어 문단\n";  // 51: split point
  EXPECT_THAT(Starts(body, 1), ElementsAre(0u, 30u, 51u));
  // Pieces are at least target_bytes long.
  EXPECT_THAT(Starts(body, 35), ElementsAre(0u, 51u));
}

TEST(SplitBodyTest, NeverSplitsInsideFencesOrMultiLineHtml) {
  std::string body =
      "```\n"
      "\n"
      "inside fence\n"
      "````\n"  // closes (longer fences close)
      "\n"
      "<!-- comment\n"
      "\n"
      "inside comment\n"
      "-->\n"
      "\n"
      "<script>\n"
      "\n"
      "inside script\n"
      "</SCRIPT>\n"
      "\n"
      "after\n"
      "~~~ a\n"
      "\n"
      "never closed\n";
  std::vector<size_t> starts = Starts(body, 1);
  ASSERT_EQ(starts.size(), 2u);
  EXPECT_EQ(body.substr(starts[1], 5), "after");
}

TEST(SplitBodyTest, PiecesParseToTheSameBlocksAsTheWhole) {
  std::string body;
  for (int i = 0; i < 40; ++i) {
    std::string n = std::to_string(i);
    body += "# Part " + n + "\n\nText " + n + "\nmore text\n\n- a\n- b\n\n  still b\n\n" +
            "```\ncode\n\nstill code " + n + "\n```\n\n> quote\n\n| h |\n|---|\n| " + n +
            " |\n\nWord " + n + "\r\n\r\n";
  }
  BlockContext whole_context;
  std::vector<Block> whole;
  AppendMarkdownBlocks(body, 3, &whole_context, &whole);

  BlockContext pieces_context;
  std::vector<Block> pieces;
  std::vector<BodySegment> segments = SplitBody(body, 300);
  ASSERT_GT(segments.size(), 10u);
  for (const BodySegment& segment : segments) {
    AppendMarkdownBlocks(segment.text, 3 + segment.line_offset, &pieces_context, &pieces);
  }
  ASSERT_EQ(pieces.size(), whole.size());
  for (size_t i = 0; i < whole.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(pieces[i].kind, whole[i].kind);
    EXPECT_EQ(pieces[i].span, whole[i].span);
    EXPECT_EQ(pieces[i].ordinal, whole[i].ordinal);
    EXPECT_EQ(pieces[i].heading_path, whole[i].heading_path);
    EXPECT_EQ(pieces[i].PayloadJson(), whole[i].PayloadJson());
  }
  EXPECT_EQ(whole[0].span, SourceSpan::Lines(4, 4));  // the offset is applied
}

}  // namespace
}  // namespace kebab::parse
