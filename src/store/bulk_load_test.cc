#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <vector>

#include "store/store.h"
#include "store/store_file_test.h"
#include "store/testing.h"

namespace kebab::store {
namespace {

class BulkLoadTest : public StoreFileTest {
 protected:
  // The text of the first column of `sql`'s rows, read over a connection of its own.
  std::vector<std::string> Query(const char* sql) const {
    sqlite3* db = nullptr;
    std::vector<std::string> rows;
    if (sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
      sqlite3_stmt* q = nullptr;
      sqlite3_prepare_v2(db, sql, -1, &q, nullptr);
      while (sqlite3_step(q) == SQLITE_ROW) {
        rows.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(q, 0)));
      }
      sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return rows;
  }

  // The store's own indexes as SQLite lists them.
  std::vector<std::string> Indexes() const {
    return Query(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name");
  }

  // An FTS5 setting stored in its config table; -1 while FTS5's default applies.
  int FtsSetting(const std::string& name) const {
    const std::string sql = "SELECT v FROM chunks_fts_config WHERE k = '" + name + "'";
    const auto rows = Query(sql.c_str());
    return rows.empty() ? -1 : std::stoi(rows[0]);
  }
  int Automerge() const { return FtsSetting("automerge"); }
  int Crisismerge() const { return FtsSetting("crisismerge"); }

  static void WriteBatch(Store& s, int first, int count) {
    ASSERT_TRUE(s.BeginBatch().ok());
    for (int i = first; i < first + count; ++i) {
      const std::string n = std::to_string(i);
      ASSERT_TRUE(
          s.WriteDocument(MakeTestDocument("d" + n + ".md", {"walrus " + n, "tusk " + n})).ok());
    }
    ASSERT_TRUE(s.CommitBatch().ok());
  }
};

TEST_F(BulkLoadTest, AnEmptyStoreLoadsWithoutReadIndexesAndGetsThemBack) {
  auto s = Open();
  ASSERT_TRUE(s);
  const std::vector<std::string> all = Indexes();
  ASSERT_FALSE(all.empty());

  auto began = s->BeginBulkLoad();
  ASSERT_TRUE(began.ok()) << began.status().ToString();
  EXPECT_TRUE(*began);
  const std::vector<std::string> during = Indexes();
  EXPECT_LT(during.size(), all.size());
  // Indexes on random keys (hex ids, hashes) are dropped.
  for (const char* name : {"idx_chunks_doc_id", "idx_chunks_text_hash", "idx_docs_asset_id"}) {
    EXPECT_EQ(std::count(during.begin(), during.end(), name), 0) << name;
  }
  // The unique index behind replacing a document by path is never dropped, nor are indexes
  // on keys that arrive in order or take few values.
  for (const char* name : {"idx_docs_workspace_path", "idx_assets_workspace_path", "idx_docs_lang",
                           "idx_assets_media_type"}) {
    EXPECT_EQ(std::count(during.begin(), during.end(), name), 1) << name;
  }
  EXPECT_EQ(Automerge(), 0);
  EXPECT_EQ(Crisismerge(), 64);

  WriteBatch(*s, 0, 30);
  // Reads that would use a dropped index still answer, by scanning.
  auto listed = s->ListDocuments({.lang = "en"});
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->size(), 30u);
  // Replacing a document mid-load purges its old rows without the doc_id index.
  ASSERT_TRUE(s->WriteDocument(MakeTestDocument("d3.md", {"narwhal"}, "v2")).ok());

  ASSERT_TRUE(s->EndBulkLoad().ok());
  EXPECT_EQ(Indexes(), all);
  EXPECT_EQ(Automerge(), 8);
  EXPECT_EQ(Crisismerge(), 16);
  ExpectIntact(*s);
  auto stats = s->Stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->doc_count, 30);
  EXPECT_EQ(stats->chunk_count, 59);
  auto replaced = s->ListDocuments({.path_glob = "d3.md"});
  ASSERT_TRUE(replaced.ok());
  ASSERT_EQ(replaced->size(), 1u);
  auto chunks = s->GetChunksOfDocument((*replaced)[0].doc_id);
  ASSERT_TRUE(chunks.ok());
  ASSERT_EQ(chunks->size(), 1u);
  EXPECT_EQ((*chunks)[0].chunk.text, "narwhal");
}

TEST_F(BulkLoadTest, AStoreWithDocumentsKeepsItsIndexes) {
  auto s = Open();
  ASSERT_TRUE(s);
  WriteBatch(*s, 0, 1);
  const std::vector<std::string> before = Indexes();
  auto began = s->BeginBulkLoad();
  ASSERT_TRUE(began.ok());
  EXPECT_FALSE(*began);
  EXPECT_EQ(Indexes(), before);
  EXPECT_EQ(Automerge(), 8);
}

// A load that never ended (killed mid-ingest) reads correctly meanwhile, and the next writable
// open builds the missing indexes.
TEST_F(BulkLoadTest, AnInterruptedLoadGetsItsIndexesAtTheNextWritableOpen) {
  std::vector<std::string> all;
  {
    auto s = Open();
    ASSERT_TRUE(s);
    all = Indexes();
    auto began = s->BeginBulkLoad();
    ASSERT_TRUE(began.ok() && *began);
    WriteBatch(*s, 0, 12);
  }
  ASSERT_LT(Indexes().size(), all.size());
  ASSERT_EQ(Automerge(), 0);
  ASSERT_EQ(Crisismerge(), 64);
  {
    auto reader = Open("english", /*readonly=*/true);
    ASSERT_TRUE(reader);
    auto rows = reader->LexicalSearch({.match = "walrus", .filters = {.lang = "en"}});
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(rows->size(), 10u);
    EXPECT_LT(Indexes().size(), all.size());
  }
  auto s = Open();
  ASSERT_TRUE(s);
  EXPECT_EQ(Indexes(), all);
  EXPECT_EQ(Automerge(), 8);
  EXPECT_EQ(Crisismerge(), 16);
  auto ic = s->IntegrityCheck();
  ASSERT_TRUE(ic.ok());
  EXPECT_EQ(*ic, "ok");
}

// Earlier kebab versions dropped more indexes for a load; one that such a version left
// unfinished gets those back too.
TEST_F(BulkLoadTest, AnOlderLoadsDroppedIndexesAreRepaired) {
  std::vector<std::string> all;
  {
    auto s = Open();
    ASSERT_TRUE(s);
    all = Indexes();
    WriteBatch(*s, 0, 3);
  }
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DROP INDEX idx_docs_lang; DROP INDEX idx_assets_media_type",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  ASSERT_EQ(Indexes().size(), all.size() - 2);
  auto s = Open();
  ASSERT_TRUE(s);
  EXPECT_EQ(Indexes(), all);
}

}  // namespace
}  // namespace kebab::store
