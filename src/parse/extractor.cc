#include "parse/extractor.h"

#include "parse/internal/audio.h"
#include "parse/internal/code.h"
#include "parse/internal/image.h"
#include "parse/internal/pdf.h"
#include "parse/markdown.h"

namespace kebab::parse {
namespace {

class MarkdownExtractor final : public Extractor {
 public:
  std::string_view version() const override { return kMarkdownParserVersion; }
  Result<CanonicalDocument> Extract(const ExtractInput& in) const override {
    return ParseMarkdown({in.bytes, in.workspace_path, in.asset_id, in.discovered_at});
  }
};

}  // namespace

const Extractor* ExtractorFor(MediaKind media) {
  static const MarkdownExtractor markdown;
  static const internal::PdfExtractor pdf;
  static const internal::ImageExtractor image;
  static const internal::CodeExtractor code;
  static const internal::AudioExtractor audio;
  switch (media) {
    case MediaKind::kMarkdown:
      return &markdown;
    case MediaKind::kPdf:
      return &pdf;
    case MediaKind::kImage:
      return &image;
    case MediaKind::kCode:
      return &code;
    case MediaKind::kAudio:
      return &audio;
    default:
      return nullptr;
  }
}

std::vector<MediaKind> ExtractableMedia() {
  std::vector<MediaKind> media;
  for (MediaKind m : {MediaKind::kMarkdown, MediaKind::kPdf, MediaKind::kImage, MediaKind::kAudio,
                      MediaKind::kCode, MediaKind::kOther}) {
    if (ExtractorFor(m) != nullptr) media.push_back(m);
  }
  return media;
}

}  // namespace kebab::parse
