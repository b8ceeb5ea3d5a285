#include "app/embed_stage.h"

#include <filesystem>
#include <unordered_set>

#include "core/time.h"
#include "embed/open.h"

namespace kebab::app {

store::SpaceKey SpaceKeyOf(const embed::Embedder& embedder) {
  const embed::SpaceInfo& s = embedder.space();
  return {s.provider, s.model, s.version, s.dimensions, s.document_prefix};
}

Result<bool> AllChunksEmbedded(const config::Config& config, store::Store& store) {
  const config::EmbeddingConfig& ec = config.embedding;
  // The space as far as the config tells it without loading the model: dimensions and the
  // "auto" prefix need the model, so they only narrow the match when configured.
  const std::string model =
      ec.provider == "llama" ? std::filesystem::path(embed::LlamaModelPath(config)).stem().string()
                             : ec.model;
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::StoredSpace> spaces, store.ListSpaces());
  const store::StoredSpace* match = nullptr;
  for (const store::StoredSpace& s : spaces) {
    const store::SpaceKey& k = s.key;
    if (k.provider != ec.provider || k.model != model || k.version != ec.version) continue;
    if (ec.dimensions > 0 && k.dimensions != ec.dimensions) continue;
    if (ec.document_prefix != "auto" && k.document_prefix != ec.document_prefix) continue;
    if (match != nullptr) return false;  // ambiguous: let the model decide
    match = &s;
  }
  if (match == nullptr) return false;
  KEBAB_ASSIGN_OR_RETURN(int64_t missing, store.CountTextsWithoutVectors(match->space_id));
  return missing == 0;
}

Status EmbedMissingChunks(const config::Config& config, store::Store& store,
                          embed::Embedder& embedder, const IngestEventSink& emit,
                          const std::atomic<bool>* cancel, IngestCounts* counts) {
  KEBAB_ASSIGN_OR_RETURN(int64_t space, store.EnsureSpace(SpaceKeyOf(embedder)));
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
