#include <algorithm>
#include <map>

#include "core/time.h"
#include "store/store.h"

namespace kebab::store {

Result<std::optional<std::string>> Store::GetDerivation(const std::string& key) {
  if (schema_version() < 8) return std::optional<std::string>();
  Statement q(db_, "SELECT payload FROM derivations WHERE cache_key = ?1");
  q.Bind(1, key);
  Status st;
  if (q.Step(&st)) return std::optional<std::string>(q.ColumnText(0));
  KEBAB_RETURN_IF_ERROR(st);
  return std::optional<std::string>();
}

Status Store::PutDerivations(const std::vector<DerivationRow>& rows,
                             const std::vector<OcrEventRecord>& events) {
  if (rows.empty() && events.empty()) return Status::OK();
  return Atomically([&]() -> Status {
    const std::string now = NowRfc3339();
    Statement put(db_,
                  "INSERT OR REPLACE INTO derivations(cache_key, kind, payload, created_at) "
                  "VALUES (?1, ?2, ?3, ?4)");
    for (const DerivationRow& r : rows) {
      KEBAB_RETURN_IF_ERROR(
          put.Bind(1, r.key).Bind(2, r.kind).Bind(3, r.payload).Bind(4, now).Run());
    }
    Statement log(db_,
                  "INSERT INTO ocr_events(run_id, ts, doc_path, page, ms, chars, cached, engine, "
                  "failure) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    for (const OcrEventRecord& e : events) {
      log.Bind(1, e.run_id)
          .Bind(2, e.ts)
          .Bind(3, e.doc_path)
          .Bind(4, e.page)
          .Bind(5, e.ms)
          .Bind(6, e.chars)
          .Bind(7, e.cached ? 1 : 0)
          .Bind(8, e.engine);
      if (e.failure) {
        log.Bind(9, *e.failure);
      } else {
        log.BindNull(9);
      }
      KEBAB_RETURN_IF_ERROR(log.Run());
    }
    return Status::OK();
  });
}

Result<std::vector<OcrEventRecord>> Store::OcrEvents(const std::optional<std::string>& doc_path,
                                                     bool failures_only, int limit) {
  std::vector<OcrEventRecord> out;
  if (schema_version() < 8) return out;  // a file from before OCR, read without migrating
  Statement q(db_,
              "SELECT run_id, ts, doc_path, page, ms, chars, cached, engine, failure "
              "FROM ocr_events WHERE (?1 IS NULL OR doc_path = ?1) "
              "AND (?2 = 0 OR failure IS NOT NULL) ORDER BY id DESC LIMIT ?3");
  if (doc_path) {
    q.Bind(1, *doc_path);
  } else {
    q.BindNull(1);
  }
  q.Bind(2, failures_only ? 1 : 0).Bind(3, limit > 0 ? limit : -1);
  Status st;
  while (q.Step(&st)) {
    OcrEventRecord e;
    e.run_id = q.ColumnText(0);
    e.ts = q.ColumnText(1);
    e.doc_path = q.ColumnText(2);
    e.page = static_cast<int>(q.ColumnInt(3));
    e.ms = q.ColumnInt(4);
    e.chars = q.ColumnInt(5);
    e.cached = q.ColumnInt(6) != 0;
    e.engine = q.ColumnText(7);
    if (!q.ColumnIsNull(8)) e.failure = q.ColumnText(8);
    out.push_back(std::move(e));
  }
  KEBAB_RETURN_IF_ERROR(st);
  return out;
}

Result<OcrStats> Store::ComputeOcrStats() {
  KEBAB_ASSIGN_OR_RETURN(std::vector<OcrEventRecord> events, OcrEvents(std::nullopt, false, 0));
  OcrStats stats;
  stats.total_events = static_cast<int64_t>(events.size());
  std::vector<int64_t> read_ms;
  std::map<std::string, int64_t> runs, engines;
  std::map<std::string, OcrStatsRow> docs;
  for (const OcrEventRecord& e : events) {
    ++runs[e.run_id];
    ++engines[e.engine];
    OcrStatsRow& d = docs[e.doc_path];
    d.doc_path = e.doc_path;
    ++d.pages;
    if (e.failure) {
      ++stats.failure_count;
      ++d.failures;
      continue;
    }
    ++stats.success_count;
    d.chars += e.chars;
    if (e.cached) {
      ++stats.cached_count;
      ++d.cached;
    } else {
      read_ms.push_back(e.ms);
      d.ms_total += e.ms;
    }
  }
  stats.total_runs = static_cast<int64_t>(runs.size());
  std::sort(read_ms.begin(), read_ms.end());
  auto quantile = [&](double q) -> int64_t {
    if (read_ms.empty()) return 0;
    const auto i = static_cast<size_t>(q * static_cast<double>(read_ms.size() - 1) + 0.5);
    return read_ms[std::min(i, read_ms.size() - 1)];
  };
  stats.p50_ms = quantile(0.5);
  stats.p90_ms = quantile(0.9);
  stats.p99_ms = quantile(0.99);
  stats.max_ms = read_ms.empty() ? 0 : read_ms.back();
  stats.by_engine.assign(engines.begin(), engines.end());
  for (auto& [path, row] : docs) stats.by_doc.push_back(std::move(row));
  std::stable_sort(stats.by_doc.begin(), stats.by_doc.end(),
                   [](const OcrStatsRow& a, const OcrStatsRow& b) { return a.pages > b.pages; });
  return stats;
}

}  // namespace kebab::store
