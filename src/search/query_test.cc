#include <gtest/gtest.h>

#include "search/search.h"

namespace kebab::search {
namespace {

TEST(MatchExpressionTest, SingleWordIsQuoted) {
  auto m = BuildMatchExpression("  docker ");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, "\"docker\"");
}

TEST(MatchExpressionTest, PlainTextIsPhraseOrWords) {
  auto m = BuildMatchExpression("git commit amend");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, "\"git commit amend\" OR \"git\" OR \"commit\" OR \"amend\"");
}

TEST(MatchExpressionTest, EscapesQuotesAndDropsPunctuationOnlyWords) {
  auto m = BuildMatchExpression("say \"hi\" -");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, "\"say \"\"hi\"\"\" OR \"say\" OR \"\"\"hi\"\"\"");
}

TEST(MatchExpressionTest, SingleCjkCharBecomesPrefix) {
  auto m = BuildMatchExpression("책");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, "\"책\" *");
}

TEST(MatchExpressionTest, RawSyntaxInSingleQuotes) {
  auto m = BuildMatchExpression("'foo NEAR bar'");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, "foo NEAR bar");
}

TEST(MatchExpressionTest, EmptyQueriesAreInvalid) {
  for (const char* q : {"", "   ", "''", "- + !"}) {
    auto m = BuildMatchExpression(q);
    ASSERT_FALSE(m.ok()) << q;
    EXPECT_EQ(m.status().code(), ErrorCode::kInvalidInput);
  }
}

}  // namespace
}  // namespace kebab::search
