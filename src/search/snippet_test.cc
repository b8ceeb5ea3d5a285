#include "search/snippet.h"

#include <gtest/gtest.h>

#include "core/unicode.h"

namespace kebab::search {
namespace {

TEST(SnippetTest, CollapsesWhitespaceAndKeepsShortText) {
  auto s = ShapeSnippet(
      "a\n\n b\t\x01"
      "c\x02",
      100);
  EXPECT_EQ(s.text,
            "a b \x01"
            "c\x02");
  EXPECT_FALSE(s.cut);
}

TEST(SnippetTest, KeepsFtsEllipsesAndMarksCut) {
  auto s = ShapeSnippet("…middle \x01hit\x02 text…", 100);
  EXPECT_EQ(s.text, "…middle \x01hit\x02 text…");
  EXPECT_TRUE(s.cut);
}

TEST(SnippetTest, TrimsAroundFirstHighlightWithBalancedMarkers) {
  std::string text(200, 'x');
  text += " \x01target\x02 ";
  text += std::string(200, 'y');
  auto s = ShapeSnippet(text, 40);
  EXPECT_TRUE(s.cut);
  EXPECT_NE(s.text.find("target"), std::string::npos);
  EXPECT_LE(Utf8Length(StripHighlights(s.text)), 42u);  // 40 + two ellipses
  int balance = 0;
  for (char c : s.text) {
    if (c == '\x01') ++balance;
    if (c == '\x02') --balance;
    EXPECT_GE(balance, 0);
  }
  EXPECT_EQ(balance, 0);
}

TEST(SnippetTest, NeverSplitsUtf8) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "데이터";
  auto s = ShapeSnippet(text, 17);
  EXPECT_TRUE(IsValidUtf8(s.text));
}

TEST(SnippetTest, StripHighlights) {
  EXPECT_EQ(StripHighlights("a\x01"
                            "b\x02"
                            "c"),
            "abc");
}

}  // namespace
}  // namespace kebab::search
