// `kebab ask`: a grounded answer from the knowledge base (spec §1.1–1.4), and the stored
// answers behind `kebab inspect answer`. Every ask is recorded in the answers table, refusals
// included.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/session.h"
#include "config/config.h"
#include "core/search_types.h"
#include "llm/language_model.h"
#include "rag/answer.h"

namespace kebab::app {

struct AskRequest {
  std::string question;
  std::optional<SearchMode> mode;  // unset: hybrid with an embedding model, else lexical
  std::optional<int> k;            // unset: search.default_k
  SearchFilters filters;
  bool explain = false;  // also store the packed chunks with the answer
  std::optional<double> temperature;
  std::optional<uint64_t> seed;
  bool multi_hop = false;
  bool record = true;  // keep the answer in the answers table (never in a read-only session)
  // Set (Ctrl-C) to stop generation at once; the partial answer is kept. May be null.
  const std::atomic<bool>* cancel = nullptr;
};

struct AskCallbacks {
  std::function<void(const std::vector<search::SearchHit>&)> on_retrieval;
  llm::PieceSink on_piece;  // returning false stops generation (Ctrl-C, closed pipe)
};

struct AskResult {
  rag::Answer answer;
  std::vector<std::string> warnings;  // e.g. the answer could not be recorded
  std::optional<std::string> hint;    // e.g. lexical only: no embedding model
};

// Errors: an empty question is invalid_input; no configured LLM is config_invalid; an empty
// index is not_indexed; otherwise retrieval's and the model's errors. Refusals are answers.
Result<AskResult> Ask(Session& session, const AskRequest& request, const AskCallbacks& callbacks);

// The answer.v1 object stored for `trace_id` (kebab inspect answer). doc_not_found-style
// invalid_input when there is none.
Result<std::string> StoredAnswerJson(Session& session, const std::string& trace_id);

}  // namespace kebab::app
