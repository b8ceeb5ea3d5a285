// The embedding stage of ingest: fills the configured embedding space with a vector for every
// chunk text that has none yet. It reads its work from the store, so an interrupted run loses
// nothing (each batch is committed) and the next one embeds only what is missing, without
// re-parsing; unchanged text is never embedded twice, even after a move or rename.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "app/ingest.h"
#include "config/config.h"
#include "embed/embedder.h"
#include "store/store.h"

namespace kebab::app {

// The store's identity for the space `embedder` writes.
store::SpaceKey SpaceKeyOf(const embed::Embedder& embedder);

// The stored space the config names, found without loading the model: the configured
// dimensions and "auto" prefix need the model, so they only narrow the match when set. Empty
// when no space matches, or several do.
Result<std::optional<store::StoredSpace>> FindConfiguredSpace(const config::Config& config,
                                                              store::Store& store);

// True when the configured model's space exists and every chunk text has a vector in it,
// decided without loading the model (so a no-op ingest stays fast). False when unsure.
Result<bool> AllChunksEmbedded(const config::Config& config, store::Store& store);

// Embeds every chunk text of the index without a vector in the configured space, in batches of
// models.embedding.batch_size, emitting embed_batch_* events; adds to counts->embeddings_indexed.
Status EmbedMissingChunks(const config::Config& config, store::Store& store,
                          embed::Embedder& embedder, const IngestEventSink& emit,
                          const std::atomic<bool>* cancel, IngestCounts* counts);

// Brings the vector index cache (src/index) of the configured space up to date, between
// index_started and index_finished events. A cache that cannot be written adds a warning.
Status RefreshVectorIndex(const config::Config& config, store::Store& store,
                          const IngestEventSink& emit, std::vector<std::string>* warnings);

}  // namespace kebab::app
