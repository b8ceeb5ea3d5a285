#include "rag/verify.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <span>
#include <unordered_set>

#include "core/unicode.h"
#include "rag/internal/claims.h"
#include "rag/internal/code_spans.h"
#include "rag/internal/content_words.h"
#include "rag/internal/negation.h"
#include "rag/internal/numbers.h"
#include "rag/internal/quotes.h"
#include "rag/markers.h"
#include "text/analyzer.h"

namespace kebab::rag {
namespace {

using internal::Claim;
using internal::CodeSpan;
using internal::QuoteSpan;

// A script's words are compared only when at least this share of the evidence's tokens is in
// that script: the Latin product names in a Korean chunk do not make an English paraphrase of
// it checkable word by word.
constexpr double kMinScriptShare = 0.25;
// Quotes in reasons are cut to this many bytes (at a character boundary).
constexpr size_t kMaxQuoteInReason = 80;

// What one chunk offers as evidence, computed once per chunk per call.
// One sentence of a chunk: its terms, and whether it says "not".
struct EvidenceSentence {
  std::string_view text;
  std::unordered_set<std::string> terms;
  bool negated = false;
};

struct Evidence {
  std::string folded;  // internal::FoldForMatch of the text, for quotes
  std::unordered_set<std::string> numbers;
  internal::EvidenceWords words;
  std::vector<EvidenceSentence> sentences;
  // The semantic fallback's windows (each sentence, and each two in a row), embedded on first
  // need: a cache filled while the evidence is otherwise read-only.
  mutable std::optional<std::vector<std::vector<float>>> window_vectors;
};

// Windows past this many sentences of a chunk are not embedded: the fallback's cost stays
// bounded on a chunk that is one long list.
constexpr size_t kMaxSemanticSentences = 64;

double Cosine(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size() || a.empty()) return 0;
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += static_cast<double>(a[i]) * b[i];
    na += static_cast<double>(a[i]) * a[i];
    nb += static_cast<double>(b[i]) * b[i];
  }
  return na == 0 || nb == 0 ? 0 : dot / std::sqrt(na * nb);
}

// The spans among sorted, disjoint `spans` that overlap [begin, end). Binary search keeps a
// long answer's many claims from rescanning every span.
template <typename Span>
std::span<const Span> Overlapping(const std::vector<Span>& spans, size_t begin, size_t end) {
  auto first = std::partition_point(spans.begin(), spans.end(),
                                    [&](const Span& s) { return s.end <= begin; });
  auto last =
      std::partition_point(first, spans.end(), [&](const Span& s) { return s.begin < end; });
  return {first, last};
}

// One claim with its share of the answer's code, quotes and markers.
struct ClaimParts {
  const Claim& claim;
  std::span<const CodeSpan> code;
  std::span<const QuoteSpan> quotes;
  std::span<const MarkerGroup> markers;
  std::string body;  // the claim's bytes with its markers blanked out

  // Replaces `span`'s bytes in `text` (a copy of the claim) with spaces.
  template <typename Span>
  void Blank(std::string& text, const Span& span) const {
    const size_t b = std::max(span.begin, claim.begin) - claim.begin;
    const size_t e = std::min(span.end, claim.end) - claim.begin;
    text.replace(b, e - b, e - b, ' ');
  }
};

std::string MarkerList(const std::vector<int>& numbers) {
  std::string out;
  for (int n : numbers) out += "[" + std::to_string(n) + "]";
  return out;
}

bool Contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// Drops the blanks and punctuation a quote's edges may carry that its source need not:
// "It works." quotes "It works" mid-sentence.
std::string_view TrimPiece(std::string_view piece) {
  constexpr std::string_view kEdge = " .,;:!?()[]\"'";
  const size_t b = piece.find_first_not_of(kEdge);
  if (b == std::string_view::npos) return {};
  return piece.substr(b, piece.find_last_not_of(kEdge) - b + 1);
}

// Whether every piece of a quote (an elision "…" separates pieces) is in one cited chunk.
bool QuoteFound(std::string_view written, const std::vector<const Evidence*>& known) {
  const std::string folded = internal::FoldForMatch(written);  // "…" folds to "..."
  size_t start = 0;
  while (start <= folded.size()) {
    size_t cut = folded.find("...", start);
    if (cut == std::string::npos) cut = folded.size();
    const std::string_view piece = TrimPiece(std::string_view(folded).substr(start, cut - start));
    start = cut + 3;
    if (piece.empty()) continue;
    if (std::none_of(known.begin(), known.end(), [&](const Evidence* e) {
          return e->folded.find(piece) != std::string::npos;
        })) {
      return false;
    }
  }
  return true;
}

class Verifier {
 public:
  Verifier(std::string_view answer, const ChunkTextFn& chunk_text, const VerifyOptions& options)
      : answer_(answer),
        chunk_text_(chunk_text),
        options_(options),
        // A claim's names are whole words as written: `PostgreSQL` must be in the cited
        // chunk, not `Postgre` and `SQL` apart.
        analyzer_(text::AnalyzerOptions{.stemmer = options.stemmer, .identifier_words = false}) {}

  Verification Run() {
    code_ = internal::FindCodeSpans(answer_);
    quotes_ = internal::FindQuotes(answer_, code_);
    markers_ = FindMarkers(answer_);
    for (const Claim& claim : internal::SplitClaims(answer_, code_, quotes_, markers_)) {
      ClaimCheck check = Check(claim);
      out_.cited_claims += check.status != ClaimStatus::kUncited;
      out_.unsupported_claims += check.status == ClaimStatus::kUnsupported;
      out_.uncited_claims += check.status == ClaimStatus::kUncited;
      out_.claims.push_back(std::move(check));
    }
    return std::move(out_);
  }

 private:
  // The chunk's evidence, or null when no chunk has `number`.
  const Evidence* EvidenceFor(int number) {
    auto it = evidence_.find(number);
    if (it == evidence_.end()) {
      std::optional<Evidence> evidence;
      if (std::optional<std::string_view> text = chunk_text_(number)) {
        evidence =
            Evidence{internal::FoldForMatch(*text), internal::EvidenceNumbers(*text), {}, {}};
        // Sentences are cut at whitespace, which no token spans: the chunk's words are the
        // union of its sentences', so the chunk is tokenized once.
        for (std::string_view sentence : internal::Sentences(*text)) {
          internal::EvidenceWords words = internal::AnalyzeEvidence(analyzer_, sentence);
          evidence->words.terms.insert(words.terms.begin(), words.terms.end());
          evidence->words.cjk_tokens += words.cjk_tokens;
          evidence->words.other_tokens += words.other_tokens;
          evidence->sentences.push_back(
              {sentence, std::move(words.terms), internal::IsNegated(sentence)});
        }
      }
      it = evidence_.emplace(number, std::move(evidence)).first;
    }
    return it->second ? &*it->second : nullptr;
  }

  ClaimCheck Check(const Claim& claim) {
    ClaimParts parts{claim, Overlapping(code_, claim.begin, claim.end),
                     Overlapping(quotes_, claim.begin, claim.end),
                     Overlapping(markers_, claim.begin, claim.end),
                     std::string(answer_.substr(claim.begin, claim.end - claim.begin))};
    for (const MarkerGroup& group : parts.markers) parts.Blank(parts.body, group);

    ClaimCheck check;
    check.begin = claim.begin;
    check.end = claim.end;
    check.cited = claim.cited;
    check.text = DisplayText(parts);
    if (claim.cited.empty()) return check;

    std::vector<const Evidence*> known;
    std::vector<int> known_numbers;
    for (int n : claim.cited) {
      if (const Evidence* evidence = EvidenceFor(n)) {
        known.push_back(evidence);
        known_numbers.push_back(n);
      }
    }
    if (known.empty()) {
      check.status = ClaimStatus::kUnsupported;
      check.reasons.push_back("cites no known chunk: " + MarkerList(claim.cited));
      return check;
    }
    const std::string where = MarkerList(known_numbers);
    CheckNumbers(parts, known, where, check);
    CheckQuotes(parts, known, where, check);
    const internal::ClaimWords words = internal::ContentWords(analyzer_, parts.body);
    CheckNames(words, known, where, check);
    const bool overlap_failed = CheckOverlap(words, known, where, check);
    CheckNegation(parts, words, known, where, check);
    if (overlap_failed && check.reasons.size() == 1) CheckMeaning(known, where, check);
    check.status = check.reasons.empty() ? ClaimStatus::kSupported : ClaimStatus::kUnsupported;
    return check;
  }

  static void CheckNumbers(const ClaimParts& parts, const std::vector<const Evidence*>& known,
                           const std::string& where, ClaimCheck& check) {
    // Numbers inside quotes and code are the quote check's business.
    std::string prose = parts.body;
    for (const QuoteSpan& quote : parts.quotes) parts.Blank(prose, quote);
    for (const CodeSpan& code : parts.code) parts.Blank(prose, code);
    for (const internal::NumberToken& number : internal::FindNumbers(prose)) {
      const bool found =
          std::all_of(number.values.begin(), number.values.end(), [&](const std::string& value) {
            return std::any_of(known.begin(), known.end(),
                               [&](const Evidence* e) { return e->numbers.count(value) > 0; });
          });
      const std::string written =
          SanitizeUtf8(std::string_view(prose).substr(number.begin, number.end - number.begin));
      if (found || Contains(check.missing_numbers, written)) continue;
      check.reasons.push_back("number \"" + written + "\" not in " + where);
      check.missing_numbers.push_back(written);
    }
  }

  static void CheckQuotes(const ClaimParts& parts, const std::vector<const Evidence*>& known,
                          const std::string& where, ClaimCheck& check) {
    auto check_one = [&](size_t begin, size_t end, std::string_view kind) {
      const size_t b = std::max(begin, parts.claim.begin) - parts.claim.begin;
      const size_t e = std::min(end, parts.claim.end) - parts.claim.begin;
      const std::string_view written = std::string_view(parts.body).substr(b, e - b);
      if (QuoteFound(written, known)) return;
      std::string shown = FoldWhitespace(written);
      if (Contains(check.missing_quotes, shown)) return;
      check.missing_quotes.push_back(shown);
      if (shown.size() > kMaxQuoteInReason) {
        shown = shown.substr(0, Utf8SafePrefix(shown, kMaxQuoteInReason)) + "\xE2\x80\xA6";
      }
      check.reasons.push_back(std::string(kind) + " \"" + shown + "\" not in " + where);
    };
    for (const QuoteSpan& quote : parts.quotes) {
      check_one(quote.content_begin, quote.content_end, "quote");
    }
    for (const CodeSpan& code : parts.code) {
      if (!code.fenced) check_one(code.content_begin, code.content_end, "code");
    }
  }

  static void CheckNames(const internal::ClaimWords& words,
                         const std::vector<const Evidence*>& known, const std::string& where,
                         ClaimCheck& check) {
    for (const auto& [term, written] : words.names) {
      if (std::any_of(known.begin(), known.end(), [&, &term = term](const Evidence* e) {
            return e->words.terms.count(term) > 0;
          })) {
        continue;
      }
      const std::string shown = SanitizeUtf8(written);
      check.reasons.push_back("name \"" + shown + "\" not in " + where);
      check.missing_names.push_back(shown);
    }
  }

  // Whether the overlap check failed (a reason was added).
  bool CheckOverlap(const internal::ClaimWords& words, const std::vector<const Evidence*>& known,
                    const std::string& where, ClaimCheck& check) {
    size_t cjk_tokens = 0, other_tokens = 0;
    for (const Evidence* e : known) {
      cjk_tokens += e->words.cjk_tokens;
      other_tokens += e->words.other_tokens;
    }
    const double total_tokens = static_cast<double>(cjk_tokens + other_tokens);
    int content = 0, matched = 0;
    auto count = [&](const std::vector<std::string>& terms, size_t script_tokens) {
      if (total_tokens == 0 || script_tokens / total_tokens < kMinScriptShare) return;
      for (const std::string& term : terms) {
        ++content;
        matched += std::any_of(known.begin(), known.end(),
                               [&](const Evidence* e) { return e->words.terms.count(term) > 0; });
      }
    };
    count(words.cjk, cjk_tokens);
    count(words.other, other_tokens);
    check.content_words = content;
    check.matched_words = matched;
    if (content < options_.min_overlap_words) return false;
    check.overlap = static_cast<double>(matched) / content;
    if (*check.overlap >= options_.min_overlap) return false;
    check.reasons.push_back("only " + std::to_string(matched) + "/" + std::to_string(content) +
                            " words found in " + where);
    return true;
  }

  // The semantic fallback for a claim that failed on word overlap alone: its similarity to
  // the closest window of the cited chunks decides.
  void CheckMeaning(const std::vector<const Evidence*>& known, const std::string& where,
                    ClaimCheck& check) {
    if (!options_.embed || options_.semantic_threshold <= 0 || out_.semantic_error) return;
    Result<std::vector<std::vector<float>>> claim = options_.embed({check.text});
    if (!claim.ok() || claim->size() != 1) {
      out_.semantic_error =
          claim.ok() ? "the embedder returned no vector for a claim" : claim.status().message();
      return;
    }
    double best = -1;
    for (const Evidence* e : known) {
      if (!WindowVectors(*e)) return;
      for (const std::vector<float>& window : *e->window_vectors) {
        best = std::max(best, Cosine(claim->front(), window));
      }
    }
    if (best < -0.5) return;  // no window at all
    check.semantic = best;
    if (best >= options_.semantic_threshold) {
      check.reasons.clear();
      return;
    }
    char line[96];
    std::snprintf(line, sizeof line, "closest sentence of %s is %.2f alike, below %.2f",
                  where.c_str(), best, options_.semantic_threshold);
    check.reasons.push_back(line);
  }

  // Embeds `e`'s windows on first need; false (and semantic_error set) when that failed.
  bool WindowVectors(const Evidence& e) {
    if (e.window_vectors) return true;
    std::vector<std::string> windows;
    const size_t n = std::min(e.sentences.size(), kMaxSemanticSentences);
    for (size_t i = 0; i < n; ++i) {
      windows.emplace_back(e.sentences[i].text);
      if (i + 1 < n) {
        windows.push_back(std::string(e.sentences[i].text) + " " +
                          std::string(e.sentences[i + 1].text));
      }
    }
    if (windows.empty()) {
      e.window_vectors.emplace();
      return true;
    }
    Result<std::vector<std::vector<float>>> vectors = options_.embed(windows);
    if (!vectors.ok() || vectors->size() != windows.size()) {
      out_.semantic_error =
          vectors.ok() ? "the embedder returned too few vectors" : vectors.status().message();
      return false;
    }
    e.window_vectors = std::move(*vectors);
    return true;
  }

  // A claim that says "not" where the source sentence it restates does not, or the other way
  // round: that sentence is the one of the cited chunks sharing most of the claim's words.
  static void CheckNegation(const ClaimParts& parts, const internal::ClaimWords& words,
                            const std::vector<const Evidence*>& known, const std::string& where,
                            ClaimCheck& check) {
    const EvidenceSentence* best = nullptr;
    size_t best_shared = 0;
    for (const Evidence* e : known) {
      for (const EvidenceSentence& sentence : e->sentences) {
        size_t shared = 0;
        for (const auto* list : {&words.cjk, &words.other}) {
          for (const std::string& term : *list) shared += sentence.terms.count(term);
        }
        if (shared > best_shared) {
          best = &sentence;
          best_shared = shared;
        }
      }
    }
    if (best == nullptr) return;
    const bool negated = internal::IsNegated(parts.body);
    if (negated && !best->negated) {
      check.reasons.push_back("says \"not\" where " + where + " does not");
    } else if (!negated && best->negated) {
      check.reasons.push_back(where + " says \"not\" where the claim does not");
    }
  }

  // The claim without its markers (nor the blanks before them), whitespace collapsed.
  std::string DisplayText(const ClaimParts& parts) const {
    std::string raw;
    size_t pos = parts.claim.begin;
    for (const MarkerGroup& group : parts.markers) {
      raw.append(answer_.substr(pos, group.begin - pos));
      while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t')) raw.pop_back();
      pos = group.end;
    }
    raw.append(answer_.substr(pos, parts.claim.end - pos));
    return FoldWhitespace(raw);
  }

  // `s` as valid UTF-8 with whitespace runs as one space, trimmed.
  static std::string FoldWhitespace(std::string_view s) {
    std::string out;
    bool space = false;
    for (char c : SanitizeUtf8(s)) {
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        space = !out.empty();
        continue;
      }
      if (space) out += ' ';
      space = false;
      out += c;
    }
    return out;
  }

  std::string_view answer_;
  const ChunkTextFn& chunk_text_;
  const VerifyOptions& options_;
  text::Analyzer analyzer_;
  std::vector<CodeSpan> code_;
  std::vector<QuoteSpan> quotes_;
  std::vector<MarkerGroup> markers_;
  std::map<int, std::optional<Evidence>> evidence_;
  Verification out_;
};

}  // namespace

std::string_view VerifyModeName(VerifyMode mode) {
  switch (mode) {
    case VerifyMode::kAuto:
      return "auto";
    case VerifyMode::kWarn:
      return "warn";
    case VerifyMode::kRefuse:
      return "refuse";
    case VerifyMode::kOff:
      return "off";
  }
  return "auto";
}

std::optional<VerifyMode> ParseVerifyMode(std::string_view name) {
  for (VerifyMode mode :
       {VerifyMode::kAuto, VerifyMode::kWarn, VerifyMode::kRefuse, VerifyMode::kOff}) {
    if (VerifyModeName(mode) == name) return mode;
  }
  return std::nullopt;
}

std::string_view ClaimStatusName(ClaimStatus status) {
  switch (status) {
    case ClaimStatus::kSupported:
      return "supported";
    case ClaimStatus::kUnsupported:
      return "unsupported";
    case ClaimStatus::kUncited:
      return "uncited";
  }
  return "uncited";
}

Verification VerifyAnswer(std::string_view answer, const ChunkTextFn& chunk_text,
                          const VerifyOptions& options) {
  return Verifier(answer, chunk_text, options).Run();
}

}  // namespace kebab::rag
