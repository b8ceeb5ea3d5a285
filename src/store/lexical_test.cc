// Store::LexicalRanking: the lexical page without its rows (what a hybrid search fuses), and
// naming its chunks by rowid with or without schema v7's covering index.
#include <gtest/gtest.h>

#include "store/migrations.h"
#include "store/store.h"
#include "store/store_file_test.h"
#include "store/testing.h"

namespace kebab::store {
namespace {

class LexicalRankingTest : public StoreFileTest {};

// A hybrid search fuses LexicalRanking's ids without reading a row: same order, same scores.
TEST_F(LexicalRankingTest, LexicalRankingIsTheSearchsOrderWithoutItsRows) {
  auto s = Open();
  ASSERT_TRUE(s);
  for (int i = 0; i < 6; ++i) {
    const std::string text = i % 2 == 0 ? "same text" : "same same text more";
    ASSERT_TRUE(s->WriteDocument(MakeTestDocument("d" + std::to_string(i) + ".md", {text})).ok());
  }
  for (const SearchFilters& filters : {SearchFilters{}, SearchFilters{.lang = "en"}}) {
    auto ranked = s->LexicalRanking({.match = "same", .filters = filters, .limit = 4, .offset = 1});
    ASSERT_TRUE(ranked.ok()) << ranked.status().ToString();
    auto rows = s->LexicalSearch({.match = "same", .filters = filters, .limit = 4, .offset = 1});
    ASSERT_TRUE(rows.ok());
    ASSERT_EQ(ranked->size(), 4u);
    ASSERT_EQ(rows->size(), 4u);
    for (size_t i = 0; i < ranked->size(); ++i) {
      EXPECT_EQ((*ranked)[i].chunk_id, (*rows)[i].chunk.chunk.chunk_id);
      EXPECT_EQ((*ranked)[i].chunk_rowid, (*rows)[i].chunk_rowid);
      EXPECT_DOUBLE_EQ((*ranked)[i].bm25, (*rows)[i].bm25);
    }
  }
}

// Schema v7 names chunks by rowid from a covering index; a reader of a v6 file (which it may
// not migrate) names them from the table, with the same results.
TEST_F(LexicalRankingTest, AReaderOfASchemaSixFileNamesChunksWithoutTheV7Index) {
  {
    auto s = Open();
    ASSERT_TRUE(s);
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(
          s->WriteDocument(MakeTestDocument("d" + std::to_string(i) + ".md", {"same text"})).ok());
    }
  }
  auto latest = Open("english", /*readonly=*/true);
  ASSERT_TRUE(latest);
  auto expected = latest->LexicalRanking({.match = "same", .limit = 3});
  ASSERT_TRUE(expected.ok());
  latest.reset();
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "DROP TABLE derivations; DROP TABLE ocr_events; "
                           "DROP INDEX idx_chunks_rowid_id; DELETE FROM migrations WHERE id >= 7; "
                           "UPDATE schema_meta SET value = '6' WHERE key = 'schema_version'",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  auto old = Open("english", /*readonly=*/true);
  ASSERT_TRUE(old);
  EXPECT_EQ(old->schema_version(), 6);
  auto ranked = old->LexicalRanking({.match = "same", .limit = 3});
  ASSERT_TRUE(ranked.ok()) << ranked.status().ToString();
  ASSERT_EQ(ranked->size(), expected->size());
  for (size_t i = 0; i < ranked->size(); ++i) {
    EXPECT_EQ((*ranked)[i].chunk_id, (*expected)[i].chunk_id);
  }
  old.reset();
  auto upgraded = Open();  // a writer migrates the file to the latest again
  ASSERT_TRUE(upgraded);
  EXPECT_EQ(upgraded->schema_version(), LatestSchemaVersion());
  EXPECT_TRUE(upgraded->LexicalRanking({.match = "same", .limit = 3}).ok());
}

TEST_F(LexicalRankingTest, MigratingASchemaEightFileTokenizesItsIndexAgain) {
  {
    auto s = Open();
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->WriteDocument(MakeTestDocument("d.md", {"call parseConfig now"})).ok());
  }
  {
    // An index written before identifiers were split: emptied here, as no whole identifier
    // of it would match.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "INSERT INTO chunks_fts(chunks_fts) VALUES ('delete-all'); "
                           "DELETE FROM migrations WHERE id >= 9; "
                           "UPDATE schema_meta SET value = '8' WHERE key = 'schema_version'",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  auto upgraded = Open();
  ASSERT_TRUE(upgraded);
  EXPECT_EQ(upgraded->schema_version(), LatestSchemaVersion());
  for (const char* match : {"parseconfig", "\"parse config\""}) {
    auto ranked = upgraded->LexicalRanking({.match = match, .limit = 3});
    ASSERT_TRUE(ranked.ok()) << ranked.status().ToString();
    EXPECT_EQ(ranked->size(), 1u) << match;
  }
}

}  // namespace
}  // namespace kebab::store
