// The OCR half of the PDF extractor: pages without a usable text layer (or every page, with
// [ingest.pdf.ocr] always) are rendered by the kebab-pdf worker into a private temporary
// directory and read on the OcrPool as they come, a few at a time.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/subprocess.h"
#include "parse/internal/ocr_blocks.h"
#include "parse/internal/pdf.h"

namespace kebab::parse::internal {
namespace {

using nlohmann::json;

// A private directory for rendered pages, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/kebab-ocr-XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool Cancelled(const ExtractInput& input) {
  return input.cancel != nullptr && input.cancel->load(std::memory_order_relaxed);
}

}  // namespace

std::string NeedsOcrWarning(uint32_t page) {
  return "page " + std::to_string(page) + " has no usable text (needs OCR)";
}

Result<std::vector<uint32_t>> OcrPdfPages(const ExtractInput& input,
                                          const std::vector<uint32_t>& pages,
                                          CanonicalDocument* doc) {
  OcrPool& pool = *input.ocr;
  const OcrSettings& settings = pool.settings();
  TempDir dir;
  if (dir.path().empty()) return IoError("cannot make a temporary directory for page images");
  std::string list;
  for (uint32_t p : pages) list += (list.empty() ? "" : ",") + std::to_string(p);

  OcrBatch batch(pool, input);
  bool cancelled = false;
  std::string render_error;
  // Rendering a page takes well under a second; the budget also covers the time this side
  // spends waiting for OCR to catch up, during which the worker waits on its output.
  const auto budget =
      std::chrono::seconds(input.max_seconds) +
      std::chrono::seconds(settings.max_seconds_per_page) * static_cast<int64_t>(pages.size());
  Result<SubprocessResult> run =
      RunSubprocess({PdfWorkerPath(), "--render", dir.path(), "--dpi",
                     std::to_string(settings.pdf_dpi), "--pages", list},
                    input.bytes, std::chrono::duration_cast<std::chrono::milliseconds>(budget),
                    [&](std::string_view line) {
                      const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
                      if (!j.is_object()) return true;
                      const std::string kind = j.value("kind", "");
                      if (kind == "rendered") {
                        if (Cancelled(input)) {
                          cancelled = true;
                          return false;
                        }
                        const std::string path = j.value("path", "");
                        OcrJob job;
                        job.dpi = settings.pdf_dpi;
                        job.load = [path]() -> Result<std::string> {
                          Result<std::string> bytes = ReadFileUpTo(path, UINT64_MAX);
                          ::unlink(path.c_str());
                          return bytes;
                        };
                        batch.Add(j.value("page", 0), std::move(job));
                      } else if (kind == "render_failed") {
                        doc->warnings.push_back("page " + std::to_string(j.value("page", 0)) +
                                                " could not be rendered for OCR");
                      } else if (kind == "error") {
                        render_error = j.value("message", "");
                      }
                      return true;
                    });
  std::map<int, Result<OcrPage>> read = batch.Finish();
  if (cancelled || Cancelled(input)) {
    return Status(ErrorCode::kCancelled,
                  "stopped during OCR; the pages read are kept for the "
                  "next ingest");
  }
  if (!run.ok()) return Status(ErrorCode::kIoError, run.status().message(), kPdfWorkerHint);
  if (run->timed_out) {
    doc->warnings.push_back("rendering pages for OCR took too long and was stopped");
  } else if (!render_error.empty()) {
    doc->warnings.push_back("rendering pages for OCR failed: " + render_error);
  }

  std::vector<uint32_t> filled;
  // The page segmentation mode each filled page was read in, in the order of `filled`
  // (the extractor's metadata ocr.pages).
  json psm_used = json::array();
  for (auto& [page_no, result] : read) {
    const auto page = static_cast<uint32_t>(page_no);
    if (!result.ok()) {
      doc->warnings.push_back("page " + std::to_string(page) +
                              ": OCR failed: " + result.status().message());
      continue;
    }
    if (result->lines.empty()) continue;
    // OCR's text replaces the text layer of a page it read (with `always`, every page).
    std::erase_if(doc->blocks, [&](const Block& b) { return b.span.page == page; });
    AppendOcrBlocks(*result, page, static_cast<uint32_t>(settings.pdf_dpi), doc);
    std::erase(doc->warnings, NeedsOcrWarning(page));
    if (result->mean_confidence < settings.low_confidence) {
      doc->warnings.push_back("page " + std::to_string(page) + ": low OCR confidence (" +
                              std::to_string(static_cast<int>(result->mean_confidence)) + ")");
    }
    filled.push_back(page);
    psm_used.push_back(result->psm);
  }
  if (!filled.empty()) doc->metadata.user["ocr_psm"] = std::move(psm_used);
  std::stable_sort(doc->blocks.begin(), doc->blocks.end(),
                   [](const Block& a, const Block& b) { return a.span.page < b.span.page; });
  for (size_t i = 0; i < doc->blocks.size(); ++i) doc->blocks[i].ordinal = static_cast<int>(i);
  return filled;
}

}  // namespace kebab::parse::internal
