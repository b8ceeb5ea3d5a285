// The vector index over one embedding space: a derived cache of the vectors kept in SQLite,
// searched instead of them. Up to index.exact_max vectors it is a flat array scanned in full
// (exact); above, a USearch HNSW graph (approximate). Vectors are stored as f16 by default
// (f32 or i8 configurable); callers re-score hits with the exact f32 vectors from the store.
//
// The cache lives under {cache_dir}/vectors/{store id}/space-{id}/, and each file's name
// carries the corpus and vectors revisions it was built at, so a stale file is never used.
// A stale index is brought up to date from the store (incrementally for HNSW: only changed
// chunks are removed and added), written atomically, and older generations are deleted.
// Large files are memory-mapped rather than read. Losing the cache loses nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "core/status.h"
#include "store/store.h"

namespace kebab::index {

enum class IndexKind { kExact, kHnsw };
const char* IndexKindName(IndexKind kind);  // "exact" | "hnsw"

struct IndexOptions {
  std::string cache_dir;  // {cache_dir}/vectors/... ; empty = build in memory, never saved
  config::IndexConfig config;
  int threads = 0;  // build threads; 0 = all cores
};

IndexOptions IndexOptionsFrom(const config::Config& config);

// A chunk the index returned: its rowid and the index's (approximate) cosine similarity.
struct Neighbor {
  int64_t chunk_rowid = 0;
  float similarity = 0;
};

// Restricts a search to the chunks it accepts (by rowid).
using ChunkFilter = std::function<bool(int64_t chunk_rowid)>;

// How Open found the index, for --trace and doctor.
struct OpenReport {
  IndexKind kind = IndexKind::kExact;
  int64_t vectors = 0;
  bool rebuilt = false;    // built from the store from scratch
  bool refreshed = false;  // an older generation brought up to date
  int64_t added = 0, removed = 0;
  bool memory_mapped = false;
  std::string path;     // the cache file; empty when not saved
  std::string warning;  // e.g. the cache could not be written (the index still works)
};

class VectorIndex {
 public:
  virtual ~VectorIndex() = default;
  virtual IndexKind kind() const = 0;
  virtual int64_t size() const = 0;
  virtual int dimensions() const = 0;
  // Up to `k` nearest chunks to the unit-length `query`, best first; with a filter, only the
  // chunks it accepts. `exact` forces a full scan on an HNSW index.
  virtual std::vector<Neighbor> Search(const float* query, int k, const ChunkFilter* filter,
                                       bool exact = false) const = 0;
  // Replaces each neighbour's similarity with the exact float32 cosine, from float32 vectors
  // the index keeps (an f32 index, or an HNSW cache's ".f32" companion file). False, with
  // `neighbors` unchanged, when it keeps none or lacks one of them: re-score from the store.
  virtual bool Rescore(const float* query, std::vector<Neighbor>* neighbors) const = 0;
  // The chunk id of each neighbour, from the ids kept beside the index. False, with `ids`
  // unchanged, when it keeps none (a cache written before it kept them): name them from the
  // store. The ids are right only while the store is at stamp().
  virtual bool ChunkIds(const std::vector<Neighbor>& neighbors,
                        std::vector<std::string>* ids) const = 0;

  // The store state the index was built from or found current for.
  const store::VectorIndexStamp& stamp() const { return stamp_; }
  void set_stamp(store::VectorIndexStamp stamp) { stamp_ = std::move(stamp); }

 private:
  store::VectorIndexStamp stamp_;
};

// The current index of `space_id` (of `dimensions`), from the cache when it is fresh, else
// brought up to date from the store and saved. Errors: a store read failure, or a cache that
// cannot be built (out of memory). A cache that cannot be written is a warning in `report`.
Result<std::unique_ptr<VectorIndex>> OpenIndex(store::Store& store, int64_t space_id,
                                               int dimensions, const IndexOptions& options,
                                               OpenReport* report = nullptr);

}  // namespace kebab::index
