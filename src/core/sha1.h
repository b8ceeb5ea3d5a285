// SHA-1 (FIPS 180-4), streaming. whisper.cpp publishes a SHA-1 for each of its ggml model files
// (models/README.md), so speech-model downloads are checked against that pin while the bytes
// arrive. SHA-1 is broken for collision resistance: use it only to match a published digest,
// never to name or trust new content (kebab's own hashes are BLAKE3 and SHA-256).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/internal/fips180.h"

namespace kebab {

// Incremental SHA-1; not thread-safe, cheap to create and to copy. The same shape as Sha256.
class Sha1 {
 public:
  Sha1() { Reset(); }
  // Back to the hash of the empty message.
  void Reset();
  void Update(const void* data, size_t len);
  void Update(std::string_view s) { Update(s.data(), s.size()); }
  // The 20-byte digest of everything passed to Update. Does not change the hasher, so more
  // data may follow (the digest of the longer message is then a new Digest call).
  std::array<uint8_t, 20> Digest() const;
  // Digest() as 40 lowercase hex chars.
  std::string HexDigest() const;

 private:
  void Compress(const uint8_t* block);

  std::array<uint32_t, 5> state_;
  internal::Fips180Blocks blocks_;
};

// 40-char lowercase hex SHA-1 of `data`.
std::string Sha1Hex(std::string_view data);

// True when `s` is 40 hex characters (either case): what a SHA-1 looks like when published.
bool IsSha1Hex(std::string_view s);

}  // namespace kebab
