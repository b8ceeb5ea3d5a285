// ocr_stats.v1 and ocr_failures.v1: what `kebab inspect ocr-stats` and `ocr-failures` print.
#include "app/wire.h"

namespace kebab::app::wire {

json OcrStats(const store::OcrStats& s) {
  json engines = json::object();
  for (const auto& [engine, n] : s.by_engine) engines[engine] = n;
  json docs = json::array();
  for (const store::OcrStatsRow& d : s.by_doc) {
    docs.push_back({{"doc_path", d.doc_path},
                    {"pages", d.pages},
                    {"failures", d.failures},
                    {"cached", d.cached},
                    {"chars", d.chars},
                    {"ms_total", d.ms_total}});
  }
  const int64_t done = s.success_count + s.failure_count;
  return {{"schema_version", "ocr_stats.v1"},
          {"total_events", s.total_events},
          {"total_runs", s.total_runs},
          {"success_count", s.success_count},
          {"failure_count", s.failure_count},
          {"cached_count", s.cached_count},
          {"success_rate", done > 0 ? static_cast<double>(s.success_count) / done : 0.0},
          {"p50_ms", s.p50_ms},
          {"p90_ms", s.p90_ms},
          {"p99_ms", s.p99_ms},
          {"max_ms", s.max_ms},
          {"by_engine", std::move(engines)},
          {"by_doc", std::move(docs)}};
}

json OcrFailures(const app::OcrFailures& f) {
  json failures = json::array();
  for (const store::OcrEventRecord& e : f.failures) {
    failures.push_back({{"ts", e.ts},
                        {"doc_path", e.doc_path},
                        {"page", e.page},
                        {"ms", e.ms},
                        {"reason", e.failure.value_or("")},
                        {"engine", e.engine},
                        {"run_id", e.run_id}});
  }
  return {{"schema_version", "ocr_failures.v1"},
          {"doc_id", f.doc_id ? json(*f.doc_id) : json(nullptr)},
          {"failure_count", f.failures.size()},
          {"failures", std::move(failures)}};
}

}  // namespace kebab::app::wire
