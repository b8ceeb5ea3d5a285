// OCR for extractors: an OcrPool runs kebab-ocr worker processes (ocr_worker.cc, Tesseract),
// one engine each, and reads images on them in parallel; a DerivationCache remembers what was
// read, keyed by the image's bytes and every setting that changes the result, so a renamed,
// moved or re-ingested file is never read twice. The same workers, which hold the image
// codecs, make the small upright JPEGs that captions send to a vision model.
// Thread safety: OcrPool::Submit and Check may be called from any thread; jobs run on the
// pool's own threads, at most `workers` at once. A DerivationCache must be thread-safe.
// Ownership: the caller (app's ingest) owns the pool and the cache for one run and hands
// extractors pointers through ExtractInput; the pool's destructor waits for its jobs and stops
// its workers.
// Errors: a job's Result carries the worker's error (unsupported / damaged image, a missing
// language pack, a worker that died or hung past its budget); the pool replaces a dead worker.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/status.h"

namespace kebab::parse {

struct OcrSettings {
  std::vector<std::string> languages = {"kor", "eng"};
  // Tesseract's page segmentation mode (--psm) for every page; none ("auto"): kebab-ocr
  // chooses each page's, psm 6 for one column of Hangul and psm 3 otherwise
  // (parse/internal/ocr_psm.h).
  std::optional<int> page_segmentation_mode;
  int pdf_dpi = 300;        // a scanned PDF page is rendered at this
  bool pdf_always = false;  // OCR every PDF page, not only those without a text layer
  int64_t max_pixels = 40'000'000;
  int max_seconds_per_page = 120;
  double low_confidence = 60;  // a page whose mean confidence is below this is warned about
  int workers = 0;             // worker processes; 0 = one per core

  std::string Languages() const;  // "eng+kor", as Tesseract takes them
  // Everything besides the image that changes what OCR makes of it (part of the cache key).
  std::string CacheVersion(std::string_view engine) const;
};

struct OcrLine {
  std::string text;
  uint32_t x = 0, y = 0, w = 0, h = 0;  // pixels of the image as stored
  double confidence = 0;                // 0..100
  int paragraph = 0;                    // lines of one paragraph share it, counted from 0
};

struct OcrPage {
  uint32_t width = 0, height = 0;  // the image as stored
  int frames = 1;                  // pages of a multi-page tiff
  double scale = 1;                // < 1 when the image was read smaller (max_pixels)
  std::vector<OcrLine> lines;
  double mean_confidence = 0;
  int psm = -1;         // the page segmentation mode it was read in; -1 when not recorded
  int64_t ms = 0;       // recognition time; 0 when it came from the cache
  bool cached = false;  // came from the DerivationCache

  std::string ToJson() const;  // the cached form
  static Result<OcrPage> FromJson(std::string_view json);
};

// Remembers derived results (OCR pages, captions) across runs. Get and Put must be
// thread-safe; a Put may become visible to Get later (it is written in the background).
class DerivationCache {
 public:
  virtual ~DerivationCache() = default;
  virtual std::optional<std::string> Get(const std::string& key) = 0;
  virtual void Put(const std::string& key, std::string_view kind, std::string payload) = 0;
};

// One image to read.
struct OcrJob {
  // The image's bytes, fetched when the job runs (a rendered PDF page waits on disk, not in
  // memory, while it is queued).
  std::function<Result<std::string>()> load;
  int frame = 0;        // page of a multi-page tiff
  int dpi = 0;          // the image's resolution when known (a rendered page); 0 = unknown
  int orientation = 1;  // EXIF orientation to undo (1 = none)
  // Optional, called on the pool's thread as the job starts and as it ends.
  std::function<void()> on_start;
  std::function<void(const Result<OcrPage>&)> on_done;
};

// An image made small for a vision model: upright, its longer side at most the asked length.
struct Thumbnail {
  std::string jpeg_base64;  // as model APIs take images
  uint32_t width = 0, height = 0;
};

class OcrPool {
 public:
  // `worker_path` empty: the kebab-ocr beside the running executable, or $KEBAB_OCR_WORKER.
  OcrPool(OcrSettings settings, DerivationCache* cache, std::string worker_path = "");
  ~OcrPool();
  OcrPool(const OcrPool&) = delete;
  OcrPool& operator=(const OcrPool&) = delete;

  const OcrSettings& settings() const { return settings_; }
  int workers() const { return workers_; }
  // "tesseract 5.3.0 leptonica-1.82.0" from the worker's --version; empty when it cannot run.
  const std::string& EngineVersion() const;
  // What of the engine and settings changes a reading: part of the parser_version of what
  // the extractors read with OCR, so changing the languages re-reads those files.
  std::string Signature() const;

  // Queues `job`; its future holds the page read (from the cache when it is there).
  std::future<Result<OcrPage>> Submit(OcrJob job);
  // Queues a thumbnail of the image's first frame (EXIF `orientation` undone) whose longer
  // side is at most `long_edge` pixels. Errors: the image's, as for OCR.
  std::future<Result<Thumbnail>> SubmitThumbnail(std::string bytes, int orientation, int long_edge);

  // Runs the worker's --version and checks the configured languages are installed: "kebab-ocr
  // at PATH (tesseract 5.3.0, languages eng, kor)", or the error with the fix as its hint.
  Result<std::string> Check() const;

 private:
  class Worker;
  // A queued job: runs on a pool thread with that thread's worker.
  using Task = std::function<void(Worker&)>;

  void Enqueue(Task task);
  void Run(int index);
  Result<OcrPage> Read(Worker& worker, const OcrJob& job);
  Result<Thumbnail> MakeThumbnail(Worker& worker, const std::string& bytes, int orientation,
                                  int long_edge);

  const OcrSettings settings_;
  DerivationCache* const cache_;
  const std::string worker_path_;
  const int workers_;

  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Task> queue_;
  bool stopping_ = false;
  mutable std::once_flag version_once_;
  mutable std::string engine_version_;  // from the worker's --version
  std::vector<std::thread> threads_;    // started with the first job
};

// $KEBAB_OCR_WORKER, else kebab-ocr beside the running executable.
std::string OcrWorkerPath();

// What to do when the worker cannot be run (said by extractors and doctor alike).
extern const char kOcrWorkerHint[];

}  // namespace kebab::parse
