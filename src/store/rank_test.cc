// kebab_rank(): BM25 as FTS5 computes it, plus the proximity of the query's words.
#include "store/internal/rank.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>

#include "store/store.h"
#include "store/store_file_test.h"
#include "store/testing.h"
#include "text/fts5_tokenizer.h"

namespace kebab::store {
namespace {

using internal::ProximityAccumulators;
using internal::WindowCover;
using internal::WordHit;

TEST(ProximityAccumulatorsTest, NeighboursOfDifferentWordsCountByIdfOverDistanceSquared) {
  // word 0 at 3, word 1 at 4 (distance 1), word 0 again at 6 (distance 2 from word 1).
  const std::vector<WordHit> hits = {{0, 1, 3, 2.0}, {1, 1, 4, 3.0}, {0, 1, 6, 2.0}};
  const std::vector<double> acc = ProximityAccumulators(hits, 2);
  ASSERT_EQ(acc.size(), 2u);
  EXPECT_DOUBLE_EQ(acc[0], 3.0 / 1 + 3.0 / 4);
  EXPECT_DOUBLE_EQ(acc[1], 2.0 / 1 + 2.0 / 4);
}

TEST(ProximityAccumulatorsTest, RepeatsAndOtherColumnsAreNoPairs) {
  const std::vector<WordHit> hits = {{0, 0, 1, 2.0}, {1, 1, 2, 2.0}, {1, 1, 3, 2.0}};
  const std::vector<double> acc = ProximityAccumulators(hits, 3);
  EXPECT_EQ(acc, std::vector<double>({0, 0, 0}));
}

TEST(WindowCoverTest, TheWindowHoldingMostOfTheQuerysIdfCounts) {
  const std::vector<double> idf = {1.0, 2.0, 4.0};
  // Words 0 and 1 together at 1-2, word 2 far off at 40; then 1 and 2 together at 50-52.
  const std::vector<WordHit> hits = {
      {0, 1, 1, 1.0}, {1, 1, 2, 2.0}, {2, 1, 40, 4.0}, {1, 1, 50, 2.0}, {2, 1, 52, 4.0}};
  EXPECT_DOUBLE_EQ(WindowCover(hits, idf, 16), 6.0);
  EXPECT_DOUBLE_EQ(WindowCover(hits, idf, 100), 7.0);
  EXPECT_DOUBLE_EQ(WindowCover(hits, idf, 1), 4.0);  // one word at a time
  const std::vector<WordHit> columns = {{0, 0, 5, 1.0}, {1, 1, 5, 2.0}};
  EXPECT_DOUBLE_EQ(WindowCover(columns, idf, 16), 2.0);  // never across columns
}

class RankFunctionTest : public StoreFileTest {
 protected:
  // chunk id -> score for `match` with `phrase_words`.
  std::map<std::string, double> Scores(Store& s, const std::string& match,
                                       const std::vector<int>& phrase_words) {
    auto ranked = s.LexicalRanking({.match = match, .phrase_words = phrase_words, .limit = 50});
    EXPECT_TRUE(ranked.ok()) << ranked.status().ToString();
    std::map<std::string, double> out;
    if (ranked.ok()) {
      for (const LexicalRank& r : *ranked) out[r.chunk_id] = r.bm25;
    }
    return out;
  }
};

TEST_F(RankFunctionTest, WithoutWordsItIsFts5sBm25) {
  auto s = Open();
  ASSERT_TRUE(s);
  const std::vector<std::string> texts = {
      "the write ahead log keeps readers apart from the writer",
      "a checkpoint copies the log back into the database file", "log log log: a short one",
      "nothing of interest here, only filler words about gardens and tomatoes"};
  for (size_t i = 0; i < texts.size(); ++i) {
    ASSERT_TRUE(
        s->WriteDocument(MakeTestDocument("d" + std::to_string(i) + ".md", {texts[i]})).ok());
  }
  const std::map<std::string, double> ours = Scores(*s, "\"log\" OR \"writer\"", {});
  ASSERT_EQ(ours.size(), 3u);
  s.reset();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  ASSERT_TRUE(text::RegisterKebabTokenizer(db, "english").ok());
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT c.chunk_id, -bm25(chunks_fts, 1.0, 1.0) FROM chunks_fts "
                               "JOIN chunks c ON c.chunk_rowid = chunks_fts.rowid "
                               "WHERE chunks_fts MATCH '\"log\" OR \"writer\"'",
                               -1, &stmt, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
  int rows = 0;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const std::string id = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    ASSERT_TRUE(ours.count(id)) << id;
    EXPECT_NEAR(ours.at(id), sqlite3_column_double(stmt, 1), 1e-9) << id;
    ++rows;
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  EXPECT_EQ(rows, 3);
}

TEST_F(RankFunctionTest, WordsThatStandTogetherRankAboveScatteredOnes) {
  auto s = Open();
  ASSERT_TRUE(s);
  // The same words, as often, in texts of the same length: only their distance differs.
  ASSERT_TRUE(
      s->WriteDocument(MakeTestDocument("apart.md", {"quantum one two three four five six seven "
                                                     "eight nine ten eleven twelve ledger"}))
          .ok());
  ASSERT_TRUE(
      s->WriteDocument(MakeTestDocument("together.md", {"one two three four five six seven eight "
                                                        "nine ten eleven twelve quantum ledger"}))
          .ok());
  for (int i = 0; i < 4; ++i) {  // so that both words are rare
    ASSERT_TRUE(
        s->WriteDocument(MakeTestDocument("f" + std::to_string(i) + ".md", {"filler text"})).ok());
  }
  const std::string match = "\"quantum\" OR \"ledger\"";
  const std::map<std::string, double> bm25 = Scores(*s, match, {});
  ASSERT_EQ(bm25.size(), 2u);
  EXPECT_DOUBLE_EQ(bm25.begin()->second, std::next(bm25.begin())->second);
  auto ranked = s->LexicalSearch({.match = match, .phrase_words = {0, 1}, .limit = 2});
  ASSERT_TRUE(ranked.ok()) << ranked.status().ToString();
  ASSERT_EQ(ranked->size(), 2u);
  EXPECT_EQ((*ranked)[0].chunk.doc_path, "together.md");
  EXPECT_GT((*ranked)[0].bm25, (*ranked)[1].bm25);
  EXPECT_GT((*ranked)[1].bm25, bm25.begin()->second);  // far apart still counts a little
  // Phrases of one word are never near each other.
  const std::map<std::string, double> same = Scores(*s, match, {0, 0});
  EXPECT_EQ(same, bm25);
}

}  // namespace
}  // namespace kebab::store
