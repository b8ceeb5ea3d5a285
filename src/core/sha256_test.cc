#include "core/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace kebab {
namespace {

// The FIPS 180-4 example messages (NIST CSRC "Examples with Intermediate Values", SHA-256).
constexpr char kAbc448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
constexpr char kAbc896[] =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
    "lmnopqrsmnopqrstnopqrstu";

TEST(Sha256Test, NistVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(kAbc448), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(kAbc896), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256Test, OneMillionAs) {
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Downloads feed the hasher in whatever pieces the network delivers: every split of a message
// must give the same digest as hashing it whole, across the 55/56/64-byte padding edges too.
TEST(Sha256Test, AnySplitGivesTheSameDigest) {
  std::string message;
  for (int i = 0; i < 200; ++i) message += static_cast<char>(i * 7 + 3);
  for (size_t len : {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200}) {
    const std::string m = message.substr(0, len);
    const std::string whole = Sha256Hex(m);
    for (size_t step : {1, 3, 63, 64, 100}) {
      Sha256 h;
      for (size_t i = 0; i < m.size(); i += step) h.Update(std::string_view(m).substr(i, step));
      EXPECT_EQ(h.HexDigest(), whole) << "len=" << len << " step=" << step;
    }
  }
}

TEST(Sha256Test, DigestDoesNotEndTheStreamAndResetStartsOver) {
  Sha256 h;
  h.Update("ab");
  EXPECT_EQ(h.HexDigest(), Sha256Hex("ab"));
  h.Update("c");
  EXPECT_EQ(h.HexDigest(), Sha256Hex("abc"));
  h.Reset();
  EXPECT_EQ(h.HexDigest(), Sha256Hex(""));
}

TEST(Sha256Test, RecognizesHexDigests) {
  EXPECT_TRUE(IsSha256Hex(Sha256Hex("x")));
  EXPECT_TRUE(IsSha256Hex("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"));
  EXPECT_FALSE(IsSha256Hex("e3b0c442"));
  EXPECT_FALSE(IsSha256Hex(std::string(63, 'a') + "g"));
  EXPECT_FALSE(IsSha256Hex("\"" + Sha256Hex("") + "\""));
}

}  // namespace
}  // namespace kebab
