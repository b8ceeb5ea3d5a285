#include "core/unicode.h"

#include <gtest/gtest.h>
#include <utf8proc.h>

#include <cstdlib>
#include <string>

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

// utf8proc directly, not through Nfc(), which trusts IsKnownNfc.
std::string Utf8procMap(const std::string& s, int options) {
  utf8proc_uint8_t* out = nullptr;
  const utf8proc_ssize_t n = utf8proc_map(
      reinterpret_cast<const utf8proc_uint8_t*>(s.data()), static_cast<utf8proc_ssize_t>(s.size()),
      &out, static_cast<utf8proc_option_t>(UTF8PROC_STABLE | options));
  std::string result =
      n < 0 ? std::string("<error>") : std::string(reinterpret_cast<char*>(out), n);
  std::free(out);
  return result;
}

std::string Utf8(char32_t cp) {
  utf8proc_uint8_t buf[4];
  const utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(cp), buf);
  return std::string(reinterpret_cast<char*>(buf), static_cast<size_t>(n));
}

TEST(UnicodeTest, KnownNfcIsAFastSubsetOfNfc) {
  EXPECT_TRUE(IsKnownNfc("plain ascii"));
  EXPECT_TRUE(IsKnownNfc("데이터베이스는 漢字 かな"));
  EXPECT_TRUE(IsKnownNfc("привет, мир — ‘quotes’ …"));
  EXPECT_TRUE(IsKnownNfc("नमस्ते दुनिया"));  // virama (class 9) after a starter
  EXPECT_TRUE(IsKnownNfc("مرحبا بالعالم"));
  EXPECT_TRUE(IsKnownNfc("สวัสดีชาวโลก"));
  EXPECT_TRUE(IsKnownNfc("emoji \xF0\x9F\x98\x80 ok"));
  EXPECT_FALSE(IsKnownNfc("e\xCC\x81"));                 // combining mark that composes
  EXPECT_FALSE(IsKnownNfc("\xE1\x84\x92\xE1\x85\xA1"));  // conjoining jamo
  EXPECT_FALSE(IsKnownNfc("\xE2\x84\xA6"));              // OHM SIGN, NFC maps it to omega
  EXPECT_FALSE(IsKnownNfc("\xE0\xA5\x98"));              // DEVANAGARI QA, excluded composite
  EXPECT_FALSE(IsKnownNfc("bad\xFF"));                   // invalid UTF-8
  EXPECT_FALSE(IsKnownNfc("\xED\xA0\x80"));              // a surrogate
  EXPECT_FALSE(IsKnownNfc("\xF4\x90\x80\x80"));          // above U+10FFFF
  EXPECT_FALSE(IsKnownNfc("\xE0\x80\xAF"));              // overlong
  // Hebrew points of classes 10 and 11: in order is NFC, out of order is not.
  const std::string in_order = "\xD7\x90\xD6\xB0\xD6\xB1";
  const std::string reversed = "\xD7\x90\xD6\xB1\xD6\xB0";
  EXPECT_TRUE(IsKnownNfc(in_order));
  EXPECT_FALSE(IsKnownNfc(reversed));
  EXPECT_EQ(Nfc(reversed), in_order);
}

TEST(UnicodeTest, KnownNfcAgreesWithUtf8procOnEveryCodePoint) {
  size_t known = 0;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const std::string one = Utf8(cp);
    if (IsKnownNfc(one)) {
      ++known;
      ASSERT_EQ(Utf8procMap(one, UTF8PROC_COMPOSE), one)
          << std::hex << "U+" << static_cast<uint32_t>(cp);
    }
    // A composite's decomposition is not NFC (it composes back), so it must not pass.
    const std::string nfd = Utf8procMap(one, UTF8PROC_DECOMPOSE);
    if (nfd != one && Utf8procMap(one, UTF8PROC_COMPOSE) == one) {
      ASSERT_FALSE(IsKnownNfc(nfd)) << std::hex << "decomposed U+" << static_cast<uint32_t>(cp);
    }
  }
  EXPECT_GT(known, 1'100'000u);  // all but the few that NFC changes or may compose
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

// IsValidUtf8 decodes by itself; it must accept exactly what utf8proc does. Every sequence of
// one to three bytes is tried, and four-byte ones over every first two bytes (the last two only
// need to be continuation bytes, which the three-byte cases already cover).
TEST(UnicodeTest, ValidUtf8AgreesWithUtf8proc) {
  auto utf8proc_accepts = [](const std::string& s) {
    const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
    auto left = static_cast<utf8proc_ssize_t>(s.size());
    while (left > 0) {
      utf8proc_int32_t cp;
      const utf8proc_ssize_t n = utf8proc_iterate(p, left, &cp);
      if (n < 0) return false;
      p += n;
      left -= n;
    }
    return true;
  };
  size_t tried = 0, disagreed = 0;
  auto check = [&](const std::string& s) {
    ++tried;
    if (IsValidUtf8(s) != utf8proc_accepts(s) && ++disagreed <= 5) {
      ADD_FAILURE() << "disagree on " << ::testing::PrintToString(s);
    }
  };
  std::string s;
  for (int a = 0; a < 256; ++a) {
    check(std::string(1, static_cast<char>(a)));
    for (int b = 0; b < 256; ++b) {
      s = {static_cast<char>(a), static_cast<char>(b)};
      check(s);
      for (int c = 0; c < 256; ++c) {
        s = {static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)};
        check(s);
      }
      for (const char* tail : {"\x80\x80", "\xBF\xBF", "\x80", "\x80\x7F", "\xC0\x80"}) {
        check(std::string{static_cast<char>(a), static_cast<char>(b)} + tail);
      }
    }
  }
  EXPECT_EQ(disagreed, 0u) << "of " << tried;
}

}  // namespace
}  // namespace kebab
