// Stored eval runs: finding one (in the configured store or a collection's), listing them,
// re-aggregating and comparing two.
#include <algorithm>
#include <filesystem>
#include <set>

#include "app/eval.h"
#include "app/internal/eval_report.h"
#include "app/internal_store.h"

namespace kebab::app {

namespace fs = std::filesystem;

namespace {

// The configured store and every imported collection's, each with the config that opens it;
// collection is "" for the configured store.
std::vector<std::pair<std::string, config::Config>> EvalStores(const config::Config& config) {
  std::vector<std::pair<std::string, config::Config>> out = {{"", config}};
  std::error_code ec;
  const fs::path root = fs::path(config.storage.data_dir) / "eval";
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (entry.is_directory(ec)) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) out.emplace_back(name, CollectionConfig(config, name));
  return out;
}

bool StoreExists(const config::Config& config) {
  std::error_code ec;
  return fs::is_regular_file(config.storage.sqlite, ec);
}

struct FoundRun {
  EvalRun run;
  config::Config config;  // of the store that holds it
};

Result<FoundRun> FindRun(const config::Config& config, const std::string& run_id) {
  for (const auto& [name, c] : EvalStores(config)) {
    if (!StoreExists(c)) continue;
    KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(c, /*readonly=*/true));
    KEBAB_ASSIGN_OR_RETURN(auto run, internal::LoadRun(*store, run_id, c.storage.runs_dir));
    if (run) return FoundRun{std::move(*run), c};
  }
  return InvalidInput("no eval run " + run_id, "`kebab eval list` shows the stored runs");
}

// A query's value of `metric`, judged queries only.
std::optional<double> QueryValue(const EvalQueryResult& q, const std::string& metric) {
  if (!q.metrics.judged || !q.error.empty()) return std::nullopt;
  const std::map<std::string, double> values = internal::MetricValues(q.metrics);
  auto it = values.find(metric);
  return it == values.end() ? std::nullopt : std::optional<double>(it->second);
}

bool FoundWithin(const EvalQueryResult& q, int k) {
  return q.metrics.first_relevant_rank > 0 && q.metrics.first_relevant_rank <= k;
}

}  // namespace

Result<EvalRun> LoadEvalRun(Session& session, const std::string& run_id) {
  const config::Config& config = session.config();
  KEBAB_ASSIGN_OR_RETURN(FoundRun found, FindRun(config, run_id));
  return std::move(found.run);
}

Result<EvalRun> AggregateEvalRun(Session& session, const std::string& run_id) {
  KEBAB_RETURN_IF_ERROR(session.CheckWritable("eval aggregate"));
  const config::Config& config = session.config();
  KEBAB_ASSIGN_OR_RETURN(FoundRun found, FindRun(config, run_id));
  found.run.aggregate = internal::Aggregate(found.run.queries);
  KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(found.config, /*readonly=*/false));
  KEBAB_RETURN_IF_ERROR(
      store->SetEvalAggregate(run_id, nlohmann::json(found.run.aggregate).dump()));
  return std::move(found.run);
}

Result<std::vector<EvalRunSummary>> ListEvalRuns(Session& session, int limit) {
  const config::Config& config = session.config();
  std::vector<EvalRunSummary> out;
  for (const auto& [name, c] : EvalStores(config)) {
    if (!StoreExists(c)) continue;
    KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(c, /*readonly=*/true));
    if (store->schema_version() < 6) continue;  // made before eval runs were stored
    KEBAB_ASSIGN_OR_RETURN(auto records, store->ListEvalRuns(limit));
    for (const store::EvalRunRecord& r : records) {
      EvalRunSummary s{.run_id = r.run_id, .suite = r.suite, .created_at = r.created_at};
      s.store = name;
      const auto head = nlohmann::json::parse(r.config_snapshot_json, nullptr, false);
      if (head.is_object()) {
        s.mode = head.value("mode", "");
        s.k = head.value("k", 0);
      }
      const auto aggregate = nlohmann::json::parse(r.aggregate_json, nullptr, false);
      if (aggregate.is_object()) {
        s.aggregate = aggregate.get<std::map<std::string, double>>();
        s.queries = static_cast<int>(s.aggregate["total_queries"]);
      }
      out.push_back(std::move(s));
    }
  }
  // Run ids are UUIDv7: their order is their time order across stores too.
  std::sort(out.begin(), out.end(),
            [](const auto& x, const auto& y) { return x.run_id > y.run_id; });
  if (limit > 0 && static_cast<int>(out.size()) > limit) out.resize(limit);
  return out;
}

Result<EvalComparison> CompareEvalRuns(Session& session, const std::string& a, const std::string& b,
                                       const std::string& metric, double threshold) {
  const config::Config& config = session.config();
  KEBAB_ASSIGN_OR_RETURN(FoundRun run_a, FindRun(config, a));
  KEBAB_ASSIGN_OR_RETURN(FoundRun run_b, FindRun(config, b));
  EvalComparison c;
  c.a = std::move(run_a.run);
  c.b = std::move(run_b.run);
  c.metric = metric;
  c.threshold = threshold;
  if (!c.a.aggregate.count(metric) || !c.b.aggregate.count(metric)) {
    std::string known;
    for (const auto& [name, v] : c.b.aggregate) known += (known.empty() ? "" : ", ") + name;
    return InvalidInput("metric `" + metric + "` is not in both runs", "choose one of: " + known);
  }
  c.suites_differ = c.a.suite != c.b.suite;
  for (const std::string& name : internal::MetricOrder(c.b.aggregate)) {
    if (auto it = c.a.aggregate.find(name); it != c.a.aggregate.end()) {
      c.deltas.push_back({name, it->second, c.b.aggregate.at(name)});
    }
  }
  std::map<std::string, const EvalQueryResult*> in_a;
  for (const EvalQueryResult& q : c.a.queries) in_a[q.id] = &q;
  std::set<std::string> seen;
  const int k = std::min(c.a.k, c.b.k);
  for (const EvalQueryResult& qb : c.b.queries) {
    auto it = in_a.find(qb.id);
    if (it == in_a.end()) {
      c.only_in_b.push_back(qb.id);
      continue;
    }
    seen.insert(qb.id);
    const std::optional<double> va = QueryValue(*it->second, metric), vb = QueryValue(qb, metric);
    if (!va || !vb) continue;
    EvalComparison::QueryChange change{qb.id, qb.query, *va, *vb, "draw"};
    constexpr double kEpsilon = 1e-9;
    if (FoundWithin(*it->second, k) && !FoundWithin(qb, k)) {
      change.kind = "regression";
      ++c.regressions;
    } else if (*vb > *va + kEpsilon) {
      change.kind = "win";
      ++c.wins;
    } else if (*vb < *va - kEpsilon) {
      change.kind = "loss";
      ++c.losses;
    } else {
      ++c.draws;
    }
    c.queries.push_back(std::move(change));
  }
  for (const EvalQueryResult& qa : c.a.queries) {
    if (!seen.count(qa.id)) c.only_in_a.push_back(qa.id);
  }
  c.failed = c.a.aggregate[metric] - c.b.aggregate[metric] > threshold;
  return c;
}

}  // namespace kebab::app
