#include "text/korean.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kebab::text {
namespace {

TEST(KoreanSuffixTest, StripsParticles) {
  EXPECT_EQ(FindKoreanSuffix("회의록을", 2).syllables, 1u);
  EXPECT_EQ(FindKoreanSuffix("날짜는", 2).syllables, 1u);
  EXPECT_EQ(FindKoreanSuffix("저장소에서는", 2).syllables, 3u);
  EXPECT_EQ(FindKoreanSuffix("디렉토리로부터", 2).syllables, 3u);
}

TEST(KoreanSuffixTest, StripsPredicateEndingsLongestFirst) {
  EXPECT_EQ(FindKoreanSuffix("작성한", 2).syllables, 1u);
  EXPECT_EQ(FindKoreanSuffix("작성하였다", 2).syllables, 3u);
  EXPECT_EQ(FindKoreanSuffix("커밋합니다", 2).syllables, 3u);
  EXPECT_EQ(FindKoreanSuffix("사용하였습니다", 2).syllables, 5u);
  EXPECT_EQ(FindKoreanSuffix("설치되는지", 2).syllables, 3u);
  EXPECT_EQ(FindKoreanSuffix("표시하는", 2).syllables, 2u);  // 하는, not just 는
}

TEST(KoreanSuffixTest, KeepsTheMinimumStem) {
  EXPECT_EQ(FindKoreanSuffix("가을", 2).syllables, 0u);  // autumn, not 가 + 을
  EXPECT_EQ(FindKoreanSuffix("경로", 2).syllables, 0u);
  EXPECT_EQ(FindKoreanSuffix("파일을", 2).syllables, 1u);
  EXPECT_EQ(FindKoreanSuffix("책을", 2).syllables, 0u);
  EXPECT_EQ(FindKoreanSuffix("책을", 1).syllables, 1u);
  // 에서는 would leave one syllable; the shorter 는 leaves two.
  EXPECT_EQ(FindKoreanSuffix("집에서는", 2).syllables, 1u);
}

TEST(KoreanSuffixTest, SaysWhetherItIsAParticleOrAnEnding) {
  EXPECT_EQ(FindKoreanSuffix("회의록을", 2).kind, KoreanSuffixKind::kParticle);
  EXPECT_EQ(FindKoreanSuffix("작성하였다", 2).kind, KoreanSuffixKind::kEnding);
  EXPECT_EQ(FindKoreanSuffix("가을", 2).kind, KoreanSuffixKind::kNone);
}

TEST(KoreanSuffixTest, FindsTheSuffixOfARunWithItsOffset) {
  const std::string text = "Redis를 회의록을 提交";
  const std::vector<ScriptRun> runs = ScriptRuns(text);
  ASSERT_EQ(runs.size(), 4u);
  const KoreanRunSuffix minutes = FindKoreanSuffix(text, runs[2], 2);
  EXPECT_EQ(minutes.suffix.kind, KoreanSuffixKind::kParticle);
  EXPECT_EQ(text.substr(minutes.start, runs[2].end - minutes.start), "을");
  EXPECT_EQ(FindKoreanSuffix(text, runs[1], 0).suffix.syllables, 1u);  // 를 alone
  EXPECT_EQ(FindKoreanSuffix(text, runs[0], 0).suffix.syllables, 0u);  // a Latin run
  EXPECT_EQ(FindKoreanSuffix(text, runs[3], 0).start, runs[3].end);    // Han: none
}

TEST(KoreanSuffixTest, LeavesOtherWordsAlone) {
  EXPECT_EQ(FindKoreanSuffix("데이터베이스", 2).syllables, 0u);
  EXPECT_EQ(FindKoreanSuffix("", 2).syllables, 0u);
  EXPECT_EQ(FindKoreanSuffix("database", 2).syllables, 0u);
  EXPECT_EQ(FindKoreanSuffix("提交文件", 2).syllables, 0u);
}

}  // namespace
}  // namespace kebab::text
