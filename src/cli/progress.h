// Ingest progress: on a terminal, one redrawn stderr line with the current file, count, rate
// and ETA, refreshed at most 10 times a second (ProgressBar); with --json, the
// ingest_progress.v1 lines on stdout (JsonProgress).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "app/ingest.h"

namespace kebab::cli {

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}
  void OnEvent(const app::IngestEvent& event);
  void Finish();

 private:
  void Draw(bool force);
  bool enabled_;
  int64_t total_ = 0, done_ = 0, embedded_ = 0;
  int64_t start_ms_ = 0, last_draw_ms_ = 0;
  std::string current_;
  bool drawn_ = false;
};

// Writes ingest_progress.v1 lines to `out` in groups of up to 64 KiB: a fast ingest emits two
// lines per file, tens of thousands a second, and a pipe reader woken for every 4 KiB stdio
// buffer took CPU from the ingest. Lines wait at most until the next event 50 ms after the
// last write, so a slow ingest still streams each line as it comes; events other than
// per-file ones are written at once.
class JsonProgress {
 public:
  explicit JsonProgress(std::FILE* out) : out_(out) {}
  ~JsonProgress() { Flush(); }
  JsonProgress(const JsonProgress&) = delete;
  JsonProgress& operator=(const JsonProgress&) = delete;
  void OnEvent(const app::IngestEvent& event);
  void Flush();

 private:
  std::FILE* out_;
  std::string pending_;
  int64_t last_write_ms_ = 0;
};

}  // namespace kebab::cli
