#include "core/sha1.h"

#include <gtest/gtest.h>

#include <string>

namespace kebab {
namespace {

// The FIPS 180 example messages (NIST CSRC "Examples with Intermediate Values", SHA-1, and
// FIPS 180-1 Appendix C for the million 'a').
constexpr char kAbc448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
constexpr char kAbc896[] =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
    "lmnopqrsmnopqrstnopqrstu";

TEST(Sha1Test, NistVectors) {
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Sha1Hex(kAbc448), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Sha1Hex(kAbc896), "a49b2446a02c645bf419f995b67091253a04a259");
}

TEST(Sha1Test, OneMillionAs) {
  EXPECT_EQ(Sha1Hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

// Downloads feed the hasher in whatever pieces the network delivers: every split of a message
// must give the same digest as hashing it whole, across the 55/56/64-byte padding edges too.
TEST(Sha1Test, AnySplitGivesTheSameDigest) {
  std::string message;
  for (int i = 0; i < 200; ++i) message += static_cast<char>(i * 7 + 3);
  for (size_t len : {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200}) {
    const std::string m = message.substr(0, len);
    const std::string whole = Sha1Hex(m);
    for (size_t step : {1, 3, 63, 64, 100}) {
      Sha1 h;
      for (size_t i = 0; i < m.size(); i += step) h.Update(std::string_view(m).substr(i, step));
      EXPECT_EQ(h.HexDigest(), whole) << "len=" << len << " step=" << step;
    }
  }
}

TEST(Sha1Test, DigestDoesNotEndTheStreamAndResetStartsOver) {
  Sha1 h;
  h.Update("ab");
  EXPECT_EQ(h.HexDigest(), Sha1Hex("ab"));
  h.Update("c");
  EXPECT_EQ(h.HexDigest(), Sha1Hex("abc"));
  h.Reset();
  EXPECT_EQ(h.HexDigest(), Sha1Hex(""));
}

TEST(Sha1Test, RecognizesHexDigests) {
  EXPECT_TRUE(IsSha1Hex(Sha1Hex("x")));
  EXPECT_TRUE(IsSha1Hex("A9993E364706816ABA3E25717850C26C9CD0D89D"));
  EXPECT_FALSE(IsSha1Hex("a9993e36"));
  EXPECT_FALSE(IsSha1Hex(std::string(39, 'a') + "g"));
  EXPECT_FALSE(IsSha1Hex(std::string(64, 'a')));  // a SHA-256
}

}  // namespace
}  // namespace kebab
