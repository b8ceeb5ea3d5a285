#include "core/time.h"

#include <gtest/gtest.h>

namespace kebab {
namespace {

TEST(TimeTest, ParsesOffsetsAndDates) {
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseRfc3339("1970-01-01T09:00:00+09:00"), 0);
  EXPECT_EQ(ParseRfc3339("1970-01-02"), 86400);
  EXPECT_EQ(ParseRfc3339("2026-04-27T15:42:11.250+09:00"), ParseRfc3339("2026-04-27T06:42:11Z"));
}

TEST(TimeTest, RejectsMalformed) {
  EXPECT_FALSE(ParseRfc3339("yesterday"));
  EXPECT_FALSE(ParseRfc3339("2026-13-01"));
  EXPECT_FALSE(ParseRfc3339("2026-01-01T10:00"));
  EXPECT_FALSE(ParseRfc3339("2026-01-01T10:00:00"));
}

TEST(TimeTest, FormatRoundTrips) {
  auto t = ParseRfc3339("2026-11-22T02:36:16Z");
  ASSERT_TRUE(t);
  EXPECT_EQ(FormatRfc3339(*t), "2026-11-22T02:36:16Z");
}

}  // namespace
}  // namespace kebab
