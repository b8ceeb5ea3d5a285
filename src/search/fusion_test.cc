#include "search/fusion.h"

#include <gtest/gtest.h>

namespace kebab::search {
namespace {

TEST(FuseRrfTest, RankOneInBothChannelsIsOneAndOneChannelIsAtMostHalf) {
  auto fused = FuseRrf({{1, "a", 12.0}, {2, "b", 9.0}}, {{1, "a", 0.9}, {3, "c", 0.8}}, 60);
  ASSERT_EQ(fused.size(), 3u);
  EXPECT_EQ(fused[0].chunk_id, "a");
  EXPECT_DOUBLE_EQ(fused[0].score, 1.0);
  EXPECT_EQ(fused[0].lexical_rank, 1);
  EXPECT_EQ(fused[0].vector_rank, 1);
  EXPECT_DOUBLE_EQ(*fused[0].lexical_score, 12.0);
  EXPECT_DOUBLE_EQ(*fused[0].vector_score, 0.9);
  // b and c are rank 2 in one channel each: equal scores, so chunk id decides.
  EXPECT_EQ(fused[1].chunk_id, "b");
  EXPECT_EQ(fused[2].chunk_id, "c");
  EXPECT_DOUBLE_EQ(fused[1].score, (1.0 / 62) / (2.0 / 61));
  EXPECT_FALSE(fused[1].vector_rank.has_value());
  EXPECT_FALSE(fused[2].lexical_rank.has_value());
}

TEST(FuseRrfTest, SingleChannelRankOneIsExactlyHalf) {
  auto fused = FuseRrf({}, {{7, "x", 0.5}}, 60);
  ASSERT_EQ(fused.size(), 1u);
  EXPECT_DOUBLE_EQ(fused[0].score, 0.5);
}

TEST(FuseRrfTest, AgreementBeatsOneStrongChannel) {
  // d is 2nd in both channels; e is 1st lexically only.
  auto fused = FuseRrf({{5, "e", 3}, {4, "d", 2}}, {{9, "f", 0.9}, {4, "d", 0.8}}, 60);
  EXPECT_EQ(fused[0].chunk_id, "d");
  EXPECT_LT(fused[0].score, 1.0);
  EXPECT_GT(fused[0].score, 0.5);
}

TEST(FuseRrfTest, SmallerRrfKRewardsTopRanksMore) {
  auto k1 = FuseRrf({{1, "a", 1}, {2, "b", 1}}, {}, 1);
  EXPECT_DOUBLE_EQ(k1[0].score, (1.0 / 2) / (2.0 / 2));
  EXPECT_DOUBLE_EQ(k1[1].score, (1.0 / 3) / (2.0 / 2));
}

}  // namespace
}  // namespace kebab::search
