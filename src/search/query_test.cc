#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "search/search.h"

namespace kebab::search {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::string Expr(std::string_view query) {
  auto m = PlanMatch(query);
  EXPECT_TRUE(m.ok()) << query << ": " << m.status().ToString();
  return m.ok() ? m->expression : "";
}

TEST(MatchPlanTest, LastWordOfAShortQueryIsAlsoAPrefix) {
  auto m = PlanMatch("  docker ");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->expression, "\"docker\" OR \"docker\" *");
  EXPECT_THAT(m->words[0].notes, ElementsAre("last word also as a prefix"));
  EXPECT_EQ(Expr("docker comp"), "\"docker comp\" OR \"docker\" OR \"comp\" OR \"comp\" *");
  // Too short to mean anything as a prefix, or a question rather than a word being typed.
  EXPECT_EQ(Expr("go"), "\"go\"");
  EXPECT_EQ(Expr("git commit amend"), "\"git commit amend\" OR \"git\" OR \"commit\" OR \"amend\"");
}

TEST(MatchPlanTest, PlainTextIsPhraseOrWords) {
  auto m = PlanMatch("git commit amend");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->expression, "\"git commit amend\" OR \"git\" OR \"commit\" OR \"amend\"");
  EXPECT_EQ(m->phrase, "\"git commit amend\"");
  ASSERT_EQ(m->words.size(), 3u);
  EXPECT_THAT(m->words[0].terms, ElementsAre("\"git\""));
  EXPECT_THAT(m->words[0].notes, IsEmpty());
}

TEST(MatchPlanTest, RepeatedWordsCountAgain) {
  EXPECT_EQ(Expr("wal wal log"), "\"wal wal log\" OR \"wal\" OR \"wal\" OR \"log\"");
}

TEST(MatchPlanTest, EscapesQuotesAndDropsPunctuationOnlyWords) {
  EXPECT_EQ(Expr("say \"hi\" -"), "\"say \"\"hi\"\"\" OR \"say\" OR \"hi\"");
}

TEST(MatchPlanTest, FtsOperatorsInUserTextAreWords) {
  EXPECT_EQ(Expr("foo AND NEAR(bar) col:x*"),
            "\"foo AND NEAR(bar) col:x*\" OR \"foo\" OR \"AND\" OR \"NEAR\" OR \"bar\" OR "
            "\"col\" OR \"x\"");
}

TEST(MatchPlanTest, CompoundWordsAreSearchedByTheirParts) {
  auto m = PlanMatch("git-commit");
  ASSERT_TRUE(m.ok());
  // The phrase keeps `git commit` in order first; either part alone still matches.
  EXPECT_EQ(m->expression, "\"git-commit\" OR \"git\" OR \"commit\" OR \"commit\" *");
  EXPECT_EQ(m->phrase, "\"git-commit\"");
}

TEST(MatchPlanTest, SingleCjkCharBecomesPrefix) {
  EXPECT_EQ(Expr("책"), "\"책\" *");
}

TEST(MatchPlanTest, HangulWordGivesItsBigrams) {
  EXPECT_EQ(Expr("데이터베이스"),
            "\"데이터베이스\" OR \"데이\" OR \"이터\" OR \"터베\" OR \"베이\" OR \"이스\"");
  EXPECT_EQ(Expr("날짜"), "\"날짜\"");
}

TEST(MatchPlanTest, KoreanParticleIsLeftOutOfTheBigrams) {
  auto m = PlanMatch("회의록을");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->expression, "\"회의록을\" OR \"회의\" OR \"의록\"");
  ASSERT_EQ(m->words.size(), 1u);
  EXPECT_THAT(m->words[0].notes, ElementsAre("particle 을 left out"));
}

TEST(MatchPlanTest, KoreanEndingIsLeftOut) {
  auto m = PlanMatch("작성한 날짜는?");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->expression, "\"작성한 날짜는?\" OR \"작성\" OR \"날짜\"");
  ASSERT_EQ(m->words.size(), 2u);
  EXPECT_THAT(m->words[0].notes, ElementsAre("ending 한 left out"));
  EXPECT_THAT(m->words[1].notes, ElementsAre("particle 는 left out"));
}

TEST(MatchPlanTest, AnIdentifierIsItsWordsAndItsWhole) {
  // The whole matches the identifier in any spelling (the index holds it beside the last word).
  EXPECT_EQ(Expr("parseConfig"), "\"parseconfig\" OR \"parseconfig\" *");
  EXPECT_EQ(Expr("where is parse_config"),
            "\"where is parse_config\" OR \"where\" OR \"is\" OR \"parse\" OR \"config\" OR "
            "\"parseconfig\"");
  // A plain capitalized word is no identifier.
  EXPECT_EQ(Expr("Config file"), "\"Config file\" OR \"Config\" OR \"file\" OR \"file\" *");
}

TEST(MatchPlanTest, ShortKoreanWordsKeepWhatLooksLikeAParticle) {
  EXPECT_EQ(Expr("가을"), "\"가을\"");  // autumn
  EXPECT_EQ(Expr("책을"), "\"책을\"");
}

TEST(MatchPlanTest, ParticleOnALatinWordIsLeftOut) {
  auto m = PlanMatch("SQLite를");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->expression, "\"sqlite\" OR \"sqlite\" *");
  EXPECT_THAT(m->words[0].notes, ElementsAre("identifier searched whole (sqlite)",
                                             "particle 를 left out", "last word also as a prefix"));
  // A character that is not a particle stays, as a prefix of the index's bigrams.
  EXPECT_EQ(Expr("2024년"), "\"2024년\" OR \"2024\" OR \"년\" *");
  EXPECT_EQ(Expr("v2.0을"), "\"v2.0을\" OR \"v2\" OR \"0\"");
}

TEST(MatchPlanTest, HanjaInsideAKoreanWord) {
  EXPECT_EQ(Expr("韓國語를"), "\"韓國語를\" OR \"韓國\" OR \"國語\"");
}

TEST(MatchPlanTest, MixedScriptQuestion) {
  EXPECT_EQ(Expr("Docker로 2개 컨테이너를"),
            "\"Docker로 2개 컨테이너를\" OR \"Docker\" OR \"2\" OR \"개\" * OR \"컨테\" OR "
            "\"테이\" OR \"이너\"");
}

TEST(MatchPlanTest, ChineseRunGivesItsBigrams) {
  EXPECT_EQ(Expr("提交文件"), "\"提交文件\" OR \"提交\" OR \"交文\" OR \"文件\"");
}

TEST(MatchPlanTest, JapaneseRunGivesItsBigrams) {
  EXPECT_EQ(Expr("記録をコミット"),
            "\"記録をコミット\" OR \"記録\" OR \"録を\" OR \"をコ\" OR \"コミ\" OR \"ミッ\" OR "
            "\"ット\"");
}

TEST(MatchPlanTest, LongQuestionsKeepEveryWord) {
  std::string q;
  for (int i = 0; i < 100; ++i) q += "w" + std::to_string(i) + " ";
  auto m = PlanMatch(q);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->words.size(), 100u);
  EXPECT_NE(m->expression.find("\"w99\""), std::string::npos);
  // Past 256 words a query is a document, not a question: the rest is not searched.
  std::string huge;
  for (int i = 0; i < 300; ++i) huge += "w" + std::to_string(i) + " ";
  auto cut = PlanMatch(huge);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->words.size(), 256u);
  EXPECT_EQ(cut->words_left_out, 44);
}

TEST(MatchPlanTest, RawSyntaxInSingleQuotes) {
  auto m = PlanMatch("'foo NEAR bar'");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->expression, "foo NEAR bar");
  EXPECT_TRUE(m->raw);
  EXPECT_THAT(m->words, IsEmpty());
}

TEST(MatchPlanTest, EmptyQueriesAreInvalid) {
  for (const char* q : {"", "   ", "''", "- + !"}) {
    auto m = PlanMatch(q);
    ASSERT_FALSE(m.ok()) << q;
    EXPECT_EQ(m.status().code(), ErrorCode::kInvalidInput);
  }
}

}  // namespace
}  // namespace kebab::search
