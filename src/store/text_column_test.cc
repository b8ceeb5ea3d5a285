#include "store/text_column.h"

#include <gtest/gtest.h>

namespace kebab::store {
namespace {

TEST(TextColumnTest, KeepsEachValueApart) {
  TextColumn column;
  EXPECT_EQ(column.size(), 0u);
  column.text() += "[\"a\"]";
  column.EndValue();
  column.EndValue();  // an empty value
  column.text() += "{\"k\":1}";
  column.EndValue();
  ASSERT_EQ(column.size(), 3u);
  EXPECT_EQ(column[0], "[\"a\"]");
  EXPECT_EQ(column[1], "");
  EXPECT_EQ(column[2], "{\"k\":1}");
  EXPECT_EQ(column.back(), "{\"k\":1}");
}

TEST(TextColumnTest, ValuesSurviveGrowthAndMove) {
  TextColumn column;
  column.Reserve(1, 1);
  for (int i = 0; i < 1000; ++i) {
    column.text() += std::to_string(i);
    column.EndValue();
  }
  TextColumn moved = std::move(column);
  ASSERT_EQ(moved.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(moved[i], std::to_string(i));
}

}  // namespace
}  // namespace kebab::store
