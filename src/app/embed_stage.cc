#include "app/embed_stage.h"

#include <filesystem>
#include <unordered_set>

#include "core/time.h"
#include "embed/open.h"
#include "index/vector_index.h"

namespace kebab::app {

store::SpaceKey SpaceKeyOf(const embed::Embedder& embedder) {
  const embed::SpaceInfo& s = embedder.space();
  return {s.provider, s.model, s.version, s.dimensions, s.document_prefix};
}

Result<std::optional<store::StoredSpace>> FindConfiguredSpace(const config::Config& config,
                                                              store::Store& store) {
  const config::EmbeddingConfig& ec = config.embedding;
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
    if (match != nullptr) return std::optional<store::StoredSpace>();  // ambiguous
    match = &s;
  }
  if (match == nullptr) return std::optional<store::StoredSpace>();
  return std::optional<store::StoredSpace>(*match);
}

Result<bool> AllChunksEmbedded(const config::Config& config, store::Store& store) {
  KEBAB_ASSIGN_OR_RETURN(std::optional<store::StoredSpace> space,
                         FindConfiguredSpace(config, store));
  if (!space) return false;  // none yet, or ambiguous: let the model decide
  KEBAB_ASSIGN_OR_RETURN(int64_t missing, store.CountTextsWithoutVectors(space->space_id));
  return missing == 0;
}

Status RefreshVectorIndex(const config::Config& config, store::Store& store,
                          const IngestEventSink& emit, std::vector<std::string>* warnings) {
  KEBAB_ASSIGN_OR_RETURN(std::optional<store::StoredSpace> space,
                         FindConfiguredSpace(config, store));
  if (!space || space->vector_count == 0) return Status::OK();
  emit({.kind = IngestEvent::Kind::kIndexStarted});
  const int64_t started = MonotonicMillis();
  index::OpenReport report;
  KEBAB_RETURN_IF_ERROR(index::OpenIndex(store, space->space_id, space->key.dimensions,
                                         index::IndexOptionsFrom(config), &report)
                            .status());
  if (!report.warning.empty()) {
    warnings->push_back("the vector index could not be cached (" + report.warning +
                        "); searches will rebuild it in memory");
  }
  emit({.kind = IngestEvent::Kind::kIndexFinished,
        .ms = MonotonicMillis() - started,
        .index_kind = index::IndexKindName(report.kind),
        .vectors = report.vectors});
  return Status::OK();
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
