#include "chunk/oversize.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "chunk/md_heading.h"
#include "core/unicode.h"

namespace kebab::chunk {
namespace {

std::vector<std::string> Pieces(std::string_view text, size_t max_tokens) {
  std::vector<std::string> out;
  for (ByteRange r : SplitOversize(text, max_tokens)) {
    out.emplace_back(text.substr(r.begin, r.end - r.begin));
  }
  return out;
}

TEST(SplitOversizeTest, PacksWholeLinesGreedily) {
  // Each line is 4 bytes (1 token); a line break costs one more ASCII byte.
  EXPECT_THAT(Pieces("aaaa\nbbbb\ncccc\ndddd\neeee", 3),
              ::testing::ElementsAre("aaaa\nbbbb", "cccc\ndddd", "eeee"));
}

TEST(SplitOversizeTest, DropsBlankEdgesAndBlankPieces) {
  EXPECT_THAT(Pieces("aaaa\n\n\n\n\n\n\n\n\n\n\n\nbbbb\n   \n", 1),
              ::testing::ElementsAre("aaaa", "bbbb"));
  EXPECT_THAT(Pieces("", 5), ::testing::IsEmpty());
  EXPECT_THAT(Pieces(" \n\t\n", 1), ::testing::IsEmpty());
}

TEST(SplitOversizeTest, KeepsIndentationOfAPieceFirstLine) {
  EXPECT_THAT(Pieces("def f():\n    return 1", 3),
              ::testing::ElementsAre("def f():", "    return 1"));
}

TEST(SplitOversizeTest, CutsLongLinesBetweenCodePoints) {
  const std::string line = "ab가나다cd라마바사😀아자차카타파하ef";
  for (size_t max = 1; max <= 6; ++max) {
    std::string rejoined;
    for (const std::string& p : Pieces(line, max)) {
      EXPECT_TRUE(IsValidUtf8(p)) << max;
      EXPECT_LE(static_cast<size_t>(EstimateTokens(p)), max);
      rejoined += p;
    }
    EXPECT_EQ(rejoined, line) << max;
  }
}

TEST(SplitOversizeTest, PrefersCuttingAfterASpace) {
  // Three tokens hold twelve ASCII bytes; a plain cut would give "alpha beta g".
  EXPECT_THAT(Pieces("alpha beta gamma delta", 3),
              ::testing::ElementsAre("alpha beta", "gamma delta"));
}

TEST(SplitOversizeTest, ShortLeadInJoinsTheLongLineThatFollows) {
  const std::vector<std::string> pieces = Pieces("제목\n\n" + std::string(40, 'x'), 6);
  // 2 syllables + ceil((2 line breaks + 14 x) / 4) = 6 tokens.
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0], "제목\n\n" + std::string(14, 'x'));
}

TEST(SplitOversizeTest, RandomTextKeepsEveryInvariant) {
  const std::vector<std::string> alphabet = {"a", "b", " ", "\n", "가", "😀", "\t"};
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const int len = static_cast<int>(rng() % 400);
    for (int i = 0; i < len; ++i) text += alphabet[rng() % alphabet.size()];
    const size_t max = 1 + rng() % 12;
    std::string kept;
    for (const std::string& p : Pieces(text, max)) {
      ASSERT_TRUE(IsValidUtf8(p));
      ASSERT_LE(static_cast<size_t>(EstimateTokens(p)), max) << p;
      kept += p;
    }
    std::string expected = text;
    std::erase_if(expected, [](char c) { return c == ' ' || c == '\n' || c == '\t'; });
    std::erase_if(kept, [](char c) { return c == ' ' || c == '\n' || c == '\t'; });
    ASSERT_EQ(kept, expected) << "round " << round;
  }
}

TEST(SplitOversizeTest, ZeroBudgetStillMakesProgress) {
  EXPECT_THAT(Pieces("한국", 0), ::testing::ElementsAre("한", "국"));
}

}  // namespace
}  // namespace kebab::chunk
