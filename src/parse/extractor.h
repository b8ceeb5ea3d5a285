// Extractors: one per medium, each turning one file's bytes into a CanonicalDocument (blocks in
// reading order, each with its exact source span; metadata; language). The ingest pipeline
// asks ExtractorFor for the file's medium and names no medium itself; a medium without an
// extractor is skipped as unsupported, so a new medium (PDF, OCR, code, audio) plugs in here.
// Thread safety: extractors are immutable singletons; Extract may run on many threads at once.
// Errors: Extract fails for input its medium cannot read (binary where text is expected, a
// damaged file); recoverable oddities are the document's warnings instead.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/types.h"

namespace kebab::parse {

class OcrPool;
class Transcriber;

// A caption of an image by a vision model (ingest.image.caption), cited as `photo.jpg#caption`.
struct Caption {
  std::string text;
  std::string model;           // "qwen2.5vl:7b": who wrote it, as its citation names it
  std::string prompt_version;  // "caption-v1": what it was asked
};

// Writes captions for the image extractor. The app implements it over a vision model, so
// parse calls no model itself. Describe may be called from many threads at once.
class Captioner {
 public:
  virtual ~Captioner() = default;
  // What changes a caption (provider, model, prompt version, image size): part of the
  // parser_version of captioned images, so changing it captions them again.
  virtual std::string Signature() const = 0;
  // A caption of `image` (a file's bytes) with EXIF `orientation` undone; `cancel` (may be
  // null) stops it, with cancelled. Errors: the model's (unreachable, not pulled, timeout) and
  // the image's (unreadable).
  virtual Result<Caption> Describe(std::string_view image, int orientation,
                                   const std::atomic<bool>* cancel) const = 0;
};

// One page or image read by OCR, told as it starts and ends (spec §2.4a pdf_ocr_*).
struct OcrEvent {
  enum class Kind { kStarted, kFinished };
  Kind kind = Kind::kStarted;
  int page = 0;  // 1-based page or frame
  int64_t ms = 0;
  int64_t chars = 0;
  bool cached = false;
  std::string failure;  // kFinished: why the page could not be read, or empty
};

// What extractors may call on besides the file: each null when that service is off. Not owned.
struct ExtractServices {
  OcrPool* ocr = nullptr;                    // scans and images
  const Captioner* captioner = nullptr;      // image captions
  const Transcriber* transcriber = nullptr;  // recordings
};

struct ExtractInput {
  std::string_view bytes;      // the whole file
  std::string workspace_path;  // normalized
  std::string asset_id;
  std::string discovered_at;  // RFC 3339; default for created_at / updated_at
  // Budget for media read by a worker process (PDF): past it the worker is stopped and the
  // file is an error, so one hostile file cannot stall an ingest.
  int max_seconds = 60;
  // Optional: told (done, total) as a long file is read, in the medium's own unit (a PDF's
  // pages), from the extracting thread. It must be cheap and thread-safe.
  std::function<void(int done, int total)> on_progress;
  // OCR for scans and images; null when OCR is off. Not owned.
  OcrPool* ocr = nullptr;
  // Captions for images; null when captions are off. Not owned.
  const Captioner* captioner = nullptr;
  // Transcripts of recordings; null when transcription is off. Not owned.
  const Transcriber* transcriber = nullptr;
  // Optional: told of each page OCR reads, from any thread. Must be thread-safe.
  std::function<void(const OcrEvent&)> on_ocr;
  // Optional: set when the run is interrupted; a long file stops between pages (what OCR
  // finished stays cached) and Extract returns cancelled.
  const std::atomic<bool>* cancel = nullptr;
};

class Extractor {
 public:
  virtual ~Extractor() = default;
  // Part of doc_id: bump it when the blocks made from the same bytes change.
  virtual std::string_view version() const = 0;
  // The parser_version stored with what it extracts under these settings: version(), plus
  // whatever of the settings changes its blocks (OCR languages, ...), so that changing them
  // re-reads the files they affect. A document's id uses version() alone.
  virtual std::string VersionFor(const ExtractServices& /*services*/) const {
    return std::string(version());
  }
  virtual Result<CanonicalDocument> Extract(const ExtractInput& input) const = 0;
  // What the extractor needs from outside this process (a worker program), checked for
  // `kebab doctor`: a line saying what it found, or the error with a hint; empty when it needs
  // nothing.
  virtual Result<std::string> Check() const { return std::string(); }
};

// The extractor for `media`, or null when kebab cannot read that medium (yet).
const Extractor* ExtractorFor(MediaKind media);

// Every medium ExtractorFor has an extractor for: what the workspace walk returns.
std::vector<MediaKind> ExtractableMedia();

}  // namespace kebab::parse
