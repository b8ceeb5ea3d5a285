#include "text/fts5_tokenizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kebab::text {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// A fresh in-memory database with the tokenizer registered and table t(body).
class Fts5TokenizerTest : public ::testing::Test {
 protected:
  void TearDown() override { sqlite3_close(db_); }

  void Open(const std::string& stemmer, const std::string& tokenize = "kebab") {
    ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
    ASSERT_TRUE(RegisterKebabTokenizer(db_, stemmer).ok());
    ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='" + tokenize + "')"),
              SQLITE_OK)
        << sqlite3_errmsg(db_);
  }

  int Exec(const std::string& sql) {
    return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  }

  void Insert(const std::string& body) {
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db_, "INSERT INTO t(body) VALUES (?1)", -1, &stmt, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(stmt, 1, body.data(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE) << sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
  }

  // First column of every row of `SELECT <column> FROM t WHERE t MATCH ?1 ORDER BY rowid`.
  std::vector<std::string> Match(const std::string& query, const std::string& column = "body") {
    std::vector<std::string> rows;
    sqlite3_stmt* stmt = nullptr;
    const std::string sql = "SELECT " + column + " FROM t WHERE t MATCH ?1 ORDER BY rowid";
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db_);
      return rows;
    }
    sqlite3_bind_text(stmt, 1, query.data(), static_cast<int>(query.size()), SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      rows.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    }
    EXPECT_EQ(rc, SQLITE_DONE) << sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
    return rows;
  }

  sqlite3* db_ = nullptr;
};

TEST_F(Fts5TokenizerTest, KoreanNounMatchesItWithParticles) {
  Open("english");
  Insert("데이터베이스는 빠르다");
  Insert("데이터베이스를 만든다");
  Insert("네트워크 설정");
  EXPECT_THAT(Match("\"데이터베이스\""),
              ElementsAre("데이터베이스는 빠르다", "데이터베이스를 만든다"));
  EXPECT_THAT(Match("데이터베이스"), ElementsAre("데이터베이스는 빠르다", "데이터베이스를 만든다"));
  EXPECT_THAT(Match("설정"), ElementsAre("네트워크 설정"));
  EXPECT_THAT(Match("\"베이스 설정\""), IsEmpty());
}

TEST_F(Fts5TokenizerTest, EnglishStemmingMatchesInflections) {
  Open("english");
  Insert("The databases are running");
  EXPECT_THAT(Match("database"), ElementsAre("The databases are running"));
  EXPECT_THAT(Match("run"), ElementsAre("The databases are running"));
  EXPECT_THAT(Match("RUNS"), ElementsAre("The databases are running"));
}

TEST_F(Fts5TokenizerTest, WithoutStemmingOnlyExactWordsMatch) {
  Open("none");
  Insert("The databases are running");
  EXPECT_THAT(Match("run"), IsEmpty());
  EXPECT_THAT(Match("running"), ElementsAre("The databases are running"));
}

TEST_F(Fts5TokenizerTest, TableArgumentOverridesRegisteredStemmer) {
  Open("english", "kebab stemmer none");
  Insert("The databases are running");
  EXPECT_THAT(Match("run"), IsEmpty());
  EXPECT_THAT(Match("running"), ElementsAre("The databases are running"));
}

TEST_F(Fts5TokenizerTest, DiacriticsAndCaseAreIgnored) {
  Open("english");
  Insert("Café au lait");
  EXPECT_THAT(Match("cafe"), ElementsAre("Café au lait"));
  EXPECT_THAT(Match("CAFÉ"), ElementsAre("Café au lait"));
}

TEST_F(Fts5TokenizerTest, PrefixQueriesAreNotStemmed) {
  Open("english");
  Insert("The databases are running");
  Insert("a datum");
  EXPECT_THAT(Match("datab*"), ElementsAre("The databases are running"));
  EXPECT_THAT(Match("dat*"), ElementsAre("The databases are running", "a datum"));
}

TEST_F(Fts5TokenizerTest, SnippetHighlightsKoreanAtCharacterBoundaries) {
  Open("english");
  Insert("데이터베이스는 빠르다");
  EXPECT_THAT(Match("\"데이터베이스\"", "snippet(t, 0, '[', ']', '…', 8)"),
              ElementsAre("[데이터베이스]는 빠르다"));
  EXPECT_THAT(Match("빠르다", "highlight(t, 0, '[', ']')"), ElementsAre("데이터베이스는 [빠르다]"));
  Insert("오늘은 데이터베이스를 배웠다");
  EXPECT_THAT(Match("베이스", "highlight(t, 0, '[', ']')"),
              ElementsAre("데이터[베이스]는 빠르다", "오늘은 데이터[베이스]를 배웠다"));
}

TEST_F(Fts5TokenizerTest, RejectsUnknownTokenizerArguments) {
  ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
  ASSERT_TRUE(RegisterKebabTokenizer(db_, "english").ok());
  EXPECT_NE(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='kebab stemmer bogus')"),
            SQLITE_OK);
  EXPECT_NE(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='kebab colour blue')"),
            SQLITE_OK);
  EXPECT_NE(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='kebab stemmer')"), SQLITE_OK);
  EXPECT_EQ(Exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='kebab stemmer german')"),
            SQLITE_OK)
      << sqlite3_errmsg(db_);
}

TEST_F(Fts5TokenizerTest, RegistrationRejectsUnknownStemmer) {
  ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
  const Status status = RegisterKebabTokenizer(db_, "bogus");
  EXPECT_EQ(status.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(status.hint(), ::testing::HasSubstr("english"));
}

}  // namespace
}  // namespace kebab::text
