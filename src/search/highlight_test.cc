#include "search/highlight.h"

#include <gtest/gtest.h>

#include "core/unicode.h"
#include "search/snippet.h"

namespace kebab::search {
namespace {

TEST(QueryTermsTest, AnalyzesLikeTheIndexAndSkipsOperators) {
  text::Analyzer a({.stemmer = "english"});
  auto t = QueryTerms("Running databases AND text:Café NEAR", a);
  EXPECT_TRUE(t.count("run"));
  EXPECT_TRUE(t.count("databas"));
  EXPECT_TRUE(t.count("cafe"));
  EXPECT_FALSE(t.count("and"));
  EXPECT_FALSE(t.count("near"));
}

TEST(QueryTermsTest, APlainQueryHighlightsWhatItsPlanSearched) {
  text::Analyzer a({.stemmer = "none"});
  auto plan = PlanMatch("회의록을 SQLite를");
  ASSERT_TRUE(plan.ok());
  auto t = QueryTerms(*plan, "회의록을 SQLite를", a);
  EXPECT_TRUE(t.count("회의"));
  EXPECT_TRUE(t.count("의록"));
  EXPECT_TRUE(t.count("sqlite"));
  // The particles were not searched, so a passage's 기록을 is not highlighted for them.
  EXPECT_FALSE(t.count("록을"));
  EXPECT_FALSE(t.count("를"));
  // Raw syntax has no plan of words: its own words are highlighted.
  auto raw = PlanMatch("'wal NEAR checkpoint'");
  ASSERT_TRUE(raw.ok());
  auto r = QueryTerms(*raw, "'wal NEAR checkpoint'", a);
  EXPECT_TRUE(r.count("wal"));
  EXPECT_TRUE(r.count("checkpoint"));
}

TEST(MakeSnippetTest, HighlightsEveryQueryTermOccurrence) {
  text::Analyzer a({.stemmer = "english"});
  auto terms = QueryTerms("run", a);
  Snippet s = MakeSnippet("We run fast.\nShe runs too.", terms, a, 200);
  EXPECT_EQ(s.text, "We \x01run\x02 fast. She \x01runs\x02 too.");
  EXPECT_TRUE(s.full);
}

TEST(MakeSnippetTest, KoreanBigramsMergeIntoOneHighlight) {
  text::Analyzer a({.stemmer = "none"});
  auto terms = QueryTerms("데이터베이스", a);
  Snippet s = MakeSnippet("이 데이터베이스는 빠르다", terms, a, 200);
  EXPECT_EQ(StripHighlights(s.text), "이 데이터베이스는 빠르다");
  EXPECT_NE(s.text.find("\x01데이터베이스\x02"), std::string::npos) << s.text;
}

TEST(MakeSnippetTest, WindowMovesToTheMatchesInLongText) {
  text::Analyzer a({.stemmer = "none"});
  std::string text(3000, 'x');
  text += " needle ";
  text += std::string(3000, 'y');
  Snippet s = MakeSnippet(text, QueryTerms("needle", a), a, 80);
  EXPECT_FALSE(s.full);
  EXPECT_NE(s.text.find("\x01needle\x02"), std::string::npos);
  EXPECT_LE(Utf8Length(StripHighlights(s.text)), 82u);
}

TEST(MakeSnippetTest, NoMatchGivesTheStartOfTheText) {
  text::Analyzer a({.stemmer = "none"});
  Snippet s = MakeSnippet("alpha beta gamma", QueryTerms("zeta", a), a, 10);
  EXPECT_EQ(StripHighlights(s.text).rfind("alpha", 0), 0u);
  EXPECT_FALSE(s.full);
}

}  // namespace
}  // namespace kebab::search
