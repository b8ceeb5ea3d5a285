// The wire objects a client of `kebab serve` renders with the same code as an in-process call:
// ingest_progress.v1 and ingest_report.v1 back into the structs they were made from (wire.h).
#include <utility>

#include "app/wire.h"

namespace kebab::app::wire {
namespace {

int64_t Int(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<int64_t>() : 0;
}

std::string Text(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

IngestCounts CountsOf(const json& j) {
  IngestCounts c;
  c.scanned = Int(j, "scanned");
  c.new_docs = Int(j, "new");
  c.updated = Int(j, "updated");
  c.unchanged = Int(j, "unchanged");
  c.skipped = Int(j, "skipped");
  c.errors = Int(j, "errors");
  c.purged = Int(j, "purged");
  c.chunks_indexed = Int(j, "chunks_indexed");
  c.embeddings_indexed = Int(j, "embeddings_indexed");
  return c;
}

}  // namespace

Result<IngestEvent> ParseIngestProgress(const json& j) {
  using K = IngestEvent::Kind;
  static constexpr std::pair<const char*, K> kKinds[] = {
      {"scan_started", K::kScanStarted},
      {"scan_completed", K::kScanCompleted},
      {"asset_started", K::kAssetStarted},
      {"asset_progress", K::kAssetProgress},
      {"pdf_ocr_started", K::kOcrStarted},
      {"pdf_ocr_finished", K::kOcrFinished},
      {"asset_finished", K::kAssetFinished},
      {"purged", K::kPurged},
      {"embed_batch_started", K::kEmbedBatchStarted},
      {"embed_batch_finished", K::kEmbedBatchFinished},
      {"index_started", K::kIndexStarted},
      {"index_finished", K::kIndexFinished},
      {"completed", K::kCompleted},
      {"aborted", K::kAborted},
  };
  const std::string kind = Text(j, "kind");
  IngestEvent e{};
  bool known = false;
  for (const auto& [name, k] : kKinds) {
    if (kind == name) {
      e.kind = k;
      known = true;
    }
  }
  if (!known) return InvalidInput("not an ingest_progress.v1 kind: '" + kind + "'");
  e.ts = Text(j, "ts");
  e.root = Text(j, "root");
  e.total = Int(j, "total");
  e.idx = Int(j, "idx");
  e.path = Text(j, "path");
  e.done = Int(j, "done");
  e.of = Int(j, "of");
  e.unit = Text(j, "unit");
  e.media = Text(j, "media");
  e.result = Text(j, "result");
  e.chunks = static_cast<int>(Int(j, e.kind == K::kAssetFinished ? "chunks" : "n_chunks"));
  e.ms = Int(j, "ms");
  e.index_kind = Text(j, "index_kind");
  e.vectors = Int(j, "vectors");
  e.page = static_cast<int>(Int(j, "page"));
  e.ocr_chars = Int(j, "chars");
  e.ocr_cached = j.value("cached", false);
  e.ocr_engine = Text(j, "ocr_engine");
  e.failure = Text(j, "failure_reason");
  if (j.contains("counts") && j["counts"].is_object()) e.counts = CountsOf(j["counts"]);
  return e;
}

Result<app::IngestReport> ParseIngestReport(const json& j) {
  if (Text(j, "schema_version") != "ingest_report.v1") {
    return InvalidInput("not an ingest_report.v1 object");
  }
  app::IngestReport r;
  r.run_id = Text(j, "run_id");
  if (j.contains("scope") && j["scope"].is_object()) {
    r.root = Text(j["scope"], "root");
    r.exclude = j["scope"].value("exclude", std::vector<std::string>());
  }
  r.counts = CountsOf(j);
  r.duration_ms = Int(j, "duration_ms");
  r.aborted = j.value("aborted", false);
  r.corpus_revision = Int(j, "corpus_revision");
  r.skipped_by_extension = j.value("skipped_by_extension", std::map<std::string, uint64_t>());
  r.skip_examples = j.value("skip_examples", std::map<std::string, std::vector<std::string>>());
  r.warnings = j.value("warnings", std::vector<std::string>());
  r.purge_withheld = Int(j, "purge_withheld");
  for (const auto& [key, value] : j.items()) {
    if (key.starts_with("skipped_") && key != "skipped_by_extension" && value.is_number() &&
        value.get<uint64_t>() > 0) {
      r.skipped_by_reason[key.substr(8)] = value.get<uint64_t>();
    }
  }
  if (j.contains("items") && j["items"].is_array()) {
    r.items.emplace();
    for (const json& i : j["items"]) {
      IngestItem item;
      item.kind = Text(i, "kind");
      item.doc_id = Text(i, "doc_id");
      item.doc_path = Text(i, "doc_path");
      item.asset_id = Text(i, "asset_id");
      item.byte_len = static_cast<uint64_t>(Int(i, "byte_len"));
      item.block_count = static_cast<int>(Int(i, "block_count"));
      item.chunk_count = static_cast<int>(Int(i, "chunk_count"));
      item.parser_version = Text(i, "parser_version");
      item.chunker_version = Text(i, "chunker_version");
      item.warnings = i.value("warnings", std::vector<std::string>());
      item.error = Text(i, "error");
      item.ocr_pages = static_cast<int>(Int(i, "ocr_pages"));
      item.ocr_ms = Int(i, "ocr_ms");
      r.items->push_back(std::move(item));
    }
  }
  return r;
}

}  // namespace kebab::app::wire
