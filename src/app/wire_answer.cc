// answer.v1 and answer_event.v1 (spec §2.3): what `kebab ask --json` / `--stream` print and
// what the answers table keeps.
#include "app/wire.h"
#include "core/time.h"

namespace kebab::app::wire {
namespace {

json CitationOf(const rag::AnswerCitation& c) {
  json citation = c.citation.ToWire();
  citation["indexed_at"] = c.indexed_at;
  return {{"marker", c.marker ? json(*c.marker) : json(nullptr)},
          {"citation", citation},
          {"chunk_id", c.chunk_id},
          {"score", c.score}};
}

json HopOf(const rag::Hop& h) {
  return {{"iter", h.iter},
          {"kind", h.kind},
          {"sub_queries", h.sub_queries},
          {"context_chunks_added", h.chunks_added},
          {"forced_stop", h.forced_stop},
          {"llm_call_ms", h.llm_call_ms}};
}

json VerificationOf(const rag::Answer& a) {
  const rag::Verification& v = *a.verification;
  json claims = json::array();
  for (const rag::ClaimCheck& c : v.claims) {
    claims.push_back({{"text", c.text},
                      {"cited", c.cited},
                      {"status", rag::ClaimStatusName(c.status)},
                      {"overlap", c.overlap ? json(*c.overlap) : json(nullptr)},
                      {"semantic", c.semantic ? json(*c.semantic) : json(nullptr)},
                      {"missing_numbers", c.missing_numbers},
                      {"missing_quotes", c.missing_quotes},
                      {"missing_names", c.missing_names},
                      {"reasons", c.reasons}});
  }
  return {{"mode", rag::VerifyModeName(a.verify_mode)},
          {"min_overlap", a.verify_min_overlap},
          {"semantic_threshold",
           a.verify_semantic_threshold > 0 ? json(a.verify_semantic_threshold) : json(nullptr)},
          {"semantic_error", v.semantic_error ? json(*v.semantic_error) : json(nullptr)},
          {"cited_claims", v.cited_claims},
          {"verified_claims", v.verified_claims()},
          {"unsupported_claims", v.unsupported_claims},
          {"uncited_claims", v.uncited_claims},
          {"claims", claims}};
}

}  // namespace

json Answer(const rag::Answer& a, bool explain) {
  json citations = json::array();
  for (const rag::AnswerCitation& c : a.citations) citations.push_back(CitationOf(c));
  json j = {
      {"schema_version", "answer.v1"},
      {"query", a.question},
      {"answer", a.answer},
      {"citations", citations},
      {"grounded", a.grounded},
      {"refusal_reason",
       a.refusal_reason ? json(rag::RefusalReasonName(*a.refusal_reason)) : json(nullptr)},
      {"model", {{"id", a.model.id}, {"provider", a.model.provider}}},
      {"embedding", a.embedding ? json{{"id", a.embedding->id},
                                       {"provider", a.embedding->provider},
                                       {"dimensions", a.embedding->dimensions}}
                                : json(nullptr)},
      {"prompt_template_version", a.prompt_template_version},
      {"retrieval",
       {{"trace_id", a.retrieval.trace_id},
        {"mode", SearchModeName(a.retrieval.mode)},
        {"k", a.retrieval.k},
        {"score_gate", a.retrieval.score_gate},
        {"top_score", a.retrieval.top_score},
        {"chunks_returned", a.retrieval.chunks_returned},
        {"chunks_used", a.retrieval.chunks_used}}},
      {"usage",
       {{"prompt_tokens", a.usage.prompt_tokens},
        {"completion_tokens", a.usage.completion_tokens},
        {"latency_ms", static_cast<int64_t>(a.timings.total_ms)}}},
      {"created_at", a.created_at},
      {"unknown_markers", a.unknown_markers},
  };
  if (a.verification) j["verification"] = VerificationOf(a);
  if (!a.hops.empty()) {
    json hops = json::array();
    for (const rag::Hop& h : a.hops) hops.push_back(HopOf(h));
    j["hops"] = hops;
  }
  if (explain) {
    j["explain"] = {{"model_text", a.model_text},
                    {"packed_chunks", PackedChunks(a.packed)},
                    {"timings_ms",
                     {{"retrieval", a.timings.retrieval_ms},
                      {"prompt", a.timings.prompt_ms},
                      {"first_token", a.timings.first_token_ms},
                      {"generation", a.timings.generation_ms},
                      {"verify", a.timings.verify_ms},
                      {"total", a.timings.total_ms}}},
                    {"retrieval_stages_ms", a.timings.retrieval_stages_ms}};
  }
  return j;
}

json RetrievalDone(const std::vector<search::SearchHit>& hits) {
  json list = json::array();
  for (const search::SearchHit& h : hits) list.push_back(SearchHit(h, "", false, ""));
  return AnswerEvent("retrieval_done", {{"hits", list}});
}

json PackedChunks(const std::vector<rag::PackedChunk>& packed) {
  json a = json::array();
  for (const rag::PackedChunk& p : packed) {
    a.push_back({{"marker", "[" + std::to_string(p.number) + "]"},
                 {"chunk_id", p.hit.chunk.chunk.chunk_id},
                 {"uri", p.hit.citation.ToUri()},
                 {"score", p.hit.score},
                 {"tokens", p.tokens},
                 {"truncated", p.truncated}});
  }
  return a;
}

json AnswerEvent(std::string_view kind, const json& body) {
  json j = {{"schema_version", "answer_event.v1"}, {"kind", kind}, {"ts", NowRfc3339()}};
  j.update(body);
  return j;
}

}  // namespace kebab::app::wire
