#include "app/internal/ingest_files.h"

#include <gtest/gtest.h>

namespace kebab::app::internal {
namespace {

constexpr double kHalf = 0.5;

TEST(DecidePurgeTest, NothingGoneOrConfirmedPurges) {
  EXPECT_EQ(DecidePurge(100, 0, 0, false, kHalf), PurgeVerdict::kPurge);
  EXPECT_EQ(DecidePurge(100, 100, 0, true, kHalf), PurgeVerdict::kPurge);
  EXPECT_EQ(DecidePurge(100, 90, 10, true, kHalf), PurgeVerdict::kPurge);
}

TEST(DecidePurgeTest, AnEmptyRootWithDocumentsWaits) {
  // Even one document: a mount point without its drive holds nothing at all.
  EXPECT_EQ(DecidePurge(1, 1, 0, false, kHalf), PurgeVerdict::kRootEmpty);
  EXPECT_EQ(DecidePurge(5000, 5000, 0, false, 1.0), PurgeVerdict::kRootEmpty);
}

TEST(DecidePurgeTest, PastTheShareAndTheFloorWaits) {
  EXPECT_EQ(DecidePurge(20, 11, 9, false, kHalf), PurgeVerdict::kTooMany);
  EXPECT_EQ(DecidePurge(1000, 501, 499, false, kHalf), PurgeVerdict::kTooMany);
  EXPECT_EQ(DecidePurge(1000, 101, 899, false, 0.1), PurgeVerdict::kTooMany);
}

TEST(DecidePurgeTest, OrdinaryDeletionsPurge) {
  EXPECT_EQ(DecidePurge(1000, 500, 500, false, kHalf), PurgeVerdict::kPurge);  // at the share
  EXPECT_EQ(DecidePurge(12, kMinGuardedPurge, 2, false, kHalf), PurgeVerdict::kPurge);
  EXPECT_EQ(DecidePurge(4, 3, 1, false, kHalf), PurgeVerdict::kPurge);
  EXPECT_EQ(DecidePurge(1000, 999, 1, false, 1.0), PurgeVerdict::kPurge);  // 1.0 never asks
}

TEST(UnderAnyDirTest, MatchesWholeFolderNames) {
  const std::vector<std::string> dirs = {"private", "a/b"};
  EXPECT_TRUE(UnderAnyDir("private/x.md", dirs));
  EXPECT_TRUE(UnderAnyDir("a/b/c/d.pdf", dirs));
  EXPECT_FALSE(UnderAnyDir("private.md", dirs));
  EXPECT_FALSE(UnderAnyDir("privateer/x.md", dirs));
  EXPECT_FALSE(UnderAnyDir("a/bc/d.md", dirs));
  EXPECT_FALSE(UnderAnyDir("x.md", {}));
  EXPECT_TRUE(UnderAnyDir("x.md", {""}));  // the root itself could not be read
}

}  // namespace
}  // namespace kebab::app::internal
