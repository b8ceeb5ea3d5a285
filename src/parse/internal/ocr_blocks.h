// OCR results as blocks, and the bounded reading of a file's pages on the OcrPool, shared by
// the PDF and image extractors. Module-private.
#pragma once

#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <optional>
#include <utility>

#include "parse/extractor.h"
#include "parse/ocr.h"

namespace kebab::parse::internal {

// A paragraph longer than this many lines becomes several blocks, so a chunk's region stays
// the few lines it holds rather than a whole column.
inline constexpr size_t kMaxLinesPerBlock = 8;

// Appends `page`'s paragraphs as paragraph blocks (without ids) whose span is the region of
// their lines: on page `page_no` (0 for a lone image), in pixels at `dpi` when the page was
// rendered. Returns the characters of text added.
size_t AppendOcrBlocks(const OcrPage& page, uint32_t page_no, std::optional<uint32_t> dpi,
                       CanonicalDocument* doc);

// Reads one file's pages on the pool, with at most workers + 1 of them queued or running, so a
// long scan neither floods the pool nor fills the disk with rendered pages. Reports each page
// through input.on_ocr. Not thread-safe (one extractor thread).
class OcrBatch {
 public:
  OcrBatch(OcrPool& pool, const ExtractInput& input) : pool_(pool), input_(input) {}
  ~OcrBatch();  // waits for what is still queued (its results are cached)

  // Queues page `page` (1-based), first waiting for older pages while too many are in flight.
  void Add(int page, OcrJob job);
  // Waits for every page; the results by page.
  std::map<int, Result<OcrPage>> Finish();

 private:
  void Collect(size_t keep);

  OcrPool& pool_;
  const ExtractInput& input_;
  std::deque<std::pair<int, std::future<Result<OcrPage>>>> pending_;
  std::map<int, Result<OcrPage>> done_;
};

}  // namespace kebab::parse::internal
