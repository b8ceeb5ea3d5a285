// BLAKE3 hashing (official C implementation) with hex output.
#pragma once

#include <blake3.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace kebab {

// Incremental BLAKE3 hasher; not thread-safe, cheap to create.
class Blake3 {
 public:
  Blake3();
  void Update(const void* data, size_t len);
  void Update(std::string_view s) { Update(s.data(), s.size()); }
  // Full 32-byte digest as 64 lowercase hex chars. Does not reset the hasher.
  std::string HexDigest() const;

 private:
  blake3_hasher state_;
};

// 64-char lowercase hex BLAKE3 of `data`.
std::string Blake3Hex(std::string_view data);

// The first `len` bytes of BLAKE3(data) into `out`: BLAKE3's output is extendable, so these
// are the prefix of the full digest.
void Blake3Prefix(std::string_view data, unsigned char* out, size_t len);

// The first 16 bytes of BLAKE3(data), raw: a compact key for content (e.g. embedded text).
inline constexpr size_t kBlake3Key16Bytes = 16;
std::string Blake3Key16(std::string_view data);
// The same key, appended to `out` (no string of its own to allocate).
void AppendBlake3Key16(std::string_view data, std::string& out);

// Lowercase hex encoding of raw bytes.
std::string ToHex(const unsigned char* bytes, size_t len);

}  // namespace kebab
