// Unicode helpers shared by every layer: NFC normalization and UTF-8 validity.
#pragma once

#include <string>
#include <string_view>

namespace kebab {

// NFC form of `s`. Invalid UTF-8 sequences are replaced with U+FFFD first.
std::string Nfc(std::string_view s);

// True when `s` is valid UTF-8 that is certainly NFC already: Unicode's NFC quick check
// answers Yes (no code point that NFC replaces or that may compose with what precedes it, and
// combining marks in canonical order). False means "maybe not"; Nfc() uses this to skip
// utf8proc for nearly all text in any script.
bool IsKnownNfc(std::string_view s);

// True when `s` is well-formed UTF-8.
bool IsValidUtf8(std::string_view s);

// Copy of `s` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string SanitizeUtf8(std::string_view s);

// Largest prefix length <= max_bytes that does not split a UTF-8 sequence.
size_t Utf8SafePrefix(std::string_view s, size_t max_bytes);

// Number of code points in well-formed UTF-8 `s`.
size_t Utf8Length(std::string_view s);

// `s` with every run of ASCII whitespace (line breaks included) one space, and none at the
// ends.
std::string CollapseWhitespace(std::string_view s);

// The first `n` code points of well-formed UTF-8 `s` (all of it when shorter).
std::string_view CodePointPrefix(std::string_view s, size_t n);

// The ASCII whitespace of C's isspace() (space, \t, \n, \v, \f, \r), without its locale.
inline bool IsAsciiSpace(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

}  // namespace kebab
