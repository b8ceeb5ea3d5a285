// The two index kinds behind VectorIndex, both over USearch's distance kernels and scalar
// casts (so exact and HNSW search agree on what "f16" means):
//   flat  — every vector in one array, scanned in full; rebuilt from the store when stale.
//   HNSW  — a USearch graph, refreshed in place when stale (changed chunks removed and added).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "index/vector_index.h"
#include "store/store.h"

namespace kebab::index::internal {

// What shapes an index file: files of another shape are never reused.
struct Shape {
  IndexKind kind = IndexKind::kExact;
  std::string scalar = "f16";  // f16 | f32 | i8
  int connectivity = 16, expansion_add = 128, expansion_search = 64;
  // The file-name tag: "exact-f16", "hnsw-f16-m16-e128" (expansion_search is a query-time
  // setting and does not shape the file).
  std::string Tag() const;
};

// Flat: built from the store (and written to `path` when not empty; a write failure is left
// in *warning), or memory-mapped from a file written earlier.
Result<std::unique_ptr<VectorIndex>> BuildFlat(store::Store& store, int64_t space_id, int dims,
                                               const Shape& shape, const std::string& path,
                                               std::string* warning);
// Flat over `keys` (ascending) and their float32 vectors (dims floats each), stored as
// shape.scalar, with the chunks' packed ids when known (chunk_ids.h); written to `path` (and
// the ids beside it) like BuildFlat.
Result<std::unique_ptr<VectorIndex>> MakeFlat(int dims, const Shape& shape,
                                              std::vector<int64_t> keys,
                                              const std::vector<float>& vectors,
                                              std::optional<std::vector<std::byte>> ids,
                                              const std::string& path, std::string* warning);
Result<std::unique_ptr<VectorIndex>> OpenFlat(const std::string& path, int dims,
                                              const Shape& shape);

// HNSW: `previous`, when not empty, is an older generation of the same shape to refresh
// instead of building from scratch (ignored when too much changed, or unreadable). Written to
// `path` (plus its companion files) when not empty.
struct HnswBuild {
  std::unique_ptr<VectorIndex> index;
  bool refreshed = false;
  int64_t added = 0, removed = 0;
};
Result<HnswBuild> BuildHnsw(store::Store& store, int64_t space_id, int dims, const Shape& shape,
                            int threads, const std::string& previous, const std::string& path,
                            std::string* warning);
// Opens a saved HNSW file, memory-mapped when larger than `map_above_bytes`.
Result<std::unique_ptr<VectorIndex>> OpenHnsw(const std::string& path, int dims, const Shape& shape,
                                              int64_t map_above_bytes, bool* memory_mapped);

}  // namespace kebab::index::internal
