// Unicode helpers shared by every layer: NFC normalization and UTF-8 validity.
#pragma once

#include <string>
#include <string_view>

namespace kebab {

// NFC form of `s`. Invalid UTF-8 sequences are replaced with U+FFFD first.
std::string Nfc(std::string_view s);

// True when `s` is well-formed UTF-8.
bool IsValidUtf8(std::string_view s);

// Copy of `s` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string SanitizeUtf8(std::string_view s);

// Largest prefix length <= max_bytes that does not split a UTF-8 sequence.
size_t Utf8SafePrefix(std::string_view s, size_t max_bytes);

// Number of code points in well-formed UTF-8 `s`.
size_t Utf8Length(std::string_view s);

}  // namespace kebab
