// A Session is kebab for one configuration: the loaded config, the read-only policy, and what
// facade calls share because it is costly to open: the embedding model, the language model,
// read-only handles on the index (with SQLite's page cache) and each space's vector index.
// They are opened on first use and kept until the session ends, so the CLI (one session per
// command) pays for what its command needs and `kebab mcp` (one session for its lifetime)
// keeps its models and its index warm.
//
// Thread safety: every facade call may run on its own thread against one shared Session. A
// model serves one caller at a time (a caller holds it only while it computes), and so does a
// store handle (callers at once get handles of their own, up to a few kept idle); a vector index
// is immutable and shared, and one that a later call replaced (an ingest moved the corpus on)
// stays valid for whoever still holds it. The config is fixed for the session's life; what a
// call holds must be released before the session ends.
// Ownership: the session owns what it opens. Errors: a model or index that fails to open is
// the error of the call that needed it; the next call tries again.
#pragma once

#include <memory>
#include <string_view>

#include "config/config.h"
#include "core/status.h"

namespace kebab::app {

namespace internal {
struct SessionState;
}

struct SessionOptions {
  // --readonly / KEBAB_READONLY: calls that change the index, the config or the model files
  // fail with readonly_mode, and answers are not recorded.
  bool readonly = false;
  // The session answers many calls over a long life (`kebab mcp`): its store handles read
  // through SQLite's bounded cache rather than mapping the index, so the server's memory stays
  // bounded however much of the index its calls touch.
  bool long_lived = false;
};

// What a session holds open (`kebab status`): loaded on a call's first need, kept after.
struct SessionResources {
  bool embedding_model = false, language_model = false, vector_index = false;
};

// readonly_mode: `kebab COMMAND` would change the index, the config or the model files.
Status ReadonlyRefusal(std::string_view command);

class Session {
 public:
  explicit Session(config::Config config, SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const config::Config& config() const { return config_; }
  bool readonly() const { return options_.readonly; }

  // OK, or readonly_mode naming `command` (e.g. "ingest") when the session is read-only.
  Status CheckWritable(std::string_view command) const;

  // Without waiting for a call that holds a model.
  SessionResources Resources() const;

  // Module-private: the shared models and indexes (app/internal/session_state.h).
  internal::SessionState& state() const { return *state_; }

 private:
  const config::Config config_;
  const SessionOptions options_;
  std::unique_ptr<internal::SessionState> state_;
};

}  // namespace kebab::app
