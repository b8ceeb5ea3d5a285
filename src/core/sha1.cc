#include "core/sha1.h"

#include <algorithm>
#include <cstring>

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
  buffered_ = 0;
  total_bytes_ = 0;
}

void Sha1::Compress(const uint8_t* block) {
  // §6.1.2, with the 80-word schedule of §6.1.2 step 1.
  uint32_t w[80];
  for (int t = 0; t < 16; ++t) {
    w[t] = (uint32_t{block[4 * t]} << 24) | (uint32_t{block[4 * t + 1]} << 16) |
           (uint32_t{block[4 * t + 2]} << 8) | uint32_t{block[4 * t + 3]};
  }
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
  const auto* p = static_cast<const uint8_t*>(data);
  total_bytes_ += len;
  if (buffered_ > 0) {
    const size_t take = std::min(len, buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, p, take);
    buffered_ += take;
    p += take;
    len -= take;
    if (buffered_ < buffer_.size()) return;
    Compress(buffer_.data());
    buffered_ = 0;
  }
  // Whole blocks straight from the caller's memory: downloads hash megabytes per call.
  for (; len >= 64; p += 64, len -= 64) Compress(p);
  std::memcpy(buffer_.data(), p, len);
  buffered_ = len;
}

std::array<uint8_t, 20> Sha1::Digest() const {
  // §5.1.1 padding (the same as SHA-256's) on a copy, so the hasher can keep going.
  Sha1 copy = *this;
  const uint64_t bit_len = total_bytes_ * 8;
  const uint8_t one = 0x80;
  copy.Update(&one, 1);
  const uint8_t zero = 0;
  while (copy.buffered_ != 56) copy.Update(&zero, 1);
  uint8_t length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(bit_len >> (56 - 8 * i));
  copy.Update(length, 8);
  std::array<uint8_t, 20> out;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = static_cast<uint8_t>(copy.state_[i] >> (24 - 8 * j));
  }
  return out;
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
  if (s.size() != 40) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return true;
}

}  // namespace kebab
