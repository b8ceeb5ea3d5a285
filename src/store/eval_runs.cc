#include "store/eval_runs.h"

#include "store/store.h"

namespace kebab::store {
namespace {

EvalRunRecord RunFromRow(Statement& q) {
  EvalRunRecord r;
  r.run_id = q.ColumnText(0);
  r.suite = q.ColumnText(1);
  r.config_snapshot_json = q.ColumnText(2);
  r.aggregate_json = q.ColumnText(3);
  if (!q.ColumnIsNull(4)) r.commit_hash = q.ColumnText(4);
  r.created_at = q.ColumnText(5);
  return r;
}

constexpr const char* kRunColumns =
    "SELECT run_id, suite, config_snapshot_json, aggregate_json, commit_hash, created_at "
    "FROM eval_runs ";

}  // namespace

Status Store::RecordEvalRun(const EvalRunRecord& run, const std::vector<EvalQueryRecord>& queries) {
  return Atomically([&]() -> Status {
    Statement r(db_,
                "INSERT INTO eval_runs(run_id, suite, config_snapshot_json, aggregate_json, "
                "commit_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    r.Bind(1, run.run_id).Bind(2, run.suite).Bind(3, run.config_snapshot_json);
    r.Bind(4, run.aggregate_json);
    if (run.commit_hash) {
      r.Bind(5, *run.commit_hash);
    } else {
      r.BindNull(5);
    }
    r.Bind(6, run.created_at);
    KEBAB_RETURN_IF_ERROR(r.Run());
    Statement q(
        db_, "INSERT INTO eval_query_results(run_id, query_id, result_json) VALUES (?1, ?2, ?3)");
    for (const EvalQueryRecord& e : queries) {
      q.Bind(1, run.run_id).Bind(2, e.query_id).Bind(3, e.result_json);
      KEBAB_RETURN_IF_ERROR(q.Run());
    }
    return Status::OK();
  });
}

Result<std::optional<EvalRunRecord>> Store::GetEvalRun(const std::string& run_id) {
  Statement q(db_, std::string(kRunColumns) + "WHERE run_id = ?1");
  q.Bind(1, run_id);
  Status st;
  if (q.Step(&st)) return std::optional<EvalRunRecord>(RunFromRow(q));
  KEBAB_RETURN_IF_ERROR(st);
  return std::optional<EvalRunRecord>();
}

Result<std::vector<EvalRunRecord>> Store::ListEvalRuns(int limit) {
  Statement q(db_, std::string(kRunColumns) + "ORDER BY created_at DESC, run_id DESC LIMIT ?1");
  q.Bind(1, limit > 0 ? limit : -1);
  std::vector<EvalRunRecord> out;
  Status st;
  while (q.Step(&st)) out.push_back(RunFromRow(q));
  KEBAB_RETURN_IF_ERROR(st);
  return out;
}

Result<std::vector<EvalQueryRecord>> Store::EvalQueryResults(const std::string& run_id) {
  Statement q(db_,
              "SELECT query_id, result_json FROM eval_query_results WHERE run_id = ?1 "
              "ORDER BY rowid");
  q.Bind(1, run_id);
  std::vector<EvalQueryRecord> out;
  Status st;
  while (q.Step(&st)) out.push_back({q.ColumnText(0), q.ColumnText(1)});
  KEBAB_RETURN_IF_ERROR(st);
  return out;
}

Status Store::SetEvalAggregate(const std::string& run_id, const std::string& aggregate_json) {
  Statement q(db_, "UPDATE eval_runs SET aggregate_json = ?2 WHERE run_id = ?1");
  q.Bind(1, run_id).Bind(2, aggregate_json);
  return q.Run();
}

Result<std::optional<std::string>> Store::DocIdOfPath(const std::string& workspace_path) {
  Statement q(db_, "SELECT doc_id FROM documents WHERE workspace_path = ?1");
  q.Bind(1, workspace_path);
  Status st;
  if (q.Step(&st)) return std::optional<std::string>(q.ColumnText(0));
  KEBAB_RETURN_IF_ERROR(st);
  return std::optional<std::string>();
}

}  // namespace kebab::store
