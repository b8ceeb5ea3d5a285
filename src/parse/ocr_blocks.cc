#include "parse/internal/ocr_blocks.h"

#include <algorithm>
#include <cmath>

#include "core/time.h"
#include "core/unicode.h"

namespace kebab::parse::internal {
namespace {

struct Box {
  uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
  void Add(const OcrLine& l) {
    x0 = std::min(x0, l.x);
    y0 = std::min(y0, l.y);
    x1 = std::max(x1, l.x + l.w);
    y1 = std::max(y1, l.y + l.h);
  }
};

}  // namespace

size_t AppendOcrBlocks(const OcrPage& page, uint32_t page_no, std::optional<uint32_t> dpi,
                       CanonicalDocument* doc) {
  size_t chars = 0;
  size_t i = 0;
  while (i < page.lines.size()) {
    const int paragraph = page.lines[i].paragraph;
    Box box;
    std::string text;
    double confidence_sum = 0, weight = 0;
    size_t n = 0;
    for (; i < page.lines.size() && page.lines[i].paragraph == paragraph && n < kMaxLinesPerBlock;
         ++i, ++n) {
      const OcrLine& line = page.lines[i];
      if (!text.empty()) text += '\n';
      text += SanitizeUtf8(line.text);
      box.Add(line);
      confidence_sum += line.confidence * static_cast<double>(line.text.size());
      weight += static_cast<double>(line.text.size());
    }
    if (text.empty()) continue;
    Block b;
    b.kind = BlockKind::kParagraph;
    b.text = Nfc(text);
    b.confidence = weight > 0 ? std::round(confidence_sum / weight * 10) / 10 : 0.0;
    b.ordinal = static_cast<int>(doc->blocks.size());
    b.span.kind = SourceSpan::Kind::kRegion;
    b.span.page = page_no;
    b.span.x = box.x0;
    b.span.y = box.y0;
    b.span.w = box.x1 - box.x0;
    b.span.h = box.y1 - box.y0;
    b.span.dpi = dpi;
    chars += Utf8Length(b.text);
    doc->blocks.push_back(std::move(b));
  }
  return chars;
}

OcrBatch::~OcrBatch() {
  for (auto& [page, future] : pending_) future.wait();
}

void OcrBatch::Add(int page, OcrJob job) {
  Collect(static_cast<size_t>(pool_.workers()));
  if (input_.on_ocr) {
    const auto& on_ocr = input_.on_ocr;
    auto started = std::make_shared<int64_t>(0);
    job.on_start = [on_ocr, page, started] {
      *started = MonotonicMillis();
      on_ocr({.kind = OcrEvent::Kind::kStarted, .page = page});
    };
    job.on_done = [on_ocr, page, started](const Result<OcrPage>& r) {
      OcrEvent e{.kind = OcrEvent::Kind::kFinished, .page = page};
      e.ms = MonotonicMillis() - *started;
      if (r.ok()) {
        e.cached = r->cached;
        for (const OcrLine& l : r->lines) e.chars += static_cast<int64_t>(Utf8Length(l.text));
      } else {
        e.failure = r.status().message();
      }
      on_ocr(e);
    };
  }
  pending_.emplace_back(page, pool_.Submit(std::move(job)));
}

void OcrBatch::Collect(size_t keep) {
  while (pending_.size() > keep) {
    auto& [page, future] = pending_.front();
    done_.emplace(page, future.get());
    pending_.pop_front();
  }
}

std::map<int, Result<OcrPage>> OcrBatch::Finish() {
  Collect(0);
  return std::move(done_);
}

}  // namespace kebab::parse::internal
