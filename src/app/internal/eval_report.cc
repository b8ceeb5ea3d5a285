#include "app/internal/eval_report.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "app/internal_store.h"
#include "core/files.h"
#include "eval/metrics.h"

namespace kebab::app::internal {

namespace fs = std::filesystem;

namespace {

double Rate(int numerator, int denominator) {
  return denominator > 0 ? static_cast<double>(numerator) / denominator : 0;
}

eval::QueryMetrics MetricsFromValues(const nlohmann::json& values, int first_relevant_rank) {
  eval::QueryMetrics m;
  m.judged = true;
  m.first_relevant_rank = first_relevant_rank;
  for (const auto& [name, v] : values.items()) {
    const size_t at = name.find('@');
    if (at == std::string::npos) continue;
    const std::string kind = name.substr(0, at);
    const int k = std::atoi(name.c_str() + at + 1);
    if (kind == "hit") m.hit[k] = v;
    if (kind == "precision") m.precision[k] = v;
    if (kind == "recall") m.recall[k] = v;
    if (name == "mrr@10") m.mrr10 = v;
    if (name == "ndcg@10") m.ndcg10 = v;
  }
  return m;
}

std::string Fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::map<std::string, double> MetricValues(const eval::QueryMetrics& m) {
  std::map<std::string, double> out;
  for (const auto& [k, v] : m.hit) out["hit@" + std::to_string(k)] = v;
  for (const auto& [k, v] : m.precision) out["precision@" + std::to_string(k)] = v;
  for (const auto& [k, v] : m.recall) out["recall@" + std::to_string(k)] = v;
  out["mrr@10"] = m.mrr10;
  out["ndcg@10"] = m.ndcg10;
  return out;
}

std::map<std::string, double> Aggregate(const std::vector<EvalQueryResult>& queries) {
  std::vector<eval::QueryMetrics> metrics;
  std::vector<double> latencies;
  int failed = 0, empty = 0, judged = 0;
  int with_must = 0, must_pass = 0, with_forbidden = 0, forbidden_pass = 0;
  int refusal_judged = 0, refusal_correct = 0, grounded = 0, answered = 0, complete = 0;
  for (const EvalQueryResult& q : queries) {
    if (!q.error.empty()) {
      ++failed;
      continue;
    }
    metrics.push_back(q.metrics);
    latencies.push_back(q.latency_ms);
    if (q.metrics.judged) ++judged;
    if (q.hits.empty()) ++empty;
    if (!q.answer) continue;
    ++answered;
    if (q.answer->grounded) ++grounded;
    if (q.answer->citations_complete) ++complete;
    if (q.answer->must_contain_pass) {
      ++with_must;
      must_pass += *q.answer->must_contain_pass ? 1 : 0;
    }
    if (q.answer->forbidden_pass) {
      ++with_forbidden;
      forbidden_pass += *q.answer->forbidden_pass ? 1 : 0;
    }
    if (q.answer->refusal_correct) {
      ++refusal_judged;
      refusal_correct += *q.answer->refusal_correct ? 1 : 0;
    }
  }
  std::map<std::string, double> out = eval::MeanMetrics(metrics);
  const int ran = static_cast<int>(queries.size()) - failed;
  out["total_queries"] = static_cast<double>(queries.size());
  out["judged_queries"] = judged;
  out["failed_queries"] = failed;
  out["empty_result_rate"] = Rate(empty, ran);
  out["latency_p50_ms"] = eval::Quantile(latencies, 0.50);
  out["latency_p95_ms"] = eval::Quantile(latencies, 0.95);
  if (answered > 0) {
    out["grounded_rate"] = Rate(grounded, answered);
    out["citation_coverage"] = Rate(complete, grounded);
    if (with_must > 0) out["must_contain_pass_rate"] = Rate(must_pass, with_must);
    if (with_forbidden > 0) out["forbidden_pass_rate"] = Rate(forbidden_pass, with_forbidden);
    if (refusal_judged > 0) out["refusal_correctness"] = Rate(refusal_correct, refusal_judged);
  }
  return out;
}

std::vector<std::string> MetricOrder(const std::map<std::string, double>& aggregate) {
  auto rank = [](const std::string& name) {
    static const char* kFirst[] = {"ndcg@10", "mrr@10"};
    for (int i = 0; i < 2; ++i) {
      if (name == kFirst[i]) return std::make_pair(i, 0);
    }
    static const char* kFamilies[] = {"hit@", "recall@", "precision@"};
    for (int i = 0; i < 3; ++i) {
      if (name.starts_with(kFamilies[i])) {
        return std::make_pair(2 + i, std::atoi(name.c_str() + name.find('@') + 1));
      }
    }
    if (name.ends_with("_queries") || name == "empty_result_rate") return std::make_pair(6, 0);
    if (name.ends_with("_ms")) return std::make_pair(7, 0);
    return std::make_pair(5, 0);
  };
  std::vector<std::string> names;
  for (const auto& [name, v] : aggregate) names.push_back(name);
  std::stable_sort(names.begin(), names.end(),
                   [&](const auto& x, const auto& y) { return rank(x) < rank(y); });
  return names;
}

nlohmann::json QueryJson(const EvalQueryResult& q) {
  nlohmann::json hits = nlohmann::json::array();
  for (const EvalHit& h : q.hits) {
    hits.push_back({{"rank", h.rank},
                    {"chunk_id", h.chunk_id},
                    {"doc_id", h.doc_id},
                    {"doc_path", h.doc_path},
                    {"line_start", h.line_start},
                    {"line_end", h.line_end},
                    {"score", h.score},
                    {"grade", h.grade}});
  }
  nlohmann::json j = {{"id", q.id},
                      {"query", q.query},
                      {"unanswerable", q.unanswerable},
                      {"judged", q.metrics.judged},
                      {"latency_ms", q.latency_ms},
                      {"first_relevant_rank", q.metrics.first_relevant_rank},
                      {"hits", hits}};
  if (q.metrics.judged) j["metrics"] = MetricValues(q.metrics);
  if (!q.group.empty()) j["group"] = q.group;
  if (!q.difficulty.empty()) j["difficulty"] = q.difficulty;
  if (!q.error.empty()) j["error"] = q.error;
  if (q.answer) {
    const EvalAnswer& a = *q.answer;
    nlohmann::json aj = {{"answer", a.text},
                         {"trace_id", a.trace_id},
                         {"grounded", a.grounded},
                         {"citations", a.citations},
                         {"citations_complete", a.citations_complete},
                         {"latency_ms", a.latency_ms}};
    aj["refusal_reason"] = a.refusal_reason ? nlohmann::json(*a.refusal_reason) : nullptr;
    if (a.must_contain_pass) aj["must_contain_pass"] = *a.must_contain_pass;
    if (a.forbidden_pass) aj["forbidden_pass"] = *a.forbidden_pass;
    if (a.refusal_correct) aj["refusal_correct"] = *a.refusal_correct;
    j["answer"] = aj;
  }
  return j;
}

EvalQueryResult QueryFromJson(const nlohmann::json& j) {
  EvalQueryResult q;
  q.id = j.value("id", "");
  q.query = j.value("query", "");
  q.group = j.value("group", "");
  q.difficulty = j.value("difficulty", "");
  q.unanswerable = j.value("unanswerable", false);
  q.latency_ms = j.value("latency_ms", 0.0);
  q.error = j.value("error", "");
  if (j.value("judged", false)) {
    q.metrics = MetricsFromValues(j.value("metrics", nlohmann::json::object()),
                                  j.value("first_relevant_rank", 0));
  }
  for (const auto& h : j.value("hits", nlohmann::json::array())) {
    q.hits.push_back({h.value("rank", 0), h.value("chunk_id", ""), h.value("doc_id", ""),
                      h.value("doc_path", ""), h.value("line_start", 0), h.value("line_end", 0),
                      h.value("score", 0.0), h.value("grade", 0)});
  }
  if (j.contains("answer")) {
    const nlohmann::json& aj = j["answer"];
    EvalAnswer a;
    a.text = aj.value("answer", "");
    a.trace_id = aj.value("trace_id", "");
    a.grounded = aj.value("grounded", false);
    if (aj.contains("refusal_reason") && aj["refusal_reason"].is_string()) {
      a.refusal_reason = aj["refusal_reason"].get<std::string>();
    }
    a.citations = aj.value("citations", 0);
    a.citations_complete = aj.value("citations_complete", false);
    a.latency_ms = aj.value("latency_ms", 0.0);
    if (aj.contains("must_contain_pass")) a.must_contain_pass = aj["must_contain_pass"].get<bool>();
    if (aj.contains("forbidden_pass")) a.forbidden_pass = aj["forbidden_pass"].get<bool>();
    if (aj.contains("refusal_correct")) a.refusal_correct = aj["refusal_correct"].get<bool>();
    q.answer = a;
  }
  return q;
}

nlohmann::json RunJson(const EvalRun& run, bool with_queries) {
  nlohmann::json j = {{"schema_version", "eval_run.v1"},
                      {"run_id", run.run_id},
                      {"suite", run.suite},
                      {"suite_path", run.suite_path},
                      {"created_at", run.created_at},
                      {"mode", run.mode},
                      {"k", run.k},
                      {"with_rag", run.with_rag},
                      {"aggregate", run.aggregate},
                      {"config_snapshot", run.config_snapshot}};
  j["commit_hash"] = run.commit_hash ? nlohmann::json(*run.commit_hash) : nullptr;
  j["report_dir"] =
      run.report_dir.empty() ? nlohmann::json(nullptr) : nlohmann::json(run.report_dir);
  if (with_queries) {
    nlohmann::json queries = nlohmann::json::array();
    for (const EvalQueryResult& q : run.queries) queries.push_back(QueryJson(q));
    j["queries"] = std::move(queries);
  }
  return j;
}

std::string RunMarkdown(const EvalRun& run) {
  std::ostringstream md;
  md << "# Eval run " << run.run_id << "\n\n";
  md << "- suite: `" << run.suite << "` (" << run.suite_path << ")\n";
  md << "- mode: " << run.mode << ", k = " << run.k << (run.with_rag ? ", with answers" : "")
     << "\n- created: " << run.created_at << "\n";
  if (run.commit_hash) md << "- commit: " << *run.commit_hash << "\n";
  const nlohmann::json& v = run.config_snapshot.value("versions", nlohmann::json::object());
  for (const auto& [name, value] : v.items()) md << "- " << name << ": " << value.dump() << "\n";
  md << "\n| metric | value |\n|---|---|\n";
  for (const std::string& name : MetricOrder(run.aggregate)) {
    md << "| " << name << " | " << FormatMetric(name, run.aggregate.at(name)) << " |\n";
  }
  md << "\n## Queries\n\n| id | first relevant | nDCG@10 | top hit | ms |\n|---|---|---|---|---|\n";
  for (const EvalQueryResult& q : run.queries) {
    std::string first = !q.error.empty()    ? "error"
                        : !q.metrics.judged ? "—"
                        : q.metrics.first_relevant_rank > 0
                            ? std::to_string(q.metrics.first_relevant_rank)
                            : "miss";
    std::string top = q.hits.empty() ? "(no hits)" : q.hits[0].doc_path;
    md << "| " << q.id << " | " << first << " | "
       << (q.metrics.judged ? Fixed(q.metrics.ndcg10, 3) : "—") << " | " << top << " | "
       << Fixed(q.latency_ms, 1) << " |\n";
  }
  return md.str();
}

Status RecordRun(const config::Config& config, const EvalRun& run) {
  std::vector<store::EvalQueryRecord> rows;
  std::string per_query;
  for (const EvalQueryResult& q : run.queries) {
    std::string line = QueryJson(q).dump();
    per_query += line + "\n";
    rows.push_back({q.id, std::move(line)});
  }
  {
    KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(config, /*readonly=*/false));
    store::EvalRunRecord record{.run_id = run.run_id,
                                .suite = run.suite,
                                .config_snapshot_json = RunJson(run, false).dump(),
                                .aggregate_json = nlohmann::json(run.aggregate).dump(),
                                .commit_hash = run.commit_hash,
                                .created_at = run.created_at};
    KEBAB_RETURN_IF_ERROR(store->RecordEvalRun(record, rows));
  }
  std::error_code ec;
  fs::create_directories(run.report_dir, ec);
  if (ec) return IoError("cannot create " + run.report_dir + ": " + ec.message());
  const fs::path dir = run.report_dir;
  KEBAB_RETURN_IF_ERROR(WriteFileAtomically((dir / "per_query.jsonl").string(), per_query));
  KEBAB_RETURN_IF_ERROR(
      WriteFileAtomically((dir / "report.json").string(), RunJson(run, true).dump(2) + "\n"));
  return WriteFileAtomically((dir / "report.md").string(), RunMarkdown(run));
}

Result<std::optional<EvalRun>> LoadRun(store::Store& store, const std::string& run_id,
                                       const std::string& runs_dir) {
  KEBAB_ASSIGN_OR_RETURN(auto record, store.GetEvalRun(run_id));
  if (!record) return std::optional<EvalRun>();
  // config_snapshot_json holds the run's header (RunJson without queries), so a run loads
  // back whole from the store alone.
  const nlohmann::json head = nlohmann::json::parse(record->config_snapshot_json, nullptr, false);
  EvalRun run;
  run.run_id = record->run_id;
  run.suite = record->suite;
  run.created_at = record->created_at;
  run.commit_hash = record->commit_hash;
  if (head.is_object()) {
    run.suite_path = head.value("suite_path", "");
    run.mode = head.value("mode", "");
    run.k = head.value("k", 0);
    run.with_rag = head.value("with_rag", false);
    run.config_snapshot = head.value("config_snapshot", nlohmann::json::object());
  }
  const nlohmann::json aggregate = nlohmann::json::parse(record->aggregate_json, nullptr, false);
  if (aggregate.is_object()) run.aggregate = aggregate.get<std::map<std::string, double>>();
  KEBAB_ASSIGN_OR_RETURN(auto rows, store.EvalQueryResults(run_id));
  for (const store::EvalQueryRecord& row : rows) {
    const nlohmann::json j = nlohmann::json::parse(row.result_json, nullptr, false);
    if (j.is_object()) run.queries.push_back(QueryFromJson(j));
  }
  run.report_dir = (fs::path(runs_dir) / run.run_id).string();
  return std::optional<EvalRun>(std::move(run));
}

}  // namespace kebab::app::internal

namespace kebab::app {

std::string FormatMetric(const std::string& name, double value) {
  if (name.ends_with("_queries")) return internal::Fixed(value, 0);
  return internal::Fixed(value, name.ends_with("_ms") ? 1 : 4);
}

}  // namespace kebab::app
