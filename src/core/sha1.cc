#include "core/sha1.h"

#include "core/hash.h"

namespace kebab {
namespace {

constexpr uint32_t Rotl(uint32_t x, int n) {
  return (x << n) | (x >> (32 - n));
}

}  // namespace

void Sha1::Reset() {
  // FIPS 180-4 §5.3.1.
  state_ = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
  blocks_.Reset();
}

void Sha1::Compress(const uint8_t* block) {
  // §6.1.2, with the 80-word schedule of §6.1.2 step 1.
  uint32_t w[80];
  internal::ReadBlockWords(block, w);
  for (int t = 16; t < 80; ++t) w[t] = Rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3], e = state_[4];
  for (int t = 0; t < 80; ++t) {
    // §4.1.1 functions and §4.2.1 constants, by round.
    uint32_t f, k;
    if (t < 20) {
      f = (b & c) ^ (~b & d);
      k = 0x5a827999;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (t < 60) {
      f = (b & c) ^ (b & d) ^ (c & d);
      k = 0x8f1bbcdc;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6;
    }
    const uint32_t temp = Rotl(a, 5) + f + e + k + w[t];
    e = d;
    d = c;
    c = Rotl(b, 30);
    b = a;
    a = temp;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
}

void Sha1::Update(const void* data, size_t len) {
  blocks_.Update(static_cast<const uint8_t*>(data), len, [this](const uint8_t* b) { Compress(b); });
}

std::array<uint8_t, 20> Sha1::Digest() const {
  // On a copy, so the hasher can keep going.
  Sha1 copy = *this;
  copy.blocks_.Finish([&copy](const uint8_t* b) { copy.Compress(b); });
  return internal::DigestOf(copy.state_);
}

std::string Sha1::HexDigest() const {
  const std::array<uint8_t, 20> d = Digest();
  return ToHex(d.data(), d.size());
}

std::string Sha1Hex(std::string_view data) {
  Sha1 h;
  h.Update(data);
  return h.HexDigest();
}

bool IsSha1Hex(std::string_view s) {
  return internal::IsHexOfLength(s, 40);
}

}  // namespace kebab
