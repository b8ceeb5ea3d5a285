// SHA-256 (FIPS 180-4), streaming. Model downloads are checked against the SHA-256 that
// Hugging Face publishes for every large file, and those files run to gigabytes, so the hash is
// computed as the bytes arrive instead of over a file held in memory.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/internal/fips180.h"

namespace kebab {

// Incremental SHA-256; not thread-safe, cheap to create and to copy.
class Sha256 {
 public:
  Sha256() { Reset(); }
  // Back to the hash of the empty message.
  void Reset();
  void Update(const void* data, size_t len);
  void Update(std::string_view s) { Update(s.data(), s.size()); }
  // The 32-byte digest of everything passed to Update. Does not change the hasher, so more
  // data may follow (the digest of the longer message is then a new Digest call).
  std::array<uint8_t, 32> Digest() const;
  // Digest() as 64 lowercase hex chars.
  std::string HexDigest() const;

 private:
  void Compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  internal::Fips180Blocks blocks_;
};

// 64-char lowercase hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

// True when `s` is 64 hex characters (either case): what a SHA-256 looks like on the wire.
bool IsSha256Hex(std::string_view s);

}  // namespace kebab
