// Plain queries become one FTS5 OR expression whose phrases BM25 sums: the whole question as a
// phrase (a passage with its words in order ranks first), then every word's terms, repeats
// included, and in a query of one or two words the last as a prefix too. A run of a spaced script
// is one term (the tokenizer stems it; a prefix is not stemmed, so `kube` finds `kubernetes`). A
// Hangul, Han or Kana run is indexed as overlapping character bigrams, so it contributes its
// bigrams one by one: a passage holding part of the word still matches, and one holding more of it
// ranks higher. A Korean particle or ending is left out, since only it makes the bigrams that span
// it (`회의록을` searches 회의 and 의록, not 록을).
//
// An identifier is found in any spelling by its whole, which the index holds beside its last word
// (text/identifier.h): `parseConfig` is searched as `parseconfig`, and `parse_config` as its
// words plus that whole, so passages holding the identifier rank above those with its words.
//
// Measured (bench/korean_bench.py, bench/eval_bench.py): a phrase per word on top of its
// bigrams ranked worse (it weighs long words several times over), and so did keeping
// `git-commit` as one phrase term and dropping repeated words on paragraph-length questions.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/unicode.h"
#include "search/search.h"
#include "text/analyzer.h"
#include "text/identifier.h"
#include "text/korean.h"

namespace kebab::search {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
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

// Long questions keep all their words: cutting them loses what a paragraph says last.
constexpr size_t kMaxWords = 256;
// A stem shorter than this keeps its particle: `가을` (autumn) is not `가` + `을`.
constexpr size_t kMinKoreanStem = 2;
constexpr size_t kMinPrefixChars = 3;
constexpr size_t kMaxPrefixQueryWords = 2;

std::string_view Slice(std::string_view s, size_t start, size_t end) {
  return s.substr(start, end - start);
}

// Terms for one Hangul/Han/Kana run. `after_word` says a run of another script precedes it in
// the same word (`SQLite를`), where a run that is all particle is left out.
void AddCjkRun(std::string_view word, const text::ScriptRun& run, bool after_word,
               QueryWordPlan* plan) {
  const text::KoreanRunSuffix found =
      text::FindKoreanSuffix(word, run, after_word ? 0 : kMinKoreanStem);
  const text::KoreanSuffix& suffix = found.suffix;
  const size_t stem = run.units.size() - suffix.syllables;
  if (suffix.syllables > 0) {
    const std::string_view tail = Slice(word, found.start, run.end);
    plan->notes.push_back(
        (suffix.kind == text::KoreanSuffixKind::kParticle ? "particle " : "ending ") +
        std::string(tail) + " left out");
  }
  if (stem == 0) return;
  auto unit_text = [&](size_t from, size_t to) {  // units [from, to)
    return Slice(word, run.units[from].start, run.units[to - 1].end);
  };
  if (stem == 1) {
    // The index holds the character only inside bigrams (or alone): search it as a prefix.
    plan->terms.push_back(Quote(unit_text(0, 1)) + " *");
  } else {
    for (size_t i = 0; i + 1 < stem; ++i) plan->terms.push_back(Quote(unit_text(i, i + 2)));
  }
}

// Collects the whole of each identifier, which the analyzer gives beside its last word.
class WholeIdentifiers : public text::TokenSink {
 public:
  void OnToken(std::string_view, int, int) override {}
  void OnColocated(std::string_view term, int, int) override { wholes.emplace_back(term); }
  std::vector<std::string> wholes;
};

// A run of ASCII letters and digits that changes case (`parseConfig`, `SQLite`) is searched as
// its lowercase whole, which the index holds beside the run's last word as it holds a plain
// word: the passages with the identifier in any spelling, and those with the word as one.
std::optional<std::string> CaseChangingWhole(std::string_view run) {
  for (char c : run) {
    if (static_cast<unsigned char>(c) >= 0x80) return std::nullopt;
  }
  std::vector<text::IdentifierPart> parts;
  text::SplitAtCaseChanges(run, 0, run.size(), &parts);
  if (parts.size() < 2) return std::nullopt;
  std::string whole(run);
  for (char& c : whole) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
  return whole;
}

// The terms of one whitespace-separated word; none when it has nothing the index holds. Each
// run is searched on its own, like the words of a plain BM25 query: `git-commit` is `git` OR
// `commit` (the whole-query phrase still ranks the two in order first).
// `*last_run` is the term of a spaced script's run that gave the word's last term, if one did;
// `*wholes` counts the whole identifiers added, which stand for words already counted.
QueryWordPlan PlanWord(std::string_view word, const text::Analyzer& unstemmed,
                       std::string* last_run, size_t* wholes) {
  QueryWordPlan plan;
  plan.word = std::string(word);
  last_run->clear();
  bool after_word = false;
  for (const text::ScriptRun& run : text::ScriptRuns(word)) {
    if (run.kind == text::RunKind::kCjk) {
      const size_t before = plan.terms.size();
      AddCjkRun(word, run, after_word, &plan);
      if (plan.terms.size() > before) last_run->clear();
    } else {
      *last_run = Slice(word, run.start, run.end);
      if (std::optional<std::string> whole = CaseChangingWhole(*last_run)) {
        plan.notes.push_back("identifier searched whole (" + *whole + ")");
        *last_run = std::move(*whole);
      }
      plan.terms.push_back(Quote(*last_run));
    }
    after_word = run.kind == text::RunKind::kWord;
  }
  // Words joined by underscores are runs of their own above; their whole, indexed beside the
  // last of them, ranks the passages holding the identifier itself first.
  WholeIdentifiers identifiers;
  unstemmed.Tokenize(word, identifiers);
  for (const std::string& whole : identifiers.wholes) {
    const std::string term = Quote(whole);
    if (std::find(plan.terms.begin(), plan.terms.end(), term) != plan.terms.end()) continue;
    plan.terms.push_back(term);
    ++*wholes;
    plan.notes.push_back("identifier also searched whole (" + whole + ")");
  }
  return plan;
}

}  // namespace

Result<MatchPlan> PlanMatch(std::string_view query) {
  size_t b = 0, e = query.size();
  while (b < e && IsSpace(query[b])) ++b;
  while (e > b && IsSpace(query[e - 1])) --e;
  std::string_view q = query.substr(b, e - b);
  if (q.empty()) return InvalidInput("empty search query", "give some words to search for");
  MatchPlan plan;
  if (q.size() >= 2 && q.front() == '\'' && q.back() == '\'') {
    std::string_view raw = q.substr(1, q.size() - 2);
    if (raw.find_first_not_of(" \t\n\r") == std::string_view::npos) {
      return InvalidInput("empty FTS5 expression between quotes");
    }
    plan.raw = true;
    plan.expression = std::string(raw);
    return plan;
  }
  // A repeated word counts again, as in a plain BM25 query: what a long question repeats is
  // what it is about.
  size_t term_count = 0;
  std::string last_run;
  const text::Analyzer unstemmed({.stemmer = "none"});
  for (size_t i = 0; i < q.size();) {
    while (i < q.size() && IsSpace(q[i])) ++i;
    size_t j = i;
    while (j < q.size() && !IsSpace(q[j])) ++j;
    const std::string_view w = q.substr(i, j - i);
    i = j;
    if (w.empty()) continue;
    if (plan.words.size() == kMaxWords) {
      ++plan.words_left_out;
      continue;
    }
    std::string run;
    size_t wholes = 0;
    QueryWordPlan word = PlanWord(w, unstemmed, &run, &wholes);
    if (word.terms.empty() && word.notes.empty()) continue;
    last_run = std::move(run);
    term_count += word.terms.size() - wholes;
    plan.words.push_back(std::move(word));
  }
  if (term_count == 0) {
    return InvalidInput("the query has no searchable words", "use letters or digits");
  }
  if (term_count > 1) {
    std::string phrase;
    for (const QueryWordPlan& w : plan.words) {
      if (!phrase.empty()) phrase += ' ';
      phrase += w.word;
    }
    plan.phrase = Quote(phrase);
    plan.expression = plan.phrase;
    plan.phrase_words.push_back(-1);
  }
  // In a short query the last word may still be being typed (`kube`): it also matches as a
  // prefix. Not in questions: there it counts the last word twice (Cranfield without stemming
  // fell from 0.344 to 0.331 nDCG@10). Shorter prefixes match too much of the vocabulary.
  if (plan.words.size() <= kMaxPrefixQueryWords && Utf8Length(last_run) >= kMinPrefixChars) {
    plan.words.back().terms.push_back(Quote(last_run) + " *");
    plan.words.back().notes.push_back("last word also as a prefix");
  }
  for (size_t i = 0; i < plan.words.size(); ++i) {
    for (const std::string& t : plan.words[i].terms) {
      if (!plan.expression.empty()) plan.expression += " OR ";
      plan.expression += t;
      plan.phrase_words.push_back(static_cast<int>(i));
    }
  }
  return plan;
}

}  // namespace kebab::search
