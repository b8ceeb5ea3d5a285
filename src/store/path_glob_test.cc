#include "store/path_glob.h"

#include <gtest/gtest.h>

namespace kebab::store {
namespace {

TEST(PathGlobTest, StarStaysInSegment) {
  EXPECT_TRUE(PathGlobMatch("notes/*.md", "notes/a.md"));
  EXPECT_FALSE(PathGlobMatch("notes/*.md", "notes/sub/a.md"));
  EXPECT_FALSE(PathGlobMatch("*.md", "notes/a.md"));
}

TEST(PathGlobTest, DoubleStarCrossesSegments) {
  EXPECT_TRUE(PathGlobMatch("notes/**/*.md", "notes/a.md"));
  EXPECT_TRUE(PathGlobMatch("notes/**/*.md", "notes/x/y/a.md"));
  EXPECT_TRUE(PathGlobMatch("**/a.md", "a.md"));
  EXPECT_TRUE(PathGlobMatch("**", "any/thing.md"));
  EXPECT_FALSE(PathGlobMatch("notes/**", "other/a.md"));
}

TEST(PathGlobTest, QuestionMarkAndClasses) {
  EXPECT_TRUE(PathGlobMatch("v?.md", "v1.md"));
  EXPECT_FALSE(PathGlobMatch("v?.md", "v/.md"));
  EXPECT_TRUE(PathGlobMatch("[a-c]*.md", "beta.md"));
  EXPECT_FALSE(PathGlobMatch("[!a-c]*.md", "beta.md"));
  EXPECT_TRUE(PathGlobMatch("[!a-c]*.md", "zeta.md"));
}

TEST(PathGlobTest, HangulAndSpaces) {
  EXPECT_TRUE(PathGlobMatch("노트/*.md", "노트/데이터 베이스.md"));
  EXPECT_FALSE(PathGlobMatch("노트/*.md", "메모/a.md"));
}

}  // namespace
}  // namespace kebab::store
