#include "text/token_stream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <tuple>
#include <vector>

#include "text/fts5_tokenizer.h"

namespace kebab::text {
namespace {

using Tok = std::tuple<std::string, int, int>;

class Collect : public TokenSink {
 public:
  void OnToken(std::string_view term, int start, int end) override {
    tokens.emplace_back(std::string(term), start, end);
  }
  std::vector<Tok> tokens;
};

TEST(TokenStreamTest, ReplaysExactlyWhatTheAnalyzerEmits) {
  Analyzer analyzer;
  const std::string text = "Running databases: 데이터베이스는 빠르다, naïve Café!";
  Collect direct, replayed;
  analyzer.Tokenize(text, direct);
  TokenStream::Of(analyzer, text).Replay(replayed);
  ASSERT_FALSE(direct.tokens.empty());
  EXPECT_EQ(replayed.tokens, direct.tokens);
}

TEST(TokenStreamTest, FoundOnlyForTheSameBytesAndStemmerInsideTheScope) {
  Analyzer english;
  const TokenStream stream = TokenStream::Of(english, "alpha beta");
  const std::string copy = "alpha beta";
  EXPECT_EQ(FindTokenReplay(copy, "english"), nullptr);
  {
    ScopedTokenReplay scope("alpha beta", stream);
    EXPECT_EQ(FindTokenReplay(copy, "english"), &stream);
    EXPECT_EQ(FindTokenReplay("alpha betA", "english"), nullptr);
    EXPECT_EQ(FindTokenReplay(copy, "none"), nullptr);
  }
  EXPECT_EQ(FindTokenReplay(copy, "english"), nullptr);
}

// The tokenizer really uses the recorded stream: a stream recorded from other words than the
// row's text makes the row findable by those words only.
class TokenReplayFts5Test : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
    ASSERT_TRUE(RegisterKebabTokenizer(db_, "english").ok());
    ASSERT_EQ(sqlite3_exec(db_, "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='kebab')",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
  }
  void TearDown() override { sqlite3_close(db_); }

  void Insert(const std::string& body) {
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db_, "INSERT INTO t(body) VALUES (?1)", -1, &stmt, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(stmt, 1, body.data(), static_cast<int>(body.size()), SQLITE_STATIC);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE) << sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
  }

  int Count(const std::string& query) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(
        sqlite3_prepare_v2(db_, "SELECT count(*) FROM t WHERE t MATCH ?1", -1, &stmt, nullptr),
        SQLITE_OK);
    sqlite3_bind_text(stmt, 1, query.c_str(), -1, SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    const int n = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    return n;
  }

  sqlite3* db_ = nullptr;
};

TEST_F(TokenReplayFts5Test, DocumentTokensComeFromTheRecordedStream) {
  Analyzer english;
  const std::string body = "horses gallop";
  const TokenStream stream = TokenStream::Of(english, "zebras graze");
  {
    ScopedTokenReplay scope(body, stream);
    Insert(body);
  }
  EXPECT_EQ(Count("zebra"), 1);
  EXPECT_EQ(Count("horse"), 0);
}

TEST_F(TokenReplayFts5Test, AStreamFromAnotherStemmerIsIgnored) {
  Analyzer unstemmed({.stemmer = "none"});
  const std::string body = "horses gallop";
  const TokenStream stream = TokenStream::Of(unstemmed, "zebras graze");
  {
    ScopedTokenReplay scope(body, stream);
    Insert(body);
  }
  EXPECT_EQ(Count("horse"), 1);
  EXPECT_EQ(Count("zebra"), 0);
}

}  // namespace
}  // namespace kebab::text
