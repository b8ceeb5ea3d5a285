// The PDF extractor (parse/extractor.h): the bytes go to the kebab-pdf worker (pdf_worker.cc,
// poppler-cpp, in a process of its own with a time budget), and its pages come back as
// paragraph blocks, each with a page span and the character range it covers in that page's
// extracted text, and the heading path the document's outline gives its page. Line-end
// hyphenation is joined; pages with no usable text are named in the document's warnings as
// needing OCR. Module-private.
#pragma once

#include <chrono>
#include <string>

#include "parse/extractor.h"

namespace kebab::parse::internal {

// v2: blocks take their heading_path from the outline. v3: titles cleaned (TitleFromText).
inline constexpr char kPdfParserVersion[] = "pdf-poppler-v3";

// The worker: $KEBAB_PDF_WORKER, else kebab-pdf beside the running executable.
std::string PdfWorkerPath();

// What to do when the worker cannot be run: said by the extractor and by doctor alike.
extern const char kPdfWorkerHint[];

class PdfExtractor final : public Extractor {
 public:
  std::string_view version() const override { return kPdfParserVersion; }
  // With OCR: "+ocr(ENGINE|LANGS|psmN|mpN|dpiN[|always])".
  std::string VersionFor(const ExtractServices& services) const override;
  Result<CanonicalDocument> Extract(const ExtractInput& input) const override;
  // Runs the worker's --version: "kebab-pdf at PATH (poppler X)"; io_error when the worker
  // cannot run or its poppler lacks poppler-data (CJK text would be lost).
  Result<std::string> Check() const override;
};

// One page's text as paragraph blocks (without ids), appended to `doc`; false for a page with
// no usable text (named in the document's warnings as needing OCR). Exposed for tests.
bool AppendPageBlocks(uint32_t page, std::string_view text, CanonicalDocument* doc);

// A title read from the opening lines of `text` (the first page's text): page numbers standing
// apart from the words (a running head's) dropped, a line that ends mid-phrase joined with the
// next, whitespace collapsed, at most 80 code points cut at a word.
std::string TitleFromText(std::string_view text);

// The warning naming a page without usable text.
std::string NeedsOcrWarning(uint32_t page);

// Reads `pages` by OCR (pdf_ocr.cc): rendered by the worker, read on input.ocr. A page that
// yields text replaces its text-layer blocks with region blocks and loses its needs-OCR
// warning; a page OCR fails on gets a warning. Returns the pages that got text; cancelled
// when input.cancel is set mid-way (the pages read so far stay in the OCR cache).
Result<std::vector<uint32_t>> OcrPdfPages(const ExtractInput& input,
                                          const std::vector<uint32_t>& pages,
                                          CanonicalDocument* doc);

}  // namespace kebab::parse::internal
