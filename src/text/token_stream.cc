#include "text/token_stream.h"

#include <cstring>

namespace kebab::text {
namespace {

struct ReplayEntry {
  std::string_view text;
  const TokenStream* stream = nullptr;
};

thread_local ReplayEntry tls_replay[2];

}  // namespace

TokenStream TokenStream::Of(const Analyzer& analyzer, std::string_view text) {
  class Sink : public TokenSink {
   public:
    explicit Sink(TokenStream* out) : out_(out) {}
    void OnToken(std::string_view term, int start, int end) override {
      out_->terms_.append(term);
      out_->tokens_.push_back({static_cast<uint32_t>(out_->terms_.size()), start, end, false});
    }
    void OnColocated(std::string_view term, int start, int end) override {
      out_->terms_.append(term);
      out_->tokens_.push_back({static_cast<uint32_t>(out_->terms_.size()), start, end, true});
    }

   private:
    TokenStream* out_;
  };
  TokenStream stream;
  stream.stemmer_ = analyzer.options().stemmer;
  // Sized for prose, whose terms take about as many bytes as the text, about one per 4 bytes
  // (CJK bigrams take more and grow the buffers as usual).
  stream.terms_.reserve(text.size());
  stream.tokens_.reserve(text.size() / 4 + 1);
  Sink sink(&stream);
  analyzer.Tokenize(text, sink);
  return stream;
}

void TokenStream::Replay(TokenSink& sink) const {
  uint32_t begin = 0;
  for (const Token& t : tokens_) {
    if (sink.stopped()) return;
    const std::string_view term = std::string_view(terms_).substr(begin, t.term_end - begin);
    if (t.colocated) {
      sink.OnColocated(term, t.start, t.end);
    } else {
      sink.OnToken(term, t.start, t.end);
    }
    begin = t.term_end;
  }
}

ScopedTokenReplay::ScopedTokenReplay(std::string_view text, const TokenStream& stream) {
  tls_replay[0] = {text, &stream};
  tls_replay[1] = {};
}

ScopedTokenReplay::ScopedTokenReplay(std::string_view text1, const TokenStream& stream1,
                                     std::string_view text2, const TokenStream& stream2) {
  tls_replay[0] = {text1, &stream1};
  tls_replay[1] = {text2, &stream2};
}

ScopedTokenReplay::~ScopedTokenReplay() {
  tls_replay[0] = {};
  tls_replay[1] = {};
}

const TokenStream* FindTokenReplay(std::string_view text, std::string_view stemmer) {
  for (const ReplayEntry& e : tls_replay) {
    // SQLite may hand the tokenizer a copy of the bound text, so compare bytes, not pointers.
    if (e.stream != nullptr && e.text.size() == text.size() && e.stream->stemmer() == stemmer &&
        (e.text.data() == text.data() ||
         std::memcmp(e.text.data(), text.data(), text.size()) == 0)) {
      return e.stream;
    }
  }
  return nullptr;
}

}  // namespace kebab::text
