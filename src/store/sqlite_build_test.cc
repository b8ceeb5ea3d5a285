// Pins the SQLite that kebab links (scripts/build-sqlite.sh): its library and header agree, and
// it is built without the two Debian options that made the ingest writer slower.
#include <gtest/gtest.h>
#include <sqlite3.h>

namespace kebab::store {
namespace {

TEST(SqliteBuildTest, LibraryMatchesTheHeaderItWasCompiledAgainst) {
  EXPECT_STREQ(sqlite3_libversion(), SQLITE_VERSION);
  EXPECT_STREQ(sqlite3_sourceid(), SQLITE_SOURCE_ID);
  EXPECT_GE(sqlite3_libversion_number(), 3054001);
}

TEST(SqliteBuildTest, HasLookasideAndNoSecureDelete) {
  EXPECT_EQ(sqlite3_compileoption_used("OMIT_LOOKASIDE"), 0);
  EXPECT_EQ(sqlite3_compileoption_used("SECURE_DELETE"), 0);
  EXPECT_EQ(sqlite3_compileoption_used("ENABLE_FTS5"), 1);
  EXPECT_EQ(sqlite3_compileoption_used("DEFAULT_MEMSTATUS=0"), 1);
}

}  // namespace
}  // namespace kebab::store
