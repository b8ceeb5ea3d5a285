#include "core/status.h"

#include <gtest/gtest.h>

namespace kebab {
namespace {

TEST(StatusTest, ContextPrefixesAnErrorAndKeepsCodeAndHint) {
  Status st = InvalidInput("bad row", "fix it");
  Status with = st.WithContext("notes/a.md");
  EXPECT_EQ(with.code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(with.message(), "notes/a.md: bad row");
  EXPECT_EQ(with.hint(), "fix it");
  EXPECT_EQ(st.WithContext("chunk ", "c1f0").message(), "chunk c1f0: bad row");
}

TEST(StatusTest, ContextLeavesOkAlone) {
  EXPECT_TRUE(Status::OK().WithContext("notes/a.md").ok());
  EXPECT_TRUE(Status::OK().WithContext("chunk ", "c1f0").ok());
  EXPECT_EQ(Status::OK().WithContext("chunk ", "c1f0").message(), "");
}

}  // namespace
}  // namespace kebab
