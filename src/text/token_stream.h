// Tokens of a text analyzed ahead of time, so the FTS5 tokenizer can replay them instead of
// analyzing again. Ingest analyzes chunk text on its worker threads; the single writer thread,
// which runs every FTS5 insert, then only copies tokens into the index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text/analyzer.h"

namespace kebab::text {

class TokenStream {
 public:
  TokenStream() = default;
  // The document tokens of `text` as `analyzer` emits them.
  static TokenStream Of(const Analyzer& analyzer, std::string_view text);

  const std::string& stemmer() const { return stemmer_; }
  // Emits the recorded tokens in order; stops early if the sink stops.
  void Replay(TokenSink& sink) const;

 private:
  struct Token {
    uint32_t term_end;  // end of the term in terms_; it begins where the previous one ended
    int start, end;     // byte range in the source text
    bool colocated;     // at the previous token's position
  };
  std::string stemmer_;
  std::string terms_;
  std::vector<Token> tokens_;
};

// While alive, the "kebab" FTS5 tokenizer on this thread replays `stream` whenever it is asked
// for the document tokens of exactly `text` with the same stemmer (anything else is analyzed
// as usual). Both must outlive the scope. Scopes do not nest.
class ScopedTokenReplay {
 public:
  ScopedTokenReplay(std::string_view text, const TokenStream& stream);
  // Two texts at once, e.g. the two columns of one row.
  ScopedTokenReplay(std::string_view text1, const TokenStream& stream1, std::string_view text2,
                    const TokenStream& stream2);
  ~ScopedTokenReplay();
  ScopedTokenReplay(const ScopedTokenReplay&) = delete;
  ScopedTokenReplay& operator=(const ScopedTokenReplay&) = delete;
};

// The stream recorded for `text` on this thread under an active ScopedTokenReplay, if any.
const TokenStream* FindTokenReplay(std::string_view text, std::string_view stemmer);

}  // namespace kebab::text
