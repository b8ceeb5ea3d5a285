#include "core/hash.h"

#include <gtest/gtest.h>

#include <string>

namespace kebab {
namespace {

// Official BLAKE3 vectors (test_vectors/test_vectors.json of the BLAKE3 repository): the input
// is the repeating byte sequence 0..250; the default 32-byte output is the first 64 hex chars.
struct Vector {
  size_t input_len;
  const char* hash;
};
constexpr Vector kVectors[] = {
    {0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
    {1, "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213"},
    {1023, "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11"},
    {1024, "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7"},
    {1025, "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444"},
    {2048, "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a"},
    {2049, "5f4d72f40d7a5f82b15ca2b2e44b1de3c2ef86c426c95c1af0b6879522563030"},
    {3072, "b98cb0ff3623be03326b373de6b9095218513e64f1ee2edd2525c7ad1e5cffd2"},
    {4096, "015094013f57a5277b59d8475c0501042c0b642e531b0a1c8f58d2163229e969"},
    {5121, "628bd2cb2004694adaab7bbd778a25df25c47b9d4155a55f8fbd79f2fe154cff"},
    {7169, "a003fc7a51754a9b3c7fae0367ab3d782dccf28855a03d435f8cfe74605e7817"},
};

std::string TestInput(size_t len) {
  std::string s(len, '\0');
  for (size_t i = 0; i < len; ++i) s[i] = static_cast<char>(i % 251);
  return s;
}

TEST(Blake3Test, OfficialVectors) {
  for (const auto& v : kVectors) {
    EXPECT_EQ(Blake3Hex(TestInput(v.input_len)), v.hash) << "input_len=" << v.input_len;
  }
}

TEST(Blake3Test, IncrementalUpdatesMatchOneShot) {
  std::string input = TestInput(7169);
  Blake3 h;
  for (size_t i = 0; i < input.size(); i += 100) h.Update(std::string_view(input).substr(i, 100));
  EXPECT_EQ(h.HexDigest(), Blake3Hex(input));
}

TEST(HexTest, EncodesLowercase) {
  const unsigned char bytes[] = {0x00, 0xAB, 0x7f};
  EXPECT_EQ(ToHex(bytes, 3), "00ab7f");
}

}  // namespace
}  // namespace kebab
