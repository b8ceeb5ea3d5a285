// Live ingest progress on a terminal: one redrawn stderr line with the current file, count,
// rate and ETA, refreshed at most 10 times a second.
#pragma once

#include <cstdint>
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

}  // namespace kebab::cli
