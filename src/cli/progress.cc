#include "cli/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "app/wire.h"
#include "core/time.h"
#include "core/unicode.h"

namespace kebab::cli {

void ProgressBar::OnEvent(const app::IngestEvent& e) {
  if (!enabled_) return;
  using K = app::IngestEvent::Kind;
  switch (e.kind) {
    case K::kScanStarted:
      start_ms_ = MonotonicMillis();
      current_ = "scanning " + e.root;
      Draw(true);
      break;
    case K::kScanCompleted:
      total_ = e.total;
      Draw(true);
      break;
    case K::kAssetStarted:
      current_ = e.path;
      break;
    case K::kAssetProgress:
      // A long file being read (its pages, a recording's seconds), ahead of its turn to be
      // written.
      current_ = e.path + " " + AssetProgress(e);
      Draw(false);
      break;
    case K::kOcrStarted:
      current_ = e.path + (e.media == "pdf" ? " (OCR of page " + std::to_string(e.page) + ")"
                                            : std::string(" (OCR)"));
      Draw(false);
      break;
    case K::kOcrFinished:
      ++ocr_pages_;
      ocr_cached_ += e.ocr_cached ? 1 : 0;
      Draw(false);
      break;
    case K::kAssetFinished:
      pace_.erase(e.path);
      done_ = e.idx;
      Draw(false);
      break;
    case K::kEmbedBatchFinished:
      // Embedding runs beside parsing: the count rides on the file line until the files are
      // done, then the line is about embedding alone.
      embedded_ += e.chunks;
      if (done_ >= total_) current_ = "embedding chunks (" + std::to_string(embedded_) + " done)";
      Draw(done_ >= total_);
      break;
    case K::kIndexStarted:
      current_ = "updating the vector index";
      Draw(true);
      break;
    default:
      break;
  }
}

std::string ProgressBar::AssetProgress(const app::IngestEvent& e) {
  if (e.unit != "second") {
    return "(" + e.unit + " " + std::to_string(e.done) + " of " + std::to_string(e.of) + ")";
  }
  const auto clock = FormatLength;
  const int64_t now = MonotonicMillis();
  auto [pace, first] = pace_.try_emplace(e.path, Pace{now, e.done});
  std::string text = "(" + clock(e.done) + " of " + clock(e.of) + " transcribed";
  const int64_t heard = e.done - pace->second.done, took_ms = now - pace->second.ms;
  if (!first && heard > 0 && took_ms > 0) {
    const int64_t eta = (e.of - e.done) * took_ms / heard / 1000;
    text +=
        ", ETA " + (eta >= 120 ? std::to_string(eta / 60) + " min" : std::to_string(eta) + " s");
  }
  return text + ")";
}

void ProgressBar::Draw(bool force) {
  const int64_t now = MonotonicMillis();
  if (!force && now - last_draw_ms_ < 100) return;
  last_draw_ms_ = now;
  struct winsize ws {};
  int width = ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col : 80;
  const double secs = std::max<int64_t>(now - start_ms_, 1) / 1000.0;
  const double rate = done_ / secs;
  char stats[128];
  if (total_ > 0) {
    const int bar = 20;
    int filled = static_cast<int>(bar * done_ / total_);
    std::string b(static_cast<size_t>(filled), '=');
    b.resize(bar, ' ');
    double eta = rate > 0 ? (total_ - done_) / rate : 0;
    std::snprintf(stats, sizeof stats, "[%s] %lld/%lld %.0f files/s ETA %.0fs ", b.c_str(),
                  static_cast<long long>(done_), static_cast<long long>(total_), rate, eta);
  } else {
    std::snprintf(stats, sizeof stats, "%s ", "…");
  }
  std::string line = stats;
  if (ocr_pages_ > 0) {
    line += std::to_string(ocr_pages_) + " OCR pages" +
            (ocr_cached_ > 0 ? " (" + std::to_string(ocr_cached_) + " cached) " : " ");
  }
  if (embedded_ > 0 && done_ < total_) line += std::to_string(embedded_) + " embedded ";
  int room = width - static_cast<int>(line.size()) - 1;
  std::string file = current_;
  if (room > 3 && static_cast<int>(Utf8Length(file)) > room) {
    std::string_view f = current_;
    while (Utf8Length(f) > static_cast<size_t>(room - 1)) {
      size_t skip = 1;
      while (skip < f.size() && (static_cast<unsigned char>(f[skip]) & 0xC0) == 0x80) ++skip;
      f.remove_prefix(skip);
    }
    file = "…" + std::string(f);
  } else if (room <= 3) {
    file.clear();
  }
  line += file;
  std::fprintf(stderr, "\r\033[2K%s", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::Finish() {
  if (enabled_ && drawn_) {
    std::fprintf(stderr, "\r\033[2K");
    std::fflush(stderr);
  }
}

JsonProgress::~JsonProgress() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  held_.notify_all();
  if (flusher_.joinable()) flusher_.join();
  Flush();
}

void JsonProgress::OnEvent(const app::IngestEvent& e) {
  using K = app::IngestEvent::Kind;
  const std::string line = app::wire::IngestProgressLine(e);
  const bool per_file = e.kind == K::kAssetStarted || e.kind == K::kAssetFinished;
  std::lock_guard lock(mu_);
  const bool held_before = !pending_.empty();
  pending_ += line;
  if (!per_file || pending_.size() >= kMaxPendingBytes ||
      MonotonicMillis() - last_write_ms_ >= kMaxWaitMs) {
    WriteLocked();
    return;
  }
  if (!flusher_.joinable()) flusher_ = std::thread([this] { RunFlusher(); });
  if (!held_before) held_.notify_one();
}

void JsonProgress::Flush() {
  std::lock_guard lock(mu_);
  WriteLocked();
}

void JsonProgress::WriteLocked() {
  if (!pending_.empty()) {
    std::fwrite(pending_.data(), 1, pending_.size(), out_);
    pending_.clear();
  }
  std::fflush(out_);
  last_write_ms_ = MonotonicMillis();
}

void JsonProgress::RunFlusher() {
  std::unique_lock lock(mu_);
  while (true) {
    held_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (stopping_) return;
    const int64_t wait_ms = last_write_ms_ + kMaxWaitMs - MonotonicMillis();
    if (wait_ms > 0) {
      // Lines may be written meanwhile; the loop looks again.
      held_.wait_for(lock, std::chrono::milliseconds(wait_ms), [&] { return stopping_; });
      continue;
    }
    WriteLocked();
  }
}

}  // namespace kebab::cli
