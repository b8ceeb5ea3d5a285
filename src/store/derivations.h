// The derivation cache and OCR log (schema V008). `derivations` keeps what was derived from a
// file's content at some cost (OCR pages, captions), keyed by a hash of that content and every
// setting that changes the result, so a renamed, moved or re-ingested file is never read
// twice; it is not part of the corpus (no corpus_revision bump), and `kebab reset` clears it.
// `ocr_events` logs each page OCR read or failed on, for `kebab inspect ocr-stats` and
// `ocr-failures`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kebab::store {

struct DerivationRow {
  std::string key;   // 32 hex
  std::string kind;  // ocr | caption
  std::string payload;
};

struct OcrEventRecord {
  std::string run_id;
  std::string ts;  // RFC 3339
  std::string doc_path;
  int page = 0;  // 1-based page or frame (1 for a lone image)
  int64_t ms = 0;
  int64_t chars = 0;
  bool cached = false;
  std::string engine;
  std::optional<std::string> failure;
};

struct OcrStatsRow {
  std::string doc_path;
  int64_t pages = 0, failures = 0, cached = 0, chars = 0, ms_total = 0;
};

struct OcrStats {
  int64_t total_events = 0, total_runs = 0, success_count = 0, failure_count = 0, cached_count = 0;
  int64_t p50_ms = 0, p90_ms = 0, p99_ms = 0, max_ms = 0;  // pages actually read (not cached)
  std::vector<std::pair<std::string, int64_t>> by_engine;  // engine → events
  std::vector<OcrStatsRow> by_doc;                         // most pages first
};

}  // namespace kebab::store
