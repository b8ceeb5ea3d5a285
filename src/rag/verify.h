// Citation check ("post-verification") of a model's answer: every sentence that cites [n] is
// checked against chunk n. A claim is supported when
//  - every number it states appears among the cited chunks' numbers ("1,234" = "1234",
//    "2026-04-27" = "2026년 4월 27일" = "April 27, 2026": a date is the numbers it is made of),
//  - every name it uses ("SQLite", "WAL", "Norberg Works" past the first word) is a word of one
//    of the cited chunks: a paraphrase rewords, it does not rename, and
//  - every quoted span ("…", “…”, 「…」, 『…』, '…', `code`) appears in one cited chunk
//    after folding (NFKC, case, whitespace, typographic quotes and dashes; a "…" inside a
//    quote marks an elision, and each piece must appear), and
//  - at least `min_overlap` of its content words occur in the cited chunks. Words are the
//    search analyzer's terms (stemmed; Hangul, Han and Kana as bigrams) minus function words;
//    only words in a script the chunks are written in count (a Korean sentence citing an
//    English chunk is judged by its numbers and quotes), and a claim with fewer than
//    `min_overlap_words` of them is judged by numbers and quotes alone.
// When an embedding model is at hand and rag.verify_semantic_threshold is set, a claim whose
// only failed check is the word overlap may still pass on meaning: its similarity to the
// closest window (one sentence, or two in a row) of a cited chunk must reach the threshold.
// Numbers, names, quotes, code and negation are never waived that way.
// A claim with no marker is "uncited": reported, not a failure. What an unsupported claim
// does to the answer (a warning or a refusal, rag.verify) is the caller's decision.
//
// Stateless; safe from any thread. Never throws on any input, invalid UTF-8 included (unless
// the chunk_text or embed callback does).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::rag {

// What a failed check does to the answer (rag.verify): kAuto (the default) refuses an answer
// none of whose cited claims holds and flags the failures of a partly supported one; kWarn
// only flags; kRefuse refuses on any failure; kOff skips the check.
enum class VerifyMode { kAuto, kWarn, kRefuse, kOff };

// "auto" | "warn" | "refuse" | "off".
std::string_view VerifyModeName(VerifyMode mode);
// The mode named `name`, or nullopt for any other text.
std::optional<VerifyMode> ParseVerifyMode(std::string_view name);

struct VerifyOptions {
  // Share of a claim's content words that must occur in its cited chunks (rag.verify_min_overlap).
  double min_overlap = 0.5;
  // Claims with fewer content words are judged by numbers and quotes alone: "Yes [1]." or
  // "It is 42 [2]." has too few words for a share to mean anything.
  int min_overlap_words = 3;
  // Snowball algorithm the words are stemmed with on both sides (search.stemmer), so
  // "stores" in a claim matches "stored" in a chunk.
  std::string stemmer = "english";
  // The semantic fallback: one vector per text, in order (compared by cosine, so any length).
  // It is called at most once per cited chunk and once per claim that needs it. Unset, or a
  // threshold of 0, turns the fallback off.
  std::function<Result<std::vector<std::vector<float>>>(const std::vector<std::string>&)> embed;
  double semantic_threshold = 0;
};

enum class ClaimStatus {
  kSupported,    // cites a known chunk and passes every check
  kUnsupported,  // cites, but some check failed or no cited chunk is known
  kUncited,      // cites nothing
};

// "supported" | "unsupported" | "uncited".
std::string_view ClaimStatusName(ClaimStatus status);

struct ClaimCheck {
  std::string text;        // the claim, markers removed, whitespace collapsed, valid UTF-8
  size_t begin = 0;        // the claim as written: a byte range of the answer
  size_t end = 0;          // (markers on the same line included)
  std::vector<int> cited;  // marker numbers, distinct, in order of first appearance
  ClaimStatus status = ClaimStatus::kUncited;
  // matched_words / content_words; unset when content_words < min_overlap_words or the
  // claim cites no known chunk. content_words counts only words in the chunks' scripts.
  std::optional<double> overlap;
  int content_words = 0;
  int matched_words = 0;
  // The claim's cosine similarity to its closest window of the cited chunks, set when the
  // semantic fallback judged it (it passed when semantic >= the threshold).
  std::optional<double> semantic;
  std::vector<std::string> missing_numbers;  // as written in the claim ("1,234", "2026-04-27")
  std::vector<std::string> missing_quotes;   // the quoted text, whitespace collapsed
  std::vector<std::string> missing_names;    // as written in the claim ("Halden")
  // One human-readable line per failed check, e.g. `number "42" not in [2]`,
  // `quote "fast and safe" not in [1]`, `only 2/7 words found in [1]`,
  // `cites no known chunk: [9]`. Empty unless kUnsupported.
  std::vector<std::string> reasons;
};

struct Verification {
  std::vector<ClaimCheck> claims;  // in answer order
  int cited_claims = 0;
  int unsupported_claims = 0;
  int uncited_claims = 0;
  // Why the semantic fallback could not run (the embedder's error), when it was needed and
  // failed: the claims it would have judged keep their lexical verdict.
  std::optional<std::string> semantic_error;

  bool all_supported() const { return unsupported_claims == 0; }
  int verified_claims() const { return cited_claims - unsupported_claims; }
};

// The text of chunk `number` as it was in the prompt, or nullopt when no chunk has that number.
// The views it returns must stay valid until VerifyAnswer returns.
using ChunkTextFn = std::function<std::optional<std::string_view>(int number)>;

// Checks every claim of `answer` against the chunks it cites. Each distinct chunk is read
// and analyzed once per call. Numbers outside the known chunks count as cited (a claim citing
// [2][9] is checked against chunk 2 alone; one citing only [9] is unsupported); the caller
// removes them from the displayed answer with RewriteMarkers.
Verification VerifyAnswer(std::string_view answer, const ChunkTextFn& chunk_text,
                          const VerifyOptions& options = {});

}  // namespace kebab::rag
