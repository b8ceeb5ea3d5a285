#include "eval/metrics.h"

#include <gtest/gtest.h>

namespace kebab::eval {
namespace {

RankedHit Hit(std::string chunk, std::string doc, int from = 0, int to = 0) {
  return {std::move(chunk), std::move(doc), from, to};
}

const std::map<std::string, std::string> kNoChunks;

TEST(MetricsTest, DocumentLevelCountsEachDocumentOnceWithGradedGains) {
  // d1 comes back twice; at document level the ranking is d1, d2, d3, d4.
  const std::vector<RankedHit> hits = {Hit("c1", "d1"), Hit("c2", "d2"), Hit("c3", "d1"),
                                       Hit("c4", "d3"), Hit("c5", "d4")};
  Judgements j;
  j.docs = {{"d2", 3}, {"d4", 1}, {"d9", 2}};  // d9 is never retrieved
  const QueryMetrics m = ScoreQuery(hits, j, kNoChunks, CutOffs(10));
  ASSERT_TRUE(m.judged);
  EXPECT_EQ(m.first_relevant_rank, 2);
  EXPECT_DOUBLE_EQ(m.mrr10, 0.5);
  // DCG = 3/log2(3) + 1/log2(5); ideal = 3 + 2/log2(3) + 1/log2(4).
  EXPECT_NEAR(m.ndcg10, (1.892789 + 0.430677) / (3 + 1.261860 + 0.5), 1e-6);
  EXPECT_EQ(m.hit.at(1), 0);
  EXPECT_EQ(m.hit.at(3), 1);
  EXPECT_DOUBLE_EQ(m.precision.at(3), 1.0 / 3);
  EXPECT_DOUBLE_EQ(m.precision.at(5), 2.0 / 5);  // k stays the divisor past the ranking's end
  EXPECT_DOUBLE_EQ(m.precision.at(10), 2.0 / 10);
  EXPECT_DOUBLE_EQ(m.recall.at(1), 0);
  EXPECT_DOUBLE_EQ(m.recall.at(3), 1.0 / 3);
  EXPECT_DOUBLE_EQ(m.recall.at(5), 2.0 / 3);
}

TEST(MetricsTest, TiedGradesGiveTheSameIdealWhicheverComesFirst) {
  Judgements j;
  j.chunks = {{"c2", 2}, {"c5", 2}};
  const std::vector<RankedHit> hits = {Hit("c1", "d1"), Hit("c2", "d1"), Hit("c3", "d2"),
                                       Hit("c4", "d2"), Hit("c5", "d3")};
  const QueryMetrics m = ScoreQuery(hits, j, {{"c2", "d1"}, {"c5", "d3"}}, CutOffs(10));
  // DCG = 2/log2(3) + 2/log2(6); ideal = 2 + 2/log2(3).
  EXPECT_NEAR(m.ndcg10, (1.261860 + 0.773706) / (2 + 1.261860), 1e-6);
  EXPECT_DOUBLE_EQ(m.recall.at(5), 1.0);
  // Document recall: c1 is not relevant, but its document d1 holds c2.
  EXPECT_DOUBLE_EQ(m.recall.at(1), 0.5);
  EXPECT_DOUBLE_EQ(m.precision.at(5), 2.0 / 5);

  const std::vector<RankedHit> perfect = {Hit("c5", "d3"), Hit("c2", "d1")};
  EXPECT_DOUBLE_EQ(ScoreQuery(perfect, j, {}, CutOffs(10)).ndcg10, 1.0);
}

TEST(MetricsTest, ALineRangeCreditsOnlyTheFirstChunkThatOverlapsIt) {
  Judgements j;
  j.lines = {{"d1", 10, 20, 2}};
  const std::vector<RankedHit> hits = {Hit("a", "d1", 1, 9), Hit("b", "d1", 15, 30),
                                       Hit("c", "d1", 18, 25), Hit("d", "d2", 10, 20)};
  const QueryMetrics m = ScoreQuery(hits, j, kNoChunks, CutOffs(10));
  EXPECT_EQ(m.first_relevant_rank, 2);
  EXPECT_NEAR(m.ndcg10, (2 / 1.584963) / 2, 1e-6);
  EXPECT_DOUBLE_EQ(m.precision.at(3), 1.0 / 3);
  EXPECT_DOUBLE_EQ(m.recall.at(3), 1.0);
  EXPECT_LE(m.ndcg10, 1.0);
}

TEST(MetricsTest, AWholeDocumentJudgedAtChunkLevelCreditsOneChunk) {
  Judgements j;
  j.chunks = {{"x", 1}};
  j.docs = {{"d1", 1}};
  const std::vector<RankedHit> hits = {Hit("a", "d1"), Hit("b", "d1"), Hit("x", "d2")};
  const QueryMetrics m = ScoreQuery(hits, j, {{"x", "d2"}}, CutOffs(10));
  EXPECT_NEAR(m.ndcg10, (1 + 1 / 2.0) / (1 + 1 / 1.584963), 1e-6);
  EXPECT_DOUBLE_EQ(m.precision.at(3), 2.0 / 3);
}

TEST(MetricsTest, NothingFoundScoresZeroAndAnUnjudgedQueryIsLeftOut) {
  Judgements j;
  j.docs = {{"d1", 1}};
  const QueryMetrics miss = ScoreQuery({Hit("c", "d2")}, j, kNoChunks, CutOffs(10));
  EXPECT_EQ(miss.first_relevant_rank, 0);
  EXPECT_EQ(miss.mrr10, 0);
  EXPECT_EQ(miss.ndcg10, 0);
  const QueryMetrics empty = ScoreQuery({}, j, kNoChunks, CutOffs(10));
  EXPECT_EQ(empty.recall.at(10), 0);

  const QueryMetrics unjudged = ScoreQuery({Hit("c", "d2")}, Judgements{}, kNoChunks, CutOffs(10));
  EXPECT_FALSE(unjudged.judged);

  Judgements top;
  top.docs = {{"d2", 1}};
  const QueryMetrics found = ScoreQuery({Hit("c", "d2")}, top, kNoChunks, CutOffs(10));
  const auto means = MeanMetrics({miss, unjudged, found});
  EXPECT_DOUBLE_EQ(means.at("mrr@10"), 0.5);
  EXPECT_DOUBLE_EQ(means.at("hit@1"), 0.5);
  EXPECT_DOUBLE_EQ(means.at("ndcg@10"), 0.5);
  EXPECT_TRUE(MeanMetrics({unjudged}).empty());
}

TEST(MetricsTest, MrrStopsAtTen) {
  std::vector<RankedHit> hits;
  for (int i = 1; i <= 12; ++i)
    hits.push_back(Hit("c" + std::to_string(i), "d" + std::to_string(i)));
  Judgements j;
  j.docs = {{"d11", 1}};
  const QueryMetrics m = ScoreQuery(hits, j, kNoChunks, CutOffs(20));
  EXPECT_EQ(m.first_relevant_rank, 11);
  EXPECT_EQ(m.mrr10, 0);
  EXPECT_EQ(m.recall.at(10), 0);
  EXPECT_EQ(m.recall.at(20), 1);
}

TEST(MetricsTest, AHitsGradeIsTheBestJudgementItMatches) {
  Judgements j;
  j.chunks = {{"c1", 1}};
  j.docs = {{"d1", 2}};
  j.lines = {{"d1", 10, 20, 3}, {"d2", 1, 5, 4}};
  EXPECT_EQ(GradeOf(Hit("c1", "d1", 15, 30), j), 3);
  EXPECT_EQ(GradeOf(Hit("c1", "d1", 21, 30), j), 2);
  EXPECT_EQ(GradeOf(Hit("c9", "d2", 6, 9), j), 0);
  EXPECT_EQ(GradeOf(Hit("c9", "d2", 0, 0), j), 0) << "a hit without lines overlaps nothing";
}

TEST(MetricsTest, CutOffsAddTheRunDepth) {
  EXPECT_EQ(CutOffs(10), (std::vector<int>{1, 3, 5, 10}));
  EXPECT_EQ(CutOffs(100), (std::vector<int>{1, 3, 5, 10, 100}));
  EXPECT_EQ(CutOffs(5), (std::vector<int>{1, 3, 5, 10}));
}

TEST(MetricsTest, QuantileInterpolates) {
  EXPECT_DOUBLE_EQ(Quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_NEAR(Quantile({1, 2, 3, 4}, 0.95), 3.85, 1e-12);
  EXPECT_EQ(Quantile({}, 0.5), 0);
  EXPECT_EQ(Quantile({7}, 0.95), 7);
}

}  // namespace
}  // namespace kebab::eval
