#include "text/identifier.h"

namespace kebab::text {
namespace {

bool IsLower(unsigned char c) {
  return c >= 'a' && c <= 'z';
}

bool IsUpper(unsigned char c) {
  return c >= 'A' && c <= 'Z';
}

bool IsAlnum(unsigned char c) {
  return IsLower(c) || IsUpper(c) || (c >= '0' && c <= '9');
}

// The end of the ASCII letters and digits from `i`; `npos` when a non-ASCII byte continues
// them (a word such as `naïve` is the analyzer's to normalize, not an identifier's part).
size_t AsciiRunEnd(std::string_view text, size_t i) {
  while (i < text.size() && IsAlnum(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && static_cast<unsigned char>(text[i]) >= 0x80) return std::string_view::npos;
  return i;
}

}  // namespace

void SplitAtCaseChanges(std::string_view text, size_t start, size_t end,
                        std::vector<IdentifierPart>* out) {
  size_t begin = start;
  bool lower_before_digits = false;  // the letter before the current digits is lowercase
  for (size_t i = start + 1; i < end; ++i) {
    const auto prev = static_cast<unsigned char>(text[i - 1]);
    const auto cur = static_cast<unsigned char>(text[i]);
    if (IsLower(prev)) lower_before_digits = true;
    if (IsUpper(prev)) lower_before_digits = false;
    const bool to_upper =
        IsUpper(cur) && (IsLower(prev) || (!IsUpper(prev) && lower_before_digits));
    const bool acronym_end = IsUpper(prev) && IsUpper(cur) && i + 1 < end &&
                             IsLower(static_cast<unsigned char>(text[i + 1]));
    if (to_upper || acronym_end) {
      out->push_back({begin, i});
      begin = i;
    }
  }
  out->push_back({begin, end});
}

size_t ScanIdentifier(std::string_view text, size_t start, size_t word_end,
                      std::vector<IdentifierPart>* parts) {
  parts->clear();
  size_t end = word_end;
  SplitAtCaseChanges(text, start, end, parts);
  while (end < text.size() && text[end] == '_') {
    size_t next = end;
    while (next < text.size() && text[next] == '_') ++next;
    if (next == text.size() || !IsAlnum(static_cast<unsigned char>(text[next]))) break;
    const size_t run_end = AsciiRunEnd(text, next);
    if (run_end == std::string_view::npos) break;
    SplitAtCaseChanges(text, next, run_end, parts);
    end = run_end;
  }
  return end;
}

}  // namespace kebab::text
