#include "core/unicode.h"

#include <utf8proc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace kebab {
namespace {

// Where the first byte at or after `i` that is not ASCII is (s.size() if none); most text
// here is mostly ASCII, so this looks at eight bytes at a time.
size_t SkipAscii(std::string_view s, size_t i) {
  for (; s.size() - i >= 8; i += 8) {
    uint64_t word;
    std::memcpy(&word, s.data() + i, sizeof word);
    if ((word & 0x8080808080808080ull) != 0) break;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  for (size_t i = 0; i < s.size();) {
    if (bytes[i] < 0x80) {
      i = SkipAscii(s, i);
      continue;
    }
    utf8proc_int32_t cp;
    const utf8proc_ssize_t n =
        utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(s.size() - i), &cp);
    if (n < 0) return false;
    i += static_cast<size_t>(n);
  }
  return true;
}

std::string SanitizeUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(s.size());
  while (left > 0) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t n = utf8proc_iterate(p, left, &cp);
    if (n < 0) {
      out += "\xEF\xBF\xBD";
      ++p;
      --left;
      continue;
    }
    out.append(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
    p += n;
    left -= n;
  }
  return out;
}

bool IsKnownNfc(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      i = SkipAscii(s, i);
      continue;
    }
    char32_t cp;
    size_t len;
    if (b0 >= 0xC2 && b0 < 0xE0) {
      cp = b0 & 0x1F;
      len = 2;
    } else if (b0 >= 0xE0 && b0 < 0xF0) {
      cp = b0 & 0x0F;
      len = 3;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    i += len;
    const bool stable = cp < 0x300 || (cp >= 0xAC00 && cp <= 0xD7A3) ||
                        (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3041 && cp <= 0x3096) ||
                        (cp >= 0x30A1 && cp <= 0x30FA) || (cp >= 0xFF01 && cp <= 0xFF5E);
    if (!stable || (len == 3 && cp < 0x800)) return false;
  }
  return true;
}

std::string Nfc(std::string_view s) {
  if (IsKnownNfc(s)) return std::string(s);
  std::string valid = IsValidUtf8(s) ? std::string(s) : SanitizeUtf8(s);
  utf8proc_uint8_t* out = nullptr;
  utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(valid.data()),
                   static_cast<utf8proc_ssize_t>(valid.size()), &out,
                   static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
  if (n < 0) return valid;
  std::string result(reinterpret_cast<char*>(out), static_cast<size_t>(n));
  std::free(out);
  return result;
}

size_t Utf8SafePrefix(std::string_view s, size_t max_bytes) {
  if (max_bytes >= s.size()) return s.size();
  size_t i = max_bytes;
  while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace kebab
