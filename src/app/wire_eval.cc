// eval_run.v1, eval_list.v1, eval_compare.v1 and eval_import_report.v1: what `kebab eval`
// prints with --json.
#include "app/internal/eval_report.h"
#include "app/wire.h"

namespace kebab::app::wire {

json EvalRun(const app::EvalRun& run, bool with_queries) {
  // report.json and the store's rows are this same object, so it is built in one place, next
  // to QueryFromJson, which reads it back.
  return internal::RunJson(run, with_queries);
}

json EvalList(const std::vector<EvalRunSummary>& runs) {
  json items = json::array();
  for (const EvalRunSummary& r : runs) {
    items.push_back({{"run_id", r.run_id},
                     {"suite", r.suite},
                     {"collection", r.store.empty() ? json(nullptr) : json(r.store)},
                     {"created_at", r.created_at},
                     {"mode", r.mode},
                     {"k", r.k},
                     {"queries", r.queries},
                     {"aggregate", r.aggregate}});
  }
  return {{"schema_version", "eval_list.v1"}, {"runs", items}};
}

json EvalCompare(const EvalComparison& c, std::optional<double> max_drop) {
  // c.failed is judged against c.threshold even when the caller set no gate (the CLI then
  // passes 0), so it counts only when max_drop was given.
  json deltas = json::object(), queries = json::array();
  for (const auto& d : c.deltas) deltas[d.name] = {{"a", d.a}, {"b", d.b}, {"delta", d.b - d.a}};
  for (const auto& q : c.queries) {
    queries.push_back({{"id", q.id}, {"query", q.query}, {"a", q.a}, {"b", q.b}, {"kind", q.kind}});
  }
  return {{"schema_version", "eval_compare.v1"},
          {"a", c.a.run_id},
          {"b", c.b.run_id},
          {"metric", c.metric},
          {"max_drop", max_drop ? json(*max_drop) : json(nullptr)},
          {"failed", max_drop.has_value() && c.failed},
          {"suites_differ", c.suites_differ},
          {"wins", c.wins},
          {"losses", c.losses},
          {"draws", c.draws},
          {"regressions", c.regressions},
          {"only_in_a", c.only_in_a},
          {"only_in_b", c.only_in_b},
          {"deltas", deltas},
          {"queries", queries}};
}

json EvalImportReport(const EvalImportResult& result) {
  const eval::ImportReport& r = result.report;
  return {{"schema_version", "eval_import_report.v1"},
          {"name", r.name},
          {"dir", result.dir},
          {"corpus_dir", r.corpus_dir},
          {"suite_path", r.suite_path},
          {"documents", r.documents},
          {"queries", r.queries},
          {"judgements", r.judgements},
          {"queries_without_judgements", r.queries_without_judgements},
          {"files_written", r.files_written},
          {"files_unchanged", r.files_unchanged},
          {"files_removed", r.files_removed},
          {"warnings", r.warnings},
          {"ingest",
           {{"new", result.ingest.new_docs},
            {"updated", result.ingest.updated},
            {"unchanged", result.ingest.unchanged},
            {"purged", result.ingest.purged},
            {"errors", result.ingest.errors},
            {"chunks_indexed", result.ingest.chunks_indexed}}},
          {"import_ms", result.import_ms},
          {"ingest_ms", result.ingest_ms}};
}

}  // namespace kebab::app::wire
