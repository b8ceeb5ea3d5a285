// Eval runs as data: the means of a run, its JSON (the store's rows, report.json and, through
// wire::EvalRun, `--json`), its Markdown report, and where both are kept. Private to app.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/eval.h"
#include "store/store.h"

namespace kebab::app::internal {

// Means over the judged queries (eval/metrics.h) plus counts, the empty-result rate, latency
// percentiles and, for runs with answers, the answer metrics.
std::map<std::string, double> Aggregate(const std::vector<EvalQueryResult>& queries);

// The aggregate's metric names in reading order: nDCG@10, MRR@10, then hit, recall and
// precision by k, then the answer metrics, counts and latency.
std::vector<std::string> MetricOrder(const std::map<std::string, double>& aggregate);

// A judged query's metric values, named as the aggregate names them ("hit@1", "ndcg@10", ...).
std::map<std::string, double> MetricValues(const eval::QueryMetrics& m);

nlohmann::json QueryJson(const EvalQueryResult& q);
EvalQueryResult QueryFromJson(const nlohmann::json& j);
// eval_run.v1; per-query results only when `with_queries`. The store keeps it too, so
// QueryFromJson and LoadRun must read back whatever this writes.
nlohmann::json RunJson(const EvalRun& run, bool with_queries);
std::string RunMarkdown(const EvalRun& run);

// Stores the run in its store and writes {report_dir}/report.md, report.json, per_query.jsonl.
Status RecordRun(const config::Config& config, const EvalRun& run);
// The run from `store`, or nullopt when it has no such run.
Result<std::optional<EvalRun>> LoadRun(store::Store& store, const std::string& run_id,
                                       const std::string& runs_dir);

}  // namespace kebab::app::internal
