#include "chunk/chunker.h"

#include "chunk/internal/pdf_page.h"
#include "chunk/md_heading.h"

namespace kebab::chunk {
namespace {

class MdHeading final : public Chunker {
 public:
  std::string_view version() const override { return kMdHeadingV2; }
  std::string PolicyHash(const ChunkPolicy& policy) const override {
    return chunk::PolicyHash(policy);
  }
  std::vector<Chunk> Split(const CanonicalDocument& doc, const ChunkPolicy& policy) const override {
    return ChunkMarkdown(doc, policy);
  }
};

class PdfPage final : public Chunker {
 public:
  std::string_view version() const override { return internal::kPdfPageV1; }
  std::string PolicyHash(const ChunkPolicy& policy) const override {
    return internal::PdfPagePolicyHash(policy);
  }
  std::vector<Chunk> Split(const CanonicalDocument& doc, const ChunkPolicy& policy) const override {
    return internal::ChunkPdfPages(doc, policy);
  }
};

}  // namespace

const Chunker* ChunkerFor(MediaKind media) {
  static const MdHeading md_heading;
  static const PdfPage pdf_page;
  switch (media) {
    case MediaKind::kMarkdown:
      return &md_heading;
    case MediaKind::kPdf:
      return &pdf_page;
    default:
      return nullptr;
  }
}

}  // namespace kebab::chunk
