// Wire schema v1 (docs/wire-schema/v1/): the stable JSON of every object kebab emits with
// --json (and, later, over MCP). Internal structs evolve freely; only these functions decide
// what crosses the wire, and v1 only ever gains optional fields.
#pragma once

#include <nlohmann/json.hpp>

#include "app/admin.h"
#include "app/ask.h"
#include "app/eval.h"
#include "app/ingest.h"
#include "app/models.h"
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
json OcrStats(const store::OcrStats& stats);         // ocr_stats.v1 (wire_ocr.cc)
json OcrFailures(const app::OcrFailures& failures);  // ocr_failures.v1 (wire_ocr.cc)
json Doctor(const DoctorReport& report);
json StatusReport(const app::StatusReport& report);  // status.v1
json InitReport(const app::InitReport& report);
json IngestReport(const app::IngestReport& report);
json IngestProgress(const IngestEvent& event);
// The two above read back (wire_parse.cc), for a client of `kebab serve` that renders them as
// an in-process ingest does. invalid_input for an object of another kind.
Result<IngestEvent> ParseIngestProgress(const json& progress);
Result<app::IngestReport> ParseIngestReport(const json& report);
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
// The retrieval_done answer_event.v1: the hits retrieval returned, before the gate.
json RetrievalDone(const std::vector<search::SearchHit>& hits);

// eval ----------------------------------------------------------------------------------------
// eval_run.v1: a run's header and means; each query's metrics, hits and answer only when
// `with_queries`. report.json holds the same object with them.
json EvalRun(const app::EvalRun& run, bool with_queries);
// eval_list.v1: the stored runs as ListEvalRuns gave them (newest first).
json EvalList(const std::vector<EvalRunSummary>& runs);
// eval_compare.v1. `max_drop` set makes the comparison a gate, and only a gate can fail:
// `failed` is true when `comparison.metric` fell by more than it.
json EvalCompare(const EvalComparison& comparison, std::optional<double> max_drop);
// eval_import_report.v1: what the import wrote and what the ingest after it indexed.
json EvalImportReport(const EvalImportResult& result);
// end eval ------------------------------------------------------------------------------------

// models --------------------------------------------------------------------------------------
// model_info.v1: one model; `hub` makes a catalog model's download URL.
json ModelInfo(const models::ModelEntry& entry, const std::string& hub);
// model_list.v1: ListModels' listing and the configured embedding model.
json ModelList(const models::ModelListing& listing, const config::Config& config);
// model_pull_progress.v1 of `kind`: "started" (before the first byte; url and path set) or
// "progress".
json ModelPullProgress(std::string_view kind, const std::string& name,
                       const models::DownloadProgress& progress, const std::string& url = "",
                       const std::string& path = "");
json ModelPullReport(const models::PullReport& report);      // model_pull_report.v1
json ModelRemoveReport(const models::RemoveReport& report);  // model_rm_report.v1
json ModelsGcReport(const GcReport& report);                 // models_gc_report.v1
// end models ----------------------------------------------------------------------------------

}  // namespace kebab::app::wire
