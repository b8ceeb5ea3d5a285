#include "search/highlight.h"

#include <algorithm>
#include <vector>

#include "core/unicode.h"
#include "search/snippet.h"

namespace kebab::search {
namespace {

struct Range {
  int start, end;
};

class Collector : public text::TokenSink {
 public:
  explicit Collector(const std::unordered_set<std::string>* terms) : terms_(terms) {}
  void OnToken(std::string_view term, int start, int end) override {
    if (terms_ == nullptr) {
      words.emplace_back(term);
    } else if (terms_->count(std::string(term))) {
      hits.push_back({start, end});
    }
  }
  std::vector<std::string> words;
  std::vector<Range> hits;

 private:
  const std::unordered_set<std::string>* terms_;
};

bool IsOperator(std::string_view w) {
  return w == "AND" || w == "OR" || w == "NOT" || w.starts_with("NEAR");
}

bool IsSpace(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
}

}  // namespace

std::unordered_set<std::string> QueryTerms(std::string_view query, const text::Analyzer& analyzer) {
  std::unordered_set<std::string> terms;
  size_t i = 0;
  while (i < query.size()) {
    while (i < query.size() && IsSpace(query[i])) ++i;
    size_t j = i;
    while (j < query.size() && !IsSpace(query[j])) ++j;
    std::string_view word = query.substr(i, j - i);
    i = j;
    if (IsOperator(word)) continue;
    // "column:term" filters in raw syntax: only the term part is text.
    if (size_t colon = word.find(':'); colon != std::string_view::npos) {
      word.remove_prefix(colon + 1);
    }
    Collector c(nullptr);
    analyzer.Tokenize(word, c);
    for (auto& w : c.words) terms.insert(std::move(w));
  }
  return terms;
}

std::unordered_set<std::string> QueryTerms(const MatchPlan& plan, std::string_view query,
                                           const text::Analyzer& analyzer) {
  if (plan.raw || plan.words.empty()) return QueryTerms(query, analyzer);
  std::string searched;
  for (const QueryWordPlan& w : plan.words) {
    for (const std::string& t : w.terms) (searched += t) += ' ';
  }
  return QueryTerms(searched, analyzer);
}

Snippet MakeSnippet(std::string_view text, const std::unordered_set<std::string>& terms,
                    const text::Analyzer& analyzer, int max_chars) {
  Collector c(&terms);
  analyzer.Tokenize(text, c);
  // Merge overlapping highlights (CJK bigrams overlap by one character).
  std::vector<Range> merged;
  for (const Range& r : c.hits) {
    if (!merged.empty() && r.start <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(r);
    }
  }
  // Window start: the hit whose following max_chars*3 bytes hold the most hits (bytes are a
  // cheap stand-in for characters here; the exact cut happens in ShapeSnippet).
  size_t best = 0, best_count = 0;
  const size_t span = static_cast<size_t>(std::max(max_chars, 1)) * 3;
  for (size_t a = 0, b = 0; a < merged.size(); ++a) {
    while (b < merged.size() && static_cast<size_t>(merged[b].end - merged[a].start) <= span) {
      ++b;
    }
    if (b - a > best_count) {
      best_count = b - a;
      best = a;
    }
  }
  std::string marked;
  marked.reserve(text.size() + merged.size() * 2 + 8);
  size_t from = 0;
  if (!merged.empty() && best > 0) {
    // Start a little before the chosen hit, at a character boundary.
    size_t cut = static_cast<size_t>(merged[best].start);
    size_t lead = std::min<size_t>(cut, static_cast<size_t>(max_chars));
    from = cut - lead;
    while (from > 0 && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) --from;
  }
  if (from > 0) marked += "\xE2\x80\xA6";
  size_t pos = from;
  for (const Range& r : merged) {
    if (static_cast<size_t>(r.start) < from) continue;
    marked.append(text.substr(pos, static_cast<size_t>(r.start) - pos));
    marked += kHighlightOpen;
    marked.append(text.substr(static_cast<size_t>(r.start), static_cast<size_t>(r.end - r.start)));
    marked += kHighlightClose;
    pos = static_cast<size_t>(r.end);
  }
  marked.append(text.substr(pos));
  ShapedSnippet shaped = ShapeSnippet(marked, max_chars);
  return Snippet{std::move(shaped.text), !shaped.cut};
}

}  // namespace kebab::search
