#include "core/unicode.h"

#include <gtest/gtest.h>

namespace kebab {
namespace {

TEST(UnicodeTest, NfcComposesHangul) {
  EXPECT_EQ(Nfc("\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB"), "\xED\x95\x9C");
  EXPECT_EQ(Nfc("plain ascii"), "plain ascii");
  EXPECT_EQ(Nfc("e\xCC\x81"), "\xC3\xA9");  // e + combining acute -> é
}

TEST(UnicodeTest, InvalidUtf8IsReplaced) {
  const std::string bad = "ok\xFF\xFEok";
  EXPECT_FALSE(IsValidUtf8(bad));
  EXPECT_EQ(SanitizeUtf8(bad), "ok\xEF\xBF\xBD\xEF\xBF\xBDok");
  EXPECT_TRUE(IsValidUtf8(Nfc(bad)));
}

TEST(UnicodeTest, SafePrefixDoesNotSplitCodePoints) {
  const std::string s = "a\xED\x95\x9C";  // "a한": 1 + 3 bytes
  EXPECT_EQ(Utf8SafePrefix(s, 2), 1u);
  EXPECT_EQ(Utf8SafePrefix(s, 4), 4u);
  EXPECT_EQ(Utf8Length(s), 2u);
}

}  // namespace
}  // namespace kebab

namespace kebab {
namespace {

TEST(UnicodeTest, KnownNfcIsAFastSubsetOfNfc) {
  EXPECT_TRUE(IsKnownNfc("plain ascii"));
  EXPECT_TRUE(IsKnownNfc("데이터베이스는 漢字 かな"));
  EXPECT_FALSE(IsKnownNfc("e\xCC\x81"));                 // combining mark
  EXPECT_FALSE(IsKnownNfc("\xE1\x84\x92\xE1\x85\xA1"));  // conjoining jamo
  EXPECT_FALSE(IsKnownNfc("bad\xFF"));                   // invalid UTF-8
  for (const char* s : {"plain", "데이터베이스", "caf\xC3\xA9"}) {
    if (IsKnownNfc(s)) {
      EXPECT_EQ(Nfc(s), s);
    }
  }
}

TEST(UnicodeTest, ChecksFindWhatFollowsLongAsciiRuns) {
  // Past the first eight bytes the checks read words; a bad or unstable sequence must be found
  // at every offset, and a good one must not be mistaken for one.
  for (size_t at = 0; at < 30; ++at) {
    const std::string ascii(at, 'a');
    const std::string tail(13, 'z');
    EXPECT_FALSE(IsValidUtf8(ascii + "\xFF" + tail)) << at;
    EXPECT_FALSE(IsKnownNfc(ascii + "e\xCC\x81" + tail)) << at;
    EXPECT_TRUE(IsValidUtf8(ascii + "\xED\x95\x9C" + tail)) << at;
    EXPECT_TRUE(IsKnownNfc(ascii + "\xED\x95\x9C" + tail + "\xC3\xA9" + ascii)) << at;
  }
}

}  // namespace
}  // namespace kebab
