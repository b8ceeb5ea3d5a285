// The vector side of a search: the chunks nearest a query vector in one embedding space, with
// filters applied inside the search, re-scored with the exact float32 vectors in the store.
#pragma once

#include <vector>

#include "core/search_types.h"
#include "core/status.h"
#include "index/vector_index.h"
#include "store/store.h"

namespace kebab::search::internal {

// Up to `depth` chunks, best first (exact cosine, ties by chunk id). With filters, k hits come
// back whenever k matching chunks have vectors: a small matching set is scored directly, a
// large one filters inside the index, and an HNSW search that found too few falls back to
// scanning the index in full. Without an index (none could be opened) the store is scanned.
Result<std::vector<store::VectorHit>> NearestChunks(store::Store& store,
                                                    const index::VectorIndex* index,
                                                    int64_t space_id,
                                                    const std::vector<float>& query,
                                                    const SearchFilters& filters, int depth);

}  // namespace kebab::search::internal
