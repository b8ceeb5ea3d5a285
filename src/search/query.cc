#include <string>
#include <vector>

#include "search/search.h"

namespace kebab::search {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// True when `word` holds something the tokenizer indexes (a letter, digit or any non-ASCII).
bool HasTokenChars(std::string_view word) {
  for (unsigned char c : word) {
    if (c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) {
      return true;
    }
  }
  return false;
}

// Single Hangul/Han/Kana character: the index holds bigrams, so search it as a prefix.
bool IsSingleCjkChar(std::string_view word) {
  if (word.size() != 3) return false;
  unsigned char b0 = static_cast<unsigned char>(word[0]);
  unsigned cp = ((b0 & 0x0F) << 12) | ((static_cast<unsigned char>(word[1]) & 0x3F) << 6) |
                (static_cast<unsigned char>(word[2]) & 0x3F);
  if ((b0 & 0xF0) != 0xE0) return false;
  return (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0x3040 && cp <= 0x30FF) ||
         (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
         (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x3130 && cp <= 0x318F);
}

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

constexpr size_t kMaxWords = 64;

}  // namespace

Result<std::string> BuildMatchExpression(std::string_view query) {
  size_t b = 0, e = query.size();
  while (b < e && IsSpace(query[b])) ++b;
  while (e > b && IsSpace(query[e - 1])) --e;
  std::string_view q = query.substr(b, e - b);
  if (q.empty()) return InvalidInput("empty search query", "give some words to search for");
  if (q.size() >= 2 && q.front() == '\'' && q.back() == '\'') {
    std::string_view raw = q.substr(1, q.size() - 2);
    if (raw.find_first_not_of(" \t\n\r") == std::string_view::npos) {
      return InvalidInput("empty FTS5 expression between quotes");
    }
    return std::string(raw);
  }
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < q.size() && words.size() < kMaxWords) {
    while (i < q.size() && IsSpace(q[i])) ++i;
    size_t j = i;
    while (j < q.size() && !IsSpace(q[j])) ++j;
    std::string_view w = q.substr(i, j - i);
    bool dup = false;
    for (auto seen : words) dup = dup || seen == w;
    if (!w.empty() && HasTokenChars(w) && !dup) words.push_back(w);
    i = j;
  }
  if (words.empty()) {
    return InvalidInput("the query has no searchable words", "use letters or digits");
  }
  auto term = [](std::string_view w) { return IsSingleCjkChar(w) ? Quote(w) + " *" : Quote(w); };
  if (words.size() == 1) return term(words[0]);
  std::string phrase;
  for (auto w : words) {
    if (!phrase.empty()) phrase += ' ';
    phrase += w;
  }
  std::string expr = Quote(phrase);
  for (auto w : words) expr += " OR " + term(w);
  return expr;
}

}  // namespace kebab::search
