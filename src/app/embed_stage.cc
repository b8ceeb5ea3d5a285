#include "app/embed_stage.h"

#include <unordered_set>

#include "core/time.h"
#include "embed/prefixes.h"

namespace kebab::app {

store::SpaceKey SpaceKeyOf(const embed::Embedder& embedder, const config::Config& config) {
  const embed::SpaceInfo& s = embedder.space();
  // The document prefix changes every vector, so it is part of the space.
  std::string prefix = config.embedding.document_prefix;
  if (prefix == "auto") prefix = embed::DefaultPrefixes(s.model).document;
  return {s.provider, s.model, s.version, s.dimensions, prefix};
}

Status EmbedMissingChunks(const config::Config& config, store::Store& store,
                          embed::Embedder& embedder, const IngestEventSink& emit,
                          const std::atomic<bool>* cancel, IngestCounts* counts) {
  KEBAB_ASSIGN_OR_RETURN(int64_t space, store.EnsureSpace(SpaceKeyOf(embedder, config)));
  const int batch_size = std::max(1, config.embedding.batch_size);
  int64_t after = 0;
  while (cancel == nullptr || !cancel->load()) {
    KEBAB_ASSIGN_OR_RETURN(std::vector<store::PendingText> pending,
                           store.TextsWithoutVectors(space, batch_size, after));
    if (pending.empty()) break;
    after = pending.back().chunk_rowid;
    // Chunks with the same text share one vector.
    std::vector<std::string> texts, hashes;
    std::unordered_set<std::string> seen;
    for (store::PendingText& p : pending) {
      if (!seen.insert(p.text_hash).second) continue;
      texts.push_back(std::move(p.text));
      hashes.push_back(std::move(p.text_hash));
    }
    emit({.kind = IngestEvent::Kind::kEmbedBatchStarted, .chunks = static_cast<int>(texts.size())});
    const int64_t started = MonotonicMillis();
    KEBAB_ASSIGN_OR_RETURN(std::vector<embed::Vector> vectors,
                           embedder.Embed(texts, embed::Purpose::kDocument));
    KEBAB_RETURN_IF_ERROR(store.PutVectors(space, hashes, vectors));
    counts->embeddings_indexed += static_cast<int64_t>(vectors.size());
    emit({.kind = IngestEvent::Kind::kEmbedBatchFinished,
          .chunks = static_cast<int>(vectors.size()),
          .ms = MonotonicMillis() - started});
  }
  return Status::OK();
}

}  // namespace kebab::app
