// Wire schema v1 (docs/wire-schema/v1/): the stable JSON of every object kebab emits with
// --json (and, later, over MCP). Internal structs evolve freely; only these functions decide
// what crosses the wire, and v1 only ever gains optional fields.
#pragma once

#include <nlohmann/json.hpp>

#include "app/admin.h"
#include "app/ask.h"
#include "app/ingest.h"
#include "app/queries.h"
#include "search/search.h"

namespace kebab::app::wire {

using nlohmann::json;

json Error(const Status& status);
json SearchHit(const search::SearchHit& hit, const std::string& index_version, bool explain,
               const std::string& match_expression, const std::string& embedding_model = "");
json SearchResponse(const search::SearchResponse& response, bool explain);
// How a lexical query was built: the whole-query phrase and each word's terms and notes.
json QueryPlan(const search::MatchPlan& plan);
json DocSummary(const store::DocSummary& doc);
json ChunkInspection(const store::StoredChunk& chunk);
json DocumentInspection(const store::StoredDocument& doc);
json Doctor(const DoctorReport& report);
json IngestReport(const app::IngestReport& report);
json IngestProgress(const IngestEvent& event);
// IngestProgress(event) as one compact JSON line with its newline, byte for byte what
// dump() gives; the two per-file events are written directly, since a bulk ingest emits two
// per file and building each as a json object cost the writer thread ~0.3 s on 38k files.
std::string IngestProgressLine(const IngestEvent& event);
json FetchResult(const app::FetchResult& result);
json ResetReport(const app::ResetReport& report);
json Schema(const SchemaInfo& info);
// answer.v1; `explain` adds the model's raw reply, the packed chunks and stage timings.
json Answer(const rag::Answer& answer, bool explain);
json PackedChunks(const std::vector<rag::PackedChunk>& packed);
// answer_event.v1 of `kind` (retrieval_done | token | final) with `body`'s fields.
json AnswerEvent(std::string_view kind, const json& body);

}  // namespace kebab::app::wire
