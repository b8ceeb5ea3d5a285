// Ingest progress: on a terminal, one redrawn stderr line with the current file, count, rate
// and ETA, refreshed at most 10 times a second (ProgressBar); with --json, the
// ingest_progress.v1 lines on stdout (JsonProgress).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "app/ingest.h"

namespace kebab::cli {

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}
  void OnEvent(const app::IngestEvent& event);
  void Finish();

 private:
  void Draw(bool force);
  // "(page 3 of 41)", or for a recording "(1:30 of 45:00 transcribed, ETA 14 min)".
  std::string AssetProgress(const app::IngestEvent& e);

  bool enabled_;
  int64_t total_ = 0, done_ = 0, embedded_ = 0;
  int64_t ocr_pages_ = 0, ocr_cached_ = 0;  // pages OCR has finished, of them from its cache
  int64_t start_ms_ = 0, last_draw_ms_ = 0;
  std::string current_;
  bool drawn_ = false;
  // Recordings being transcribed: when their first progress came and how far it was then,
  // for an ETA at the rate since.
  struct Pace {
    int64_t ms = 0, done = 0;
  };
  std::unordered_map<std::string, Pace> pace_;
};

// Writes ingest_progress.v1 lines to `out` in groups of up to 64 KiB: a fast ingest emits two
// lines per file, tens of thousands a second, and a pipe reader woken for every 4 KiB stdio
// buffer took CPU from the ingest. No line waits more than 50 ms after the last write: a
// thread, started with the first line held back, writes what an idle ingest leaves pending
// (the last file's lines before a slow one). Events other than per-file ones are written at
// once.
class JsonProgress {
 public:
  explicit JsonProgress(std::FILE* out) : out_(out) {}
  ~JsonProgress();
  JsonProgress(const JsonProgress&) = delete;
  JsonProgress& operator=(const JsonProgress&) = delete;
  void OnEvent(const app::IngestEvent& event);
  // Writes the pending lines now.
  void Flush();

 private:
  static constexpr int64_t kMaxWaitMs = 50;
  // A full pipe still stalls the ingest soon after its reader stops (see test_interrupt.py).
  static constexpr size_t kMaxPendingBytes = 64 << 10;

  void WriteLocked();  // mu_ held
  void RunFlusher();

  std::FILE* out_;
  std::mutex mu_;
  std::condition_variable held_;  // a line is pending, or the flusher must stop
  std::string pending_;
  int64_t last_write_ms_ = 0;
  bool stopping_ = false;
  std::thread flusher_;
};

}  // namespace kebab::cli
