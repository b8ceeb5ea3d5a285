#include "rag/internal/content_words.h"

#include <utf8proc.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "text/korean.h"

namespace kebab::rag::internal {
namespace {

// Function words, filler ("everything", "called"), and what answers say about their sources
// rather than about the subject ("according to the evidence"). Matched against the written
// word, lower-cased.
constexpr std::string_view kEnglishStopwords[] = {
    "a",      "about",      "according", "after",    "all",       "also",      "am",
    "an",     "and",        "any",       "are",      "as",        "at",        "based",
    "be",     "because",    "been",      "before",   "being",     "both",      "but",
    "by",     "can",        "context",   "could",    "did",       "do",        "does",
    "doing",  "each",       "either",    "evidence", "for",       "from",      "had",
    "has",    "have",       "having",    "he",       "her",       "here",      "his",
    "how",    "i",          "if",        "in",       "into",      "is",        "it",
    "its",    "just",       "may",       "me",       "mentioned", "mentions",  "might",
    "more",   "most",       "must",      "my",       "no",        "not",       "of",
    "on",     "one",        "only",      "or",       "other",     "our",       "provided",
    "said",   "says",       "shall",     "she",      "should",    "so",        "some",
    "source", "sources",    "stated",    "states",   "such",      "than",      "that",
    "the",    "their",      "them",      "then",     "there",     "these",     "they",
    "this",   "those",      "through",   "to",       "under",     "us",        "very",
    "was",    "we",         "were",      "what",     "when",      "where",     "which",
    "while",  "who",        "whom",      "whose",    "why",       "will",      "with",
    "within", "without",    "would",     "yes",      "you",       "your",      "anything",
    "called", "everything", "however",   "named",    "nothing",   "something", "therefore",
    "thus"};

// Korean particles, endings and connectives as the analyzer emits them: bigrams inside
// longer Hangul runs ("저장합니다" → 저장 장합 합니 니다) and lone syllables. Without these,
// a chunk in plain style (했다) would fail an answer in polite style (했습니다) on endings
// alone, and "근거에 따르면" would count as unsupported content.
constexpr std::string_view kKoreanStopterms[] = {
    "것",   "수",   "등",   "및",   "더",   "또",   "이",   "그",   "저",   "때",   "중",
    "의",   "를",   "을",   "은",   "는",   "가",   "에",   "와",   "과",   "도",   "만",
    "로",   "으",   "한",   "된",   "할",   "될",   "니다", "습니", "입니", "합니", "됩니",
    "있습", "없습", "했습", "었습", "였습", "겠습", "이다", "한다", "된다", "있다", "없다",
    "하다", "했다", "었다", "였다", "에서", "으로", "에는", "에게", "까지", "부터", "하고",
    "하는", "되는", "있는", "없는", "것은", "것이", "것을", "그리", "리고", "또는", "하지",
    "지만", "또한", "따라", "라서", "때문", "문에", "근거", "거에", "따르", "르면", "대해",
    "해서", "하여", "이며", "있으", "으며", "이고", "되어", "어있"};

bool IsCjk(std::string_view term) {
  utf8proc_int32_t cp = 0;
  if (utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(term.data()),
                       static_cast<utf8proc_ssize_t>(term.size()), &cp) <= 0) {
    return false;
  }
  return (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x3040 && cp <= 0x30FF) ||
         (cp >= 0x3130 && cp <= 0x318F) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || cp >= 0x20000;
}

// Capitalized in English whatever their role, and a date's words: "April 27, 2026" is checked
// as the numbers 2026, 4 and 27.
constexpr std::string_view kCapitalizedWords[] = {
    "january",   "february",  "march",   "april",    "may",      "june",   "july",
    "august",    "september", "october", "november", "december", "monday", "tuesday",
    "wednesday", "thursday",  "friday",  "saturday", "sunday",   "i"};

bool IsAsciiUpper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool IsAsciiDigit(char c) {
  return c >= '0' && c <= '9';
}

bool AllDigits(std::string_view term) {
  return std::all_of(term.begin(), term.end(), [](char c) { return c >= '0' && c <= '9'; });
}

template <size_t N>
bool Contains(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

std::string AsciiLower(std::string_view written) {
  std::string lower(written);
  for (char& c : lower) {
    if (IsAsciiUpper(c)) c = static_cast<char>(c + ('a' - 'A'));
  }
  return lower;
}

bool IsEnglishStopword(std::string_view written) {
  if (written.size() > 9) return false;  // longer than any stopword
  return Contains(kEnglishStopwords, AsciiLower(written));
}

// Whether a written word is a name (ClaimWords::names); `first` is the claim's first word,
// capitalized because it starts the sentence.
bool IsName(std::string_view written, bool first) {
  if (written.size() < 2) return false;
  const bool letters = std::any_of(written.begin(), written.end(), [](char c) {
    return IsAsciiUpper(c) || (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80;
  });
  const bool digits = std::any_of(written.begin(), written.end(), IsAsciiDigit);
  const bool inner_capital = std::any_of(written.begin() + 1, written.end(), IsAsciiUpper);
  if (!IsAsciiUpper(written[0]) && !(letters && digits)) return false;
  if (Contains(kCapitalizedWords, AsciiLower(written))) return false;
  return inner_capital || (letters && digits) || !first;
}

// Byte ranges of `text` that are Korean particles or endings (`을` of `회의록을`, `하였습니다`
// of `작성하였습니다`), as a query strips them: a claim in polite style over a chunk in plain
// style differs there, not in what it says.
std::vector<std::pair<size_t, size_t>> KoreanSuffixes(std::string_view text) {
  constexpr size_t kMinStem = 2;  // as the query side: `가을` is not `가` + `을`
  std::vector<std::pair<size_t, size_t>> out;
  for (const text::ScriptRun& run : text::ScriptRuns(text)) {
    const text::KoreanRunSuffix found = text::FindKoreanSuffix(text, run, kMinStem);
    if (found.suffix.syllables > 0) out.emplace_back(found.start, run.end);
  }
  return out;
}

class ClaimSink : public text::TokenSink {
 public:
  ClaimSink(std::string_view text, ClaimWords& out)
      : text_(text), out_(out), suffixes_(KoreanSuffixes(text)) {}

  void OnToken(std::string_view term, int start, int end) override {
    // The claim's first word is capitalized for the sentence, not for being a name.
    const bool first = !seen_word_;
    seen_word_ = true;
    if (AllDigits(term)) return;
    const bool cjk = IsCjk(term);
    if (cjk && InSuffix(static_cast<size_t>(start), static_cast<size_t>(end))) return;
    const std::string_view written =
        text_.substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
    if (cjk ? Contains(kKoreanStopterms, term) : IsEnglishStopword(written)) return;
    std::vector<std::string>& list = cjk ? out_.cjk : out_.other;
    if (std::find(list.begin(), list.end(), term) == list.end()) list.emplace_back(term);
    if (!cjk && IsName(written, first) &&
        std::none_of(out_.names.begin(), out_.names.end(),
                     [&](const auto& name) { return name.first == term; })) {
      out_.names.emplace_back(term, written);
    }
  }

 private:
  // A bigram that reaches into a particle or ending is made by it.
  bool InSuffix(size_t start, size_t end) const {
    for (const auto& [begin, stop] : suffixes_) {
      if (end > begin && start < stop) return true;
    }
    return false;
  }

  std::string_view text_;
  ClaimWords& out_;
  std::vector<std::pair<size_t, size_t>> suffixes_;
  bool seen_word_ = false;
};

class EvidenceSink : public text::TokenSink {
 public:
  explicit EvidenceSink(EvidenceWords& out) : out_(out) {}

  void OnToken(std::string_view term, int, int) override {
    out_.terms.emplace(term);
    // Digits belong to no script: a Korean chunk full of dates is still Korean.
    if (!AllDigits(term)) ++(IsCjk(term) ? out_.cjk_tokens : out_.other_tokens);
  }

 private:
  EvidenceWords& out_;
};

}  // namespace

ClaimWords ContentWords(const text::Analyzer& analyzer, std::string_view claim) {
  ClaimWords words;
  ClaimSink sink(claim, words);
  analyzer.Tokenize(claim, sink);
  return words;
}

EvidenceWords AnalyzeEvidence(const text::Analyzer& analyzer, std::string_view evidence) {
  EvidenceWords words;
  EvidenceSink sink(words);
  analyzer.Tokenize(evidence, sink);
  return words;
}

}  // namespace kebab::rag::internal
