// The words a claim's overlap with its evidence is measured in: the project's lexical
// analyzer terms (case-folded, stemmed, Hangul/Han/Kana as overlapping bigrams), minus
// function words and bare numbers (numbers are checked on their own).
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "text/analyzer.h"

namespace kebab::rag::internal {

// Distinct content terms of a claim, by script: a translation cannot overlap its source
// lexically, so each script is compared only against evidence written in it.
struct ClaimWords {
  std::vector<std::string> cjk;    // Hangul, Han and Kana bigrams (or lone characters)
  std::vector<std::string> other;  // every other word
  // Names among `other`, which a paraphrase keeps as they are: words with a capital after
  // their first letter or a digit beside letters ("SQLite", "WAL", "K4"), and capitalized words
  // past the claim's first word ("built by Norberg Works"). Month and weekday names are
  // left out: dates are checked as numbers, whatever their spelling. Each entry is
  // {term, written}.
  std::vector<std::pair<std::string, std::string>> names;
};

// Dropped: English stopwords and answer boilerplate ("according", "source"), common Korean
// particles and endings (as the bigrams or lone syllables the analyzer makes of them:
// "니다", "에서", "것"), and terms made only of digits.
ClaimWords ContentWords(const text::Analyzer& analyzer, std::string_view claim);

// Every term of a piece of evidence, and how many of its tokens (bare numbers aside) are in
// each script.
struct EvidenceWords {
  std::unordered_set<std::string> terms;
  size_t cjk_tokens = 0;
  size_t other_tokens = 0;
};

EvidenceWords AnalyzeEvidence(const text::Analyzer& analyzer, std::string_view evidence);

}  // namespace kebab::rag::internal
