#include "search/cursor.h"

#include <gtest/gtest.h>

namespace kebab::search {
namespace {

TEST(CursorTest, RoundTrips) {
  CursorState s{30, 7, "abcdef0123456789"};
  auto back = DecodeCursor(EncodeCursor(s));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->offset, 30);
  EXPECT_EQ(back->corpus_revision, 7);
  EXPECT_EQ(back->query_fingerprint, "abcdef0123456789");
}

TEST(CursorTest, RejectsGarbage) {
  for (const char* bad : {"", "!!!", "eyJ4IjoxfQ", "bm90IGpzb24"}) {
    auto c = DecodeCursor(bad);
    ASSERT_FALSE(c.ok()) << bad;
    EXPECT_EQ(c.status().code(), ErrorCode::kInvalidInput);
  }
}

}  // namespace
}  // namespace kebab::search
