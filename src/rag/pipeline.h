// The RAG pipeline behind `kebab ask` (spec §1.1–1.4): retrieve → score gate → pack the best
// chunks into the prompt → generate (streaming) → check the answer's citations → Answer. It
// refuses instead of answering when retrieval finds nothing or only weak evidence (without
// calling the model), when the model says the sources are not enough or cites none of them,
// when generation is stopped, and when the citation check fails (rag.verify = auto: no cited
// claim is in its chunk; refuse: some cited claim is not).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/search_types.h"
#include "core/status.h"
#include "llm/language_model.h"
#include "rag/answer.h"
#include "rag/prompt.h"
#include "search/search.h"

namespace kebab::rag {

struct AskOptions {
  std::string question;
  SearchMode mode = SearchMode::kHybrid;
  int k = 10;
  const PromptTemplate* prompt = nullptr;  // FindTemplate(rag.prompt_template_version)
  double score_gate = 0.30;
  int max_context_tokens = 8000;
  // Generation: max_tokens 0 = what the context leaves.
  int max_tokens = 0;
  double temperature = 0, top_p = 1;
  std::optional<uint64_t> seed;
  VerifyMode verify = VerifyMode::kAuto;
  double verify_min_overlap = 0.5;
  double verify_semantic_threshold = 0;  // > 0 with AskHooks::embed: the semantic fallback
  bool multi_hop = false;
  int max_hops = 3, max_sub_queries = 4, max_pool_chunks = 15;
  llm::ModelRef model;  // as configured: named in refusals that never open the model
  std::optional<EmbeddingRef> embedding;
  std::string stemmer = "english";  // the index's, for the lexical gate score
  // Set (Ctrl-C) to stop generation at once, even during prompt evaluation; the answer is then
  // an llm_stream_aborted refusal with what was generated. May be null.
  const std::atomic<bool>* cancel = nullptr;
};

struct AskHooks {
  // Runs a search for `query` with k results (the configured mode and filters).
  std::function<Result<search::SearchResponse>(const std::string& query, int k)> retrieve;
  // Opens the language model; called only once generation is needed.
  std::function<Result<llm::LanguageModel*>()> open_model;
  // Optional: embeds texts for the citation check's semantic fallback (VerifyOptions::embed).
  std::function<Result<std::vector<std::vector<float>>>(const std::vector<std::string>&)> embed;
  // Optional: retrieval's hits, before the gate (answer_event.v1 retrieval_done).
  std::function<void(const std::vector<search::SearchHit>&)> on_retrieval;
  // Optional: each generated piece as it arrives; returning false stops generation.
  llm::PieceSink on_piece;
};

// The answer, grounded or a refusal (Answer::refusal_reason). Errors are retrieval's and the
// model's (model_unreachable, model_not_pulled, timeout, ...): no answer was produced.
Result<Answer> Ask(const AskOptions& options, const AskHooks& hooks);

// "ret_" + 8 random hex digits.
std::string NewTraceId();

}  // namespace kebab::rag
