#include "chunk/chunker.h"

#include "chunk/internal/code.h"
#include "chunk/internal/pdf_page.h"
#include "chunk/internal/transcript.h"
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

// pdf-page-v1 and image-region-v1: one policy over pages, under two names.
class Pages final : public Chunker {
 public:
  explicit Pages(const char* version) : version_(version) {}
  std::string_view version() const override { return version_; }
  std::string PolicyHash(const ChunkPolicy& policy) const override {
    return internal::PagePolicyHash(policy, version_);
  }
  std::vector<Chunk> Split(const CanonicalDocument& doc, const ChunkPolicy& policy) const override {
    return internal::ChunkPages(doc, policy, version_);
  }

 private:
  const char* const version_;
};

class Code final : public Chunker {
 public:
  std::string_view version() const override { return internal::kCodeChunkerVersion; }
  std::string PolicyHash(const ChunkPolicy& policy) const override {
    return internal::CodePolicyHash(policy);
  }
  std::vector<Chunk> Split(const CanonicalDocument& doc, const ChunkPolicy& policy) const override {
    return internal::ChunkCode(doc, policy);
  }
};

class Transcript final : public Chunker {
 public:
  std::string_view version() const override { return internal::kTranscriptV1; }
  std::string PolicyHash(const ChunkPolicy& policy) const override {
    return internal::TranscriptPolicyHash(policy);
  }
  std::vector<Chunk> Split(const CanonicalDocument& doc, const ChunkPolicy& policy) const override {
    return internal::ChunkTranscript(doc, policy);
  }
};

}  // namespace

const Chunker* ChunkerFor(MediaKind media) {
  static const MdHeading md_heading;
  static const Pages pdf_page(internal::kPdfPageV1);
  static const Pages image_region(internal::kImageRegionV1);
  static const Code code;
  static const Transcript transcript;
  switch (media) {
    case MediaKind::kMarkdown:
      return &md_heading;
    case MediaKind::kPdf:
      return &pdf_page;
    case MediaKind::kImage:
      return &image_region;
    case MediaKind::kCode:
      return &code;
    case MediaKind::kAudio:
      return &transcript;
    default:
      return nullptr;
  }
}

}  // namespace kebab::chunk
