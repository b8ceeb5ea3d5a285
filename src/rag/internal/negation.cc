#include "rag/internal/negation.h"

#include <string>

#include "core/unicode.h"

namespace kebab::rag::internal {
namespace {

constexpr std::string_view kEnglish[] = {"not",    "no",      "never", "none",    "nothing",
                                         "nobody", "neither", "nor",   "without", "cannot"};
constexpr std::string_view kKorean[] = {"않", "없", "못", "아니"};

bool IsAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

bool IsNegated(std::string_view s) {
  for (std::string_view k : kKorean) {
    if (s.find(k) != std::string_view::npos) return true;
  }
  if (s.find("n't") != std::string_view::npos ||
      s.find("n\xE2\x80\x99t") != std::string_view::npos) {
    return true;
  }
  size_t i = 0;
  while (i < s.size()) {
    // A standalone 안 (U+C548) before a verb negates it.
    if (s.substr(i, 3) == "\xEC\x95\x88" && (i == 0 || IsAsciiSpace(s[i - 1])) &&
        (i + 3 == s.size() || IsAsciiSpace(s[i + 3]))) {
      return true;
    }
    if (!IsAsciiLetter(s[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    std::string word;
    while (j < s.size() && IsAsciiLetter(s[j])) {
      word += static_cast<char>(s[j] >= 'A' && s[j] <= 'Z' ? s[j] + ('a' - 'A') : s[j]);
      ++j;
    }
    for (std::string_view k : kEnglish) {
      if (word == k) return true;
    }
    i = j;
  }
  return false;
}

std::vector<std::string_view> Sentences(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  auto emit = [&](size_t end) {
    while (start < end && IsAsciiSpace(text[start])) ++start;
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool blank_line = c == '\n' && i + 1 < text.size() && text[i + 1] == '\n';
    const bool stop =
        (c == '.' || c == '!' || c == '?') && (i + 1 == text.size() || IsAsciiSpace(text[i + 1]));
    const bool ideographic_stop = text.substr(i, 3) == "\xE3\x80\x82";  // 。
    if (stop || blank_line) {
      emit(i + 1);
    } else if (ideographic_stop) {
      emit(i + 3);
      i += 2;
    }
  }
  emit(text.size());
  return out;
}

}  // namespace kebab::rag::internal
