#include "search/internal/vector_channel.h"

#include <algorithm>

namespace kebab::search::internal {
namespace {

// Matching sets up to this size are scored straight from the store: cheaper than a filtered
// walk of the index, and always complete.
constexpr size_t kScoreDirectlyUpTo = 2048;

// The index ranks by its stored (f16 by default) vectors; asking it for a few more than needed
// lets the exact re-scoring settle near-ties at the cut.
int Overfetch(int depth) {
  return depth + std::max(8, depth / 4);
}

}  // namespace

Result<std::vector<store::VectorHit>> NearestChunks(store::Store& store,
                                                    const index::VectorIndex* index,
                                                    int64_t space_id,
                                                    const std::vector<float>& query,
                                                    const SearchFilters& filters, int depth) {
  if (index == nullptr) return store.ExactVectorSearch(space_id, query, filters, depth);
  std::vector<index::Neighbor> neighbors;
  if (filters.empty()) {
    neighbors = index->Search(query.data(), Overfetch(depth), nullptr);
  } else {
    KEBAB_ASSIGN_OR_RETURN(std::vector<int64_t> allowed, store.FilteredChunkRowids(filters));
    if (allowed.size() <= kScoreDirectlyUpTo) {
      KEBAB_ASSIGN_OR_RETURN(std::vector<store::VectorHit> hits,
                             store.ScoreChunks(space_id, query, allowed));
      if (hits.size() > static_cast<size_t>(depth)) hits.resize(static_cast<size_t>(depth));
      return hits;
    }
    std::vector<bool> accepted(static_cast<size_t>(allowed.back()) + 1, false);
    for (int64_t rowid : allowed) accepted[static_cast<size_t>(rowid)] = true;
    const index::ChunkFilter filter = [&accepted](int64_t rowid) {
      return rowid >= 0 && static_cast<size_t>(rowid) < accepted.size() &&
             accepted[static_cast<size_t>(rowid)];
    };
    const int wanted = Overfetch(depth);
    neighbors = index->Search(query.data(), wanted, &filter);
    // A graph walk can strand a selective filter among rejected nodes; a full scan cannot.
    if (index->kind() == index::IndexKind::kHnsw &&
        neighbors.size() < std::min(static_cast<size_t>(wanted), allowed.size())) {
      neighbors = index->Search(query.data(), wanted, &filter, /*exact=*/true);
    }
  }
  if (index->Rescore(query.data(), &neighbors)) {
    // The index's ids name the hits only while the store is at the index's stamp.
    std::vector<std::string> ids;
    bool named = index->ChunkIds(neighbors, &ids);
    if (named) {
      KEBAB_ASSIGN_OR_RETURN(store::VectorIndexStamp now, store.IndexStamp());
      named = now == index->stamp();
    }
    std::vector<store::VectorHit> hits;
    hits.reserve(neighbors.size());
    for (size_t i = 0; i < neighbors.size(); ++i) {
      hits.push_back({neighbors[i].chunk_rowid, named ? std::move(ids[i]) : std::string(),
                      neighbors[i].similarity});
    }
    if (!named) return store.NameAndRank(std::move(hits), depth);
    store::RankVectorHits(&hits, depth);
    return hits;
  }
  std::vector<int64_t> rowids;
  rowids.reserve(neighbors.size());
  for (const index::Neighbor& n : neighbors) rowids.push_back(n.chunk_rowid);
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::VectorHit> hits,
                         store.ScoreChunks(space_id, query, rowids));
  if (hits.size() > static_cast<size_t>(depth)) hits.resize(static_cast<size_t>(depth));
  return hits;
}

}  // namespace kebab::search::internal
