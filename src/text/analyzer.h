// The lexical analyzer shared by indexing (FTS5 tokenizer) and querying: Unicode word
// segmentation, case folding, diacritic removal, Hangul/Han/Kana runs as overlapping
// character bigrams, identifiers as their words plus the whole (identifier.h), and optional
// Snowball stemming of Latin-script words.
//
// An Analyzer is cheap to construct but NOT thread-safe (the Snowball stemmer and the
// scratch buffers it reuses keep state); use one per thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kebab::text {

struct AnalyzerOptions {
  // Snowball algorithm name ("english", "german", ...), or "" / "none" for no stemming.
  std::string stemmer = "english";
  // Index an identifier's words apart, and the whole beside the last (identifier.h). Off, an
  // identifier is one term (`parseConfig`), or its parts when underscores join them, as
  // checks comparing the words of two texts want it.
  bool identifier_words = true;
};

// Receives each token: the normalized term and the byte range [start, end) of the source
// text it came from (used for snippet highlighting). `term` is only valid during the call.
// CJK bigrams overlap, so ranges of consecutive tokens may overlap too.
class TokenSink {
 public:
  virtual ~TokenSink() = default;
  virtual void OnToken(std::string_view term, int start, int end) = 0;
  // A term at the position of the token before it: a whole identifier beside its last word
  // (identifier.h). Sinks that do not count positions take it as one more token.
  virtual void OnColocated(std::string_view term, int start, int end) { OnToken(term, start, end); }

  bool stopped() const { return stopped_; }

 protected:
  // Makes the running Tokenize call return without emitting further tokens (e.g. SQLite
  // asked the tokenizer to abort).
  void Stop() { stopped_ = true; }

 private:
  bool stopped_ = false;
};

// How Tokenize cuts text: a kWord run (letters, digits and marks of scripts written with
// spaces) is one term; a kCjk run (Hangul, Han, Kana) is indexed as overlapping bigrams of its
// characters, or as its one character when it has only one.
enum class RunKind { kWord, kCjk };
enum class CjkScript { kHangul, kHan, kKana };

// One character of a kCjk run (a syllable, ideograph or kana with its marks; conjoining Jamo
// grouped into their syllable), as Tokenize pairs them.
struct CjkUnit {
  size_t start = 0, end = 0;  // byte range in the text
  CjkScript script = CjkScript::kHan;
};

struct ScriptRun {
  RunKind kind = RunKind::kWord;
  size_t start = 0, end = 0;   // byte range in the text
  std::vector<CjkUnit> units;  // kCjk runs only
};

// The runs of `text` in order, exactly as Tokenize sees them (separators and invalid UTF-8
// dropped; an identifier's run gives a token per word of it, identifier.h). Queries use it to build
// terms from the same characters the index paired.
std::vector<ScriptRun> ScriptRuns(std::string_view text);

class Analyzer {
 public:
  // An unknown stemmer name means no stemming; validate it with IsKnownStemmer first.
  explicit Analyzer(AnalyzerOptions options = {});
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // True when `name` is "" / "none" or a Snowball algorithm (or alias) libstemmer provides.
  static bool IsKnownStemmer(std::string_view name);
  // The canonical Snowball algorithm names libstemmer provides (for error hints).
  static std::vector<std::string> StemmerNames();
  const AnalyzerOptions& options() const { return options_; }

  // Emits tokens of `text` in order. Invalid UTF-8 bytes are treated as separators.
  void Tokenize(std::string_view text, TokenSink& sink) const;

  // Like Tokenize, but never stems: a prefix query ("datab*") must match the beginning of
  // indexed terms, and stemming the fragment could cut it differently.
  void TokenizeUnstemmed(std::string_view text, TokenSink& sink) const;

  // Convenience: all terms of `text`, in order.
  std::vector<std::string> Terms(std::string_view text) const;

 private:
  void Run(std::string_view text, TokenSink& sink, bool stem) const;

  AnalyzerOptions options_;
  // The Snowball stemmer plus scratch buffers reused across tokens (no per-token allocation).
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kebab::text
