#include "chunk/chunker.h"

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

}  // namespace

const Chunker* ChunkerFor(MediaKind media) {
  static const MdHeading md_heading;
  switch (media) {
    case MediaKind::kMarkdown:
      return &md_heading;
    default:
      return nullptr;
  }
}

}  // namespace kebab::chunk
