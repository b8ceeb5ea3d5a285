// The message framing SHA-1 and SHA-256 share (FIPS 180-4 §5.1.1 and §5.2.1): 64-byte blocks,
// the message padded with a 1 bit, zeros and its length in bits, words read and written
// big-endian. Each hash supplies the compression of one block (its §6 computation); this holds
// the partial block between Update calls. Core-private. Not thread-safe; cheap to copy.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace kebab::internal {

class Fips180Blocks {
 public:
  void Reset() {
    buffered_ = 0;
    total_bytes_ = 0;
  }

  // Calls compress(block) for each 64-byte block completed by `data`.
  template <class Compress>
  void Update(const uint8_t* p, size_t len, Compress&& compress) {
    total_bytes_ += len;
    if (buffered_ > 0) {
      const size_t take = std::min(len, buffer_.size() - buffered_);
      std::memcpy(buffer_.data() + buffered_, p, take);
      buffered_ += take;
      p += take;
      len -= take;
      if (buffered_ < buffer_.size()) return;
      compress(buffer_.data());
      buffered_ = 0;
    }
    // Whole blocks straight from the caller's memory: downloads hash megabytes per call.
    for (; len >= 64; p += 64, len -= 64) compress(p);
    std::memcpy(buffer_.data(), p, len);
    buffered_ = len;
  }

  // Pads the message (§5.1.1) and compresses its last block or two.
  template <class Compress>
  void Finish(Compress&& compress) {
    const uint64_t bit_len = total_bytes_ * 8;
    uint8_t pad[64 + 8] = {0x80};
    const size_t zeros_to = buffered_ < 56 ? 56 : 120;
    size_t n = zeros_to - buffered_;
    for (int i = 0; i < 8; ++i) pad[n++] = static_cast<uint8_t>(bit_len >> (56 - 8 * i));
    Update(pad, n, compress);
  }

 private:
  std::array<uint8_t, 64> buffer_;
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

// The 16 big-endian words of a block (§5.2.1).
inline void ReadBlockWords(const uint8_t* block, uint32_t* w) {
  for (int t = 0; t < 16; ++t) {
    w[t] = (uint32_t{block[4 * t]} << 24) | (uint32_t{block[4 * t + 1]} << 16) |
           (uint32_t{block[4 * t + 2]} << 8) | uint32_t{block[4 * t + 3]};
  }
}

// A final state as its digest: each word big-endian.
template <size_t N>
std::array<uint8_t, 4 * N> DigestOf(const std::array<uint32_t, N>& state) {
  std::array<uint8_t, 4 * N> out;
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j < 4; ++j) out[4 * i + j] = static_cast<uint8_t>(state[i] >> (24 - 8 * j));
  }
  return out;
}

// True when `s` is `len` hex characters, either case.
inline bool IsHexOfLength(std::string_view s, size_t len) {
  return s.size() == len && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
         });
}

}  // namespace kebab::internal
