// Extractors: one per medium, each turning one file's bytes into a CanonicalDocument (blocks in
// reading order, each with its exact source span; metadata; language). The ingest pipeline
// asks ExtractorFor for the file's medium and names no medium itself; a medium without an
// extractor is skipped as unsupported, so a new medium (PDF, OCR, code, audio) plugs in here.
// Thread safety: extractors are immutable singletons; Extract may run on many threads at once.
// Errors: Extract fails for input its medium cannot read (binary where text is expected, a
// damaged file); recoverable oddities are the document's warnings instead.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/types.h"

namespace kebab::parse {

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
};

class Extractor {
 public:
  virtual ~Extractor() = default;
  // Part of doc_id: bump it when the blocks made from the same bytes change.
  virtual std::string_view version() const = 0;
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
