// `kebab eval`: measures retrieval (and with --with-rag, answers) against a golden suite, keeps
// every run in the store with a snapshot of what produced it, and compares runs so a change of
// chunker, model or fusion settings shows as wins, losses and metric deltas.
//
// A suite is a YAML file (eval/suite.h) over the configured knowledge base, or the name of a
// collection `kebab eval import` made: {data_dir}/eval/NAME/ holds its Markdown corpus,
// suite.yaml and its own index (data/), measured with the models of the current config.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/ingest.h"
#include "app/session.h"
#include "config/config.h"
#include "core/search_types.h"
#include "eval/import.h"
#include "eval/metrics.h"

namespace kebab::app {

struct EvalRunOptions {
  std::string suite;               // a YAML path, or an imported collection's name
  std::optional<SearchMode> mode;  // unset: lexical (the reference's default)
  int k = 10;                      // hits kept per query; metrics at 1, 3, 5, 10 and k
  bool with_rag = false;           // also answer each query (kebab ask) and score the answer
  std::optional<double> temperature;
  std::optional<uint64_t> seed;
  std::optional<std::string> commit_hash;  // recorded with the run (KEBAB_COMMIT_HASH)
  // Store the run and write its reports (not under --readonly).
  bool record = true;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(int done, int total)> progress;
};

struct EvalHit {
  int rank = 0;
  std::string chunk_id, doc_id, doc_path;
  int line_start = 0, line_end = 0;
  double score = 0;
  int grade = 0;  // the judgement it matched; 0 = not relevant
};

// --with-rag: the answer and how it fared.
struct EvalAnswer {
  std::string text, trace_id;
  bool grounded = false;
  std::optional<std::string> refusal_reason;
  int citations = 0;
  std::optional<bool> must_contain_pass, forbidden_pass;  // unset: the golden has none
  std::optional<bool> refusal_correct;  // refused iff unanswerable; unset without judgements
  bool citations_complete = false;      // grounded with ≥ 1 citation, each with a path
  double latency_ms = 0;
};

struct EvalQueryResult {
  std::string id, query, group, difficulty;
  bool unanswerable = false;
  eval::QueryMetrics metrics;
  std::vector<EvalHit> hits;
  double latency_ms = 0;  // the search (or the whole ask with --with-rag)
  std::string error;      // a query that failed; counted in failed_queries
  std::optional<EvalAnswer> answer;
};

struct EvalRun {
  std::string run_id;  // "run_" + UUIDv7: sorts by time
  std::string suite, suite_path, created_at;
  std::optional<std::string> commit_hash;
  std::string mode;
  int k = 0;
  bool with_rag = false;
  nlohmann::json config_snapshot;  // the whole config plus every version that shapes results
  std::map<std::string, double> aggregate;  // "ndcg@10", "latency_p95_ms", ...
  std::vector<EvalQueryResult> queries;
  std::string report_dir;  // {runs_dir}/<run_id>: report.md, report.json, per_query.jsonl
};

// Runs the suite and, with options.record in a writable session, stores the run and writes its
// reports. Errors: an
// unreadable or invalid suite (file:line), a doc id, chunk id or path the index does not have
// (kInvalidInput naming the query and line), not_indexed, kCancelled (nothing stored). One query
// failing is a failed query, not an error.
Result<EvalRun> RunEval(Session& session, const EvalRunOptions& options);

// A stored run (per-query results included), from the configured store or a collection's.
Result<EvalRun> LoadEvalRun(Session& session, const std::string& run_id);
// Recomputes a stored run's means from its per-query results and stores them again.
Result<EvalRun> AggregateEvalRun(Session& session, const std::string& run_id);

struct EvalRunSummary {
  std::string run_id, suite, created_at, mode, store;  // store: "" or the collection's name
  int k = 0, queries = 0;
  std::map<std::string, double> aggregate;
};
// Runs of the configured store and of every imported collection, newest first.
Result<std::vector<EvalRunSummary>> ListEvalRuns(Session& session, int limit);

struct EvalComparison {
  EvalRun a, b;
  std::string metric;  // the per-query metric wins and losses are judged on
  double threshold = 0;
  struct Delta {
    std::string name;
    double a = 0, b = 0;
  };
  std::vector<Delta> deltas;  // every aggregate metric both runs have
  struct QueryChange {
    std::string id, query;
    double a = 0, b = 0;
    std::string kind;  // win | loss | draw | regression (was relevant in the top k, is not)
  };
  std::vector<QueryChange> queries;  // queries of both runs, in b's order
  int wins = 0, losses = 0, draws = 0, regressions = 0;
  std::vector<std::string> only_in_a, only_in_b;
  bool suites_differ = false;
  bool failed = false;  // `metric` dropped by more than `threshold` from a to b
};
// Compares run b against run a on `metric` (e.g. "ndcg@10", "mrr@10", "hit@5").
Result<EvalComparison> CompareEvalRuns(Session& session, const std::string& a, const std::string& b,
                                       const std::string& metric, double threshold);

// How a metric's value reads in reports and the CLI: counts whole, milliseconds to 0.1, the
// rest to 4 places: ("ndcg@10", 0.79561) → "0.7956", ("latency_p95_ms", 5.86) → "5.9".
std::string FormatMetric(const std::string& name, double value);

// The directory of an imported collection: {data_dir}/eval/NAME.
std::string CollectionDir(const config::Config& config, const std::string& name);
// The config that measures a collection: the current one, with the workspace, data and runs
// directories moved into the collection.
config::Config CollectionConfig(const config::Config& config, const std::string& name);

struct EvalImportResult {
  eval::ImportReport report;
  std::string dir;  // the collection: corpus/, suite.yaml, data/ (its index), runs/
  IngestCounts ingest;
  double import_ms = 0, ingest_ms = 0;
};
// Imports a public collection (BEIR or TREC) as collection `options.name` (default: the
// source directory's name) and indexes it with the current config; `out_dir` is ignored.
// Re-importing rewrites only what changed, so the ingest after it is incremental.
Result<EvalImportResult> ImportEvalCollection(Session& session, eval::ImportOptions options,
                                              const IngestEventSink& on_ingest_event,
                                              const std::atomic<bool>* cancel);

}  // namespace kebab::app
