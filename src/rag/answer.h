// What `kebab ask` produces (spec §2.3, §3.8): the answer text with its [n] citations, whether
// it is grounded or why it was refused, and the record of how it was made (retrieval, packed
// chunks, verification, hops, token usage and timings).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/citation.h"
#include "core/search_types.h"
#include "llm/language_model.h"
#include "rag/verify.h"
#include "search/search.h"

namespace kebab::rag {

enum class RefusalReason {
  kScoreGate,          // retrieval's best chunk scored below rag.score_gate: no model call
  kLlmSelfJudge,       // the model said the sources are not enough, or cited nothing
  kNoIndex,            // nothing is indexed
  kNoChunks,           // retrieval found nothing
  kLlmStreamAborted,   // generation was stopped (Ctrl-C, closed pipe)
  kUnsupportedClaims,  // the citation check failed (auto: no cited claim holds; refuse: one fails)
};

// The wire name, e.g. "score_gate", "llm_self_judge", "unsupported_claims".
std::string_view RefusalReasonName(RefusalReason reason);

// A source the prompt numbered [n]: the retrieval hit and its size in the prompt.
struct PackedChunk {
  int number = 0;  // n in [n]
  search::SearchHit hit;
  int tokens = 0;
  bool truncated = false;  // only the top chunk is ever cut, when it alone overflows the budget
};

struct AnswerCitation {
  std::optional<std::string> marker;  // "[n]"; none for a refusal's nearby candidates
  Citation citation;
  std::string chunk_id;
  std::string indexed_at;
  double score = 0;  // the hit's retrieval score
};

// --multi-hop: one model call of the decompose → retrieve → synthesize loop.
struct Hop {
  int iter = 0;
  std::string kind;  // decompose | decide | synthesize
  std::vector<std::string> sub_queries;
  int chunks_added = 0;
  bool forced_stop = false;  // a limit (rag.max_hops, rag.max_pool_chunks) ended the loop
  double llm_call_ms = 0;
};

struct RetrievalSummary {
  std::string trace_id;  // "ret_" + 8 hex digits; the answers table's key
  SearchMode mode = SearchMode::kHybrid;
  int k = 0;
  double score_gate = 0;
  double top_score = 0;  // the gate's score of the best hit (see gate.h)
  int chunks_returned = 0;
  int chunks_used = 0;
};

struct EmbeddingRef {
  std::string id, provider;
  int dimensions = 0;
};

// Milliseconds per stage, for --explain and the benchmarks.
struct AnswerTimings {
  double retrieval_ms = 0, prompt_ms = 0, first_token_ms = 0, generation_ms = 0, verify_ms = 0,
         total_ms = 0;
  // The first retrieval's own stages when it was traced (search's "model_load_ms",
  // "query_embed_ms", "lexical_ms", ...).
  std::map<std::string, double> retrieval_stages_ms;
};

struct Answer {
  std::string question;
  std::string answer;
  std::string model_text;  // the model's reply as generated, before markers were rewritten
  std::vector<AnswerCitation> citations;
  bool grounded = false;
  std::optional<RefusalReason> refusal_reason;
  llm::ModelRef model;
  std::optional<EmbeddingRef> embedding;
  std::string prompt_template_version;
  RetrievalSummary retrieval;
  llm::TokenUsage usage;
  std::string created_at;               // RFC 3339
  std::vector<search::SearchHit> hits;  // everything retrieval returned, best first
  std::vector<PackedChunk> packed;      // the sources the prompt held
  // The citation check (rag.verify auto | warn | refuse); unset when off or nothing was cited.
  std::optional<Verification> verification;
  // rag.verify, rag.verify_min_overlap and rag.verify_semantic_threshold the check ran with
  // (the threshold is 0 when the fallback was off or had no embedder).
  VerifyMode verify_mode = VerifyMode::kAuto;
  double verify_min_overlap = 0;
  double verify_semantic_threshold = 0;
  std::vector<int> unknown_markers;  // cited numbers no source had; removed from the answer
  std::vector<Hop> hops;
  AnswerTimings timings;
};

}  // namespace kebab::rag
