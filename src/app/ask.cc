#include "app/ask.h"

#include <memory>

#include "app/internal/session_state.h"
#include "app/internal_store.h"
#include "app/queries.h"
#include "app/wire.h"
#include "rag/pipeline.h"

namespace kebab::app {
namespace {

Result<rag::AskOptions> OptionsFor(const config::Config& config, const AskRequest& request) {
  rag::AskOptions o;
  o.question = request.question;
  o.mode = request.mode.value_or(config.embedding.provider == "none" ? SearchMode::kLexical
                                                                     : SearchMode::kHybrid);
  o.k = request.k.value_or(config.search.default_k);
  KEBAB_ASSIGN_OR_RETURN(o.prompt, rag::FindTemplate(config.rag.prompt_template_version));
  o.score_gate = config.rag.score_gate;
  o.max_context_tokens = config.rag.max_context_tokens;
  o.max_tokens = config.llm.max_tokens;
  o.temperature = request.temperature.value_or(config.llm.temperature);
  o.top_p = config.llm.top_p;
  o.seed = request.seed.value_or(static_cast<uint64_t>(config.llm.seed));
  // The config is validated, so the name is one of the modes.
  o.verify = rag::ParseVerifyMode(config.rag.verify).value_or(rag::VerifyMode::kAuto);
  o.verify_min_overlap = config.rag.verify_min_overlap;
  o.verify_semantic_threshold = config.rag.verify_semantic_threshold;
  o.multi_hop = request.multi_hop;
  o.max_hops = config.rag.max_hops;
  o.max_sub_queries = config.rag.max_sub_queries;
  o.max_pool_chunks = config.rag.max_pool_chunks;
  o.model = {config.llm.model, config.llm.provider};
  if (config.embedding.provider != "none" && o.mode != SearchMode::kLexical) {
    o.embedding = rag::EmbeddingRef{config.embedding.model, config.embedding.provider,
                                    config.embedding.dimensions};
  }
  o.stemmer = config.search.stemmer;
  o.cancel = request.cancel;
  return o;
}

store::AnswerRecord RecordOf(const rag::Answer& a, bool explain) {
  const wire::json j = wire::Answer(a, /*explain=*/false);
  store::AnswerRecord r;
  r.trace_id = a.retrieval.trace_id;
  r.query = a.question;
  r.answer = a.answer;
  r.grounded = a.grounded;
  if (a.refusal_reason) r.refusal_reason = std::string(rag::RefusalReasonName(*a.refusal_reason));
  r.model_id = a.model.id;
  r.model_provider = a.model.provider;
  if (a.embedding) {
    r.embedding_model_id = a.embedding->id;
    r.embedding_dimensions = a.embedding->dimensions;
  }
  r.prompt_template_version = a.prompt_template_version;
  r.retrieval_mode = std::string(SearchModeName(a.retrieval.mode));
  r.retrieval_k = a.retrieval.k;
  r.score_gate = a.retrieval.score_gate;
  r.top_score = a.retrieval.top_score;
  r.chunks_returned = a.retrieval.chunks_returned;
  r.chunks_used = a.retrieval.chunks_used;
  r.citations_json = j["citations"].dump();
  if (explain) r.packed_chunks_json = wire::PackedChunks(a.packed).dump();
  r.prompt_tokens = a.usage.prompt_tokens;
  r.completion_tokens = a.usage.completion_tokens;
  r.latency_ms = static_cast<int64_t>(a.timings.total_ms);
  r.created_at = a.created_at;
  r.answer_json = j.dump();
  return r;
}

}  // namespace

Result<AskResult> Ask(Session& session, const AskRequest& request, const AskCallbacks& callbacks) {
  const config::Config& config = session.config();
  if (request.question.find_first_not_of(" \t\r\n") == std::string::npos) {
    return InvalidInput("the question is empty", "kebab ask \"what are the chunking rules?\"");
  }
  if (config.llm.provider == "none" || config.llm.model.empty()) {
    return Status(ErrorCode::kConfigInvalid, "no language model is configured",
                  "set [models.llm] provider and model in " + config.config_path +
                      " (e.g. provider = \"ollama\", model = \"qwen2.5:3b-instruct\"; or "
                      "provider = \"llama\" with a model from `kebab models list`)");
  }
  KEBAB_ASSIGN_OR_RETURN(rag::AskOptions options, OptionsFor(config, request));
  if (options.mode != SearchMode::kLexical && config.embedding.provider == "none") {
    return InvalidInput("--mode " + std::string(SearchModeName(options.mode)) +
                            " needs an embedding model, and none is configured",
                        "use --mode lexical, or set [models.embedding] in the config");
  }

  AskResult result;
  if (config.embedding.provider == "none") {
    result.hint = "lexical retrieval only: set [models.embedding] for retrieval by meaning";
  }
  // Held from the first generation to the end of this ask (multi-hop generates several times).
  std::optional<internal::Lease<llm::LanguageModel>> model;
  rag::AskHooks hooks;
  hooks.retrieve = [&](const std::string& query, int k) {
    search::SearchRequest s;
    s.query = query;
    s.mode = options.mode;
    s.k = k;
    s.filters = request.filters;
    s.snippet_chars = config.search.snippet_chars;
    s.trace = request.explain;
    return Search(session, std::move(s));
  };
  hooks.open_model = [&]() -> Result<llm::LanguageModel*> {
    if (!model) {
      KEBAB_ASSIGN_OR_RETURN(auto lease, session.state().LanguageModel(config));
      model.emplace(std::move(lease));
    }
    return &**model;
  };
  hooks.on_retrieval = callbacks.on_retrieval;
  hooks.on_piece = callbacks.on_piece;
  if (options.verify_semantic_threshold > 0 && config.embedding.provider != "none") {
    hooks.embed =
        [&](const std::vector<std::string>& texts) -> Result<std::vector<std::vector<float>>> {
      KEBAB_ASSIGN_OR_RETURN(auto embedder, session.state().Embedder(config));
      // A claim and a source sentence are compared as equals (symmetric similarity), which
      // prefixed model families (e5, nomic) are trained to do with the query prefix.
      return embedder->Embed(texts, embed::Purpose::kQuery);
    };
  }
  KEBAB_ASSIGN_OR_RETURN(result.answer, rag::Ask(options, hooks));
  if (result.answer.verification && result.answer.verification->semantic_error) {
    result.warnings.push_back("the semantic citation check did not run (" +
                              *result.answer.verification->semantic_error +
                              "); claims were judged by their words alone");
  }

  model.reset();
  if (!request.record || session.readonly()) return result;
  // The answer stands even when it cannot be recorded (e.g. a read-only data dir).
  Status recorded = [&]() -> Status {
    KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(config, /*readonly=*/false));
    return store->RecordAnswer(RecordOf(result.answer, request.explain));
  }();
  if (!recorded.ok()) {
    result.warnings.push_back("the answer was not recorded: " + recorded.message());
  }
  return result;
}

Result<std::string> StoredAnswerJson(Session& session, const std::string& trace_id) {
  const config::Config& config = session.config();
  KEBAB_ASSIGN_OR_RETURN(auto store, session.state().ReadStore(config));
  std::optional<std::string> json;
  // A file from before the answers table (schema V005) has no answers yet.
  if (store->schema_version() >= 5) {
    KEBAB_ASSIGN_OR_RETURN(json, store->AnswerJson(trace_id));
  }
  if (!json) {
    return InvalidInput("no answer has trace id " + trace_id,
                        "trace ids look like ret_4a8b2c1e; `kebab ask --json` prints one");
  }
  return *json;
}

}  // namespace kebab::app
