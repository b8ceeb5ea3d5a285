#include "core/hash.h"

namespace kebab {

Blake3::Blake3() {
  blake3_hasher_init(&state_);
}

void Blake3::Update(const void* data, size_t len) {
  blake3_hasher_update(&state_, data, len);
}

std::string Blake3::HexDigest() const {
  unsigned char out[BLAKE3_OUT_LEN];
  blake3_hasher_finalize(&state_, out, sizeof out);
  return ToHex(out, sizeof out);
}

std::string Blake3Hex(std::string_view data) {
  Blake3 h;
  h.Update(data);
  return h.HexDigest();
}

std::string ToHex(const unsigned char* bytes, size_t len) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(len * 2, '0');
  for (size_t i = 0; i < len; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 0xf];
  }
  return out;
}

void Blake3Prefix(std::string_view data, unsigned char* out, size_t len) {
  blake3_hasher h;
  blake3_hasher_init(&h);
  blake3_hasher_update(&h, data.data(), data.size());
  blake3_hasher_finalize(&h, out, len);
}

void AppendBlake3Key16(std::string_view data, std::string& out) {
  unsigned char key[kBlake3Key16Bytes];
  Blake3Prefix(data, key, sizeof key);
  out.append(reinterpret_cast<const char*>(key), sizeof key);
}

std::string Blake3Key16(std::string_view data) {
  std::string out;
  AppendBlake3Key16(data, out);
  return out;
}

}  // namespace kebab
