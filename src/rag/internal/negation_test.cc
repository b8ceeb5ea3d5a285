#include "rag/internal/negation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kebab::rag::internal {
namespace {

using ::testing::ElementsAre;

TEST(NegationTest, EnglishCues) {
  EXPECT_TRUE(IsNegated("It is not split."));
  EXPECT_TRUE(IsNegated("Never split code."));
  EXPECT_TRUE(IsNegated("It doesn't split."));
  EXPECT_TRUE(IsNegated("It doesn\xE2\x80\x99t split."));
  EXPECT_TRUE(IsNegated("Works without a server."));
  EXPECT_FALSE(IsNegated("Notes are kept in nodes; knowledge is nominal."));
  EXPECT_FALSE(IsNegated("Chunks are about 500 tokens."));
}

TEST(NegationTest, KoreanCues) {
  EXPECT_TRUE(IsNegated("저장하지 않는다"));
  EXPECT_TRUE(IsNegated("대여소가 없다"));
  EXPECT_TRUE(IsNegated("관측할 수 없다"));
  EXPECT_TRUE(IsNegated("그것은 파일이 아니다"));
  EXPECT_TRUE(IsNegated("오늘은 안 한다"));
  EXPECT_FALSE(IsNegated("안내 데스크에서 저장한다"));
  EXPECT_FALSE(IsNegated("문서를 파일 하나에 저장한다"));
}

TEST(NegationTest, SentencesSplitAtStopsAndBlankLines) {
  EXPECT_THAT(Sentences("One is 2.5 km. Two? Three!\n\nFour 。 五。六"),
              ElementsAre("One is 2.5 km.", "Two?", "Three!", "Four 。", "五。", "六"));
  EXPECT_THAT(Sentences(""), ElementsAre());
}

}  // namespace
}  // namespace kebab::rag::internal
