// Ingest through the facade: walk → read + hash → (unchanged? skip) → parse → chunk → write,
// with parsing on worker threads and one writer. Progress flows out through an event
// callback; cancellation flows in through a flag checked between documents.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/session.h"
#include "config/config.h"
#include "core/status.h"

namespace kebab::app {

struct IngestOptions {
  std::optional<std::string> root;  // overrides workspace.root for this run
  bool force_reingest = false;      // re-parse even unchanged files
  bool summary_only = false;        // omit per-file items from the report
  // Purge documents whose files are gone even when the sweep looks like a vanished root
  // (internal::DecidePurge): the user says they were deleted on purpose.
  bool purge = false;
  // Ingest exactly these files (absolute paths under the root) instead of walking it; used by
  // ingest-file / ingest-stdin. Ignore rules and the deleted-file sweep do not apply.
  std::vector<std::string> explicit_files;
};

struct IngestCounts {
  int64_t scanned = 0, new_docs = 0, updated = 0, unchanged = 0, skipped = 0, errors = 0,
          purged = 0, chunks_indexed = 0, embeddings_indexed = 0;
};

struct IngestItem {
  std::string kind;  // new | updated | unchanged | error | purged
  std::string doc_id, doc_path, asset_id;
  uint64_t byte_len = 0;
  int block_count = 0, chunk_count = 0;
  std::string parser_version, chunker_version;
  std::vector<std::string> warnings;
  std::string error;
  int ocr_pages = 0;   // pages or images OCR read (from its cache or not)
  int64_t ocr_ms = 0;  // time OCR spent on them
};

struct IngestEvent {
  enum class Kind {
    kScanStarted,
    kScanCompleted,
    kAssetStarted,
    kAssetProgress,
    kOcrStarted,   // pdf_ocr_started: a page (or image) OCR begins to read
    kOcrFinished,  // pdf_ocr_finished
    kAssetFinished,
    kPurged,
    kEmbedBatchStarted,
    kEmbedBatchFinished,
    kIndexStarted,
    kIndexFinished,
    kCompleted,
    kAborted
  };
  Kind kind;
  std::string ts;
  std::string root;          // scan_started
  int64_t total = 0;         // scan_completed, asset_*
  int64_t idx = 0;           // asset_* (1-based)
  std::string path;          // asset_*, purged
  int64_t done = 0, of = 0;  // asset_progress: `unit`s of the file read so far, of its total
  std::string unit;          // asset_progress: "page"
  std::string media;         // asset_started
  std::string result;        // asset_finished: new | updated | unchanged | skipped | error
  int chunks = 0;            // asset_finished; embed_batch_*: texts in the batch
  int64_t ms = 0;            // asset_finished, embed_batch_finished, index_finished
  std::string index_kind;    // index_finished: exact | hnsw
  int64_t vectors = 0;       // index_finished: vectors in the index
  int page = 0;              // ocr_*: 1-based page or frame (1 for a lone image)
  int64_t ocr_chars = 0;     // ocr_finished
  bool ocr_cached = false;   // ocr_finished: read from the OCR cache
  std::string ocr_engine;    // ocr_finished
  std::string failure;       // ocr_finished: why the page could not be read
  IngestCounts counts;       // completed / aborted
};

using IngestEventSink = std::function<void(const IngestEvent&)>;

struct IngestReport {
  std::string run_id;
  std::string root;
  std::vector<std::string> exclude;
  IngestCounts counts;
  int64_t duration_ms = 0;
  bool aborted = false;
  int64_t corpus_revision = 0;
  std::map<std::string, uint64_t> skipped_by_reason;
  std::map<std::string, std::vector<std::string>> skip_examples;
  std::map<std::string, uint64_t> skipped_by_extension;
  std::vector<std::string> warnings;  // run-level (unreadable directories, ...)
  // Documents whose files are gone but that were kept: the sweep waits for `--purge`.
  int64_t purge_withheld = 0;
  std::optional<std::vector<IngestItem>> items;
};

// Runs one ingest. `cancel` may be null. Per-file failures are items of kind "error", not a
// failed Status; the Status fails only when the run cannot proceed (no root, store error).
Result<IngestReport> Ingest(Session& session, const IngestOptions& options,
                            const IngestEventSink& on_event, const std::atomic<bool>* cancel);

// invalid_input naming the medium when kebab has no extractor for `file`'s medium (by its
// name), with the media it can read as the hint.
Status CheckReadable(const std::string& file);

// Copies `file` into <root>/_external/<blake3-12>.<ext> (adding `_external/` to the root's
// .kebabignore) and ingests it. Any medium CheckReadable accepts.
Result<IngestReport> IngestFile(Session& session, const std::string& file);

// Stores `body` as <root>/_external/<blake3-12>.md with a `title` front matter and ingests it.
Result<IngestReport> IngestText(Session& session, const std::string& title,
                                const std::string& body);

}  // namespace kebab::app
