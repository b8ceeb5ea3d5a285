#include "text/fts5_tokenizer.h"

#include <memory>
#include <new>
#include <string_view>
#include <utility>

#include "text/analyzer.h"
#include "text/token_stream.h"

namespace kebab::text {
namespace {

constexpr const char* kTokenizerName = "kebab";

// Forwards analyzer tokens to FTS5 and stops at the first error FTS5 reports.
class Fts5Sink : public TokenSink {
 public:
  using XToken = int (*)(void*, int, const char*, int, int, int);
  Fts5Sink(void* ctx, XToken x_token) : ctx_(ctx), x_token_(x_token) {}

  void OnToken(std::string_view term, int start, int end) override { Send(0, term, start, end); }
  void OnColocated(std::string_view term, int start, int end) override {
    Send(FTS5_TOKEN_COLOCATED, term, start, end);
  }
  int rc() const { return rc_; }

 private:
  void Send(int flags, std::string_view term, int start, int end) {
    rc_ = x_token_(ctx_, flags, term.data(), static_cast<int>(term.size()), start, end);
    if (rc_ != SQLITE_OK) Stop();
  }

  void* ctx_;
  XToken x_token_;
  int rc_ = SQLITE_OK;
};

// The callbacks below are called from C: no exception may cross them.

int Create(void* registration, const char** argv, int argc, Fts5Tokenizer** out) {
  *out = nullptr;
  try {
    AnalyzerOptions options;
    options.stemmer = *static_cast<const std::string*>(registration);
    for (int i = 0; i < argc; i += 2) {
      if (std::string_view(argv[i]) != "stemmer" || i + 1 >= argc) return SQLITE_ERROR;
      options.stemmer = argv[i + 1];
    }
    if (!Analyzer::IsKnownStemmer(options.stemmer)) return SQLITE_ERROR;
    *out = reinterpret_cast<Fts5Tokenizer*>(new Analyzer(std::move(options)));
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (...) {
    return SQLITE_ERROR;
  }
}

void Delete(Fts5Tokenizer* tokenizer) {
  delete reinterpret_cast<Analyzer*>(tokenizer);
}

int Tokenize(Fts5Tokenizer* tokenizer, void* ctx, int flags, const char* text, int n_text,
             int (*x_token)(void*, int, const char*, int, int, int)) {
  if (n_text <= 0) return SQLITE_OK;
  try {
    const auto* analyzer = reinterpret_cast<const Analyzer*>(tokenizer);
    Fts5Sink sink(ctx, x_token);
    const std::string_view input(text, static_cast<size_t>(n_text));
    if ((flags & FTS5_TOKENIZE_PREFIX) != 0) {
      analyzer->TokenizeUnstemmed(input, sink);
    } else if (const TokenStream* recorded =
                   (flags & FTS5_TOKENIZE_DOCUMENT) != 0
                       ? FindTokenReplay(input, analyzer->options().stemmer)
                       : nullptr) {
      recorded->Replay(sink);
    } else {
      analyzer->Tokenize(input, sink);
    }
    return sink.rc();
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (...) {
    return SQLITE_ERROR;
  }
}

void DestroyRegistration(void* registration) {
  delete static_cast<std::string*>(registration);
}

std::string KnownStemmersHint() {
  std::string hint = "use \"none\" or one of:";
  for (const std::string& name : Analyzer::StemmerNames()) {
    hint += ' ';
    hint += name;
  }
  return hint;
}

}  // namespace

Status RegisterKebabTokenizer(sqlite3* db, const std::string& stemmer) {
  if (!Analyzer::IsKnownStemmer(stemmer)) {
    return ConfigInvalid("unknown Snowball stemmer \"" + stemmer + "\"", KnownStemmersHint());
  }
  fts5_api* api = Fts5Api(db);
  if (api == nullptr || api->iVersion < 2) {
    return GenericError("SQLite was built without FTS5: " + std::string(sqlite3_errmsg(db)));
  }
  fts5_tokenizer tokenizer{Create, Delete, Tokenize};
  auto registration = std::make_unique<std::string>(stemmer);
  const int rc = api->xCreateTokenizer(api, kTokenizerName, registration.get(), &tokenizer,
                                       DestroyRegistration);
  if (rc != SQLITE_OK) {
    return GenericError("registering the FTS5 tokenizer failed: " +
                        std::string(sqlite3_errstr(rc)));
  }
  // FTS5 now owns the registration and frees it through DestroyRegistration.
  registration.release();
  return Status::OK();
}

fts5_api* Fts5Api(sqlite3* db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, nullptr) != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return nullptr;
  }
  sqlite3_bind_pointer(stmt, 1, &api, "fts5_api_ptr", nullptr);
  sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  return api;
}

}  // namespace kebab::text
