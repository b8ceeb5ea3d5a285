// The eval tables (schema V006): one row per `kebab eval run` with its config snapshot and
// means, and one row per query with its hits and metrics, all as JSON the eval module owns.
#pragma once

#include <optional>
#include <string>

namespace kebab::store {

struct EvalRunRecord {
  std::string run_id, suite;
  std::string config_snapshot_json, aggregate_json;
  std::optional<std::string> commit_hash;
  std::string created_at;
};

struct EvalQueryRecord {
  std::string query_id, result_json;
};

}  // namespace kebab::store
