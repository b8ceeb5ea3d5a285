// The approximate index: a USearch HNSW graph (cosine) over a space's vectors, keyed by chunk
// rowid. Beside each saved graph, "<file>.keys" lists (rowid, text hash prefix) pairs in rowid
// order, so a later refresh can tell which chunks changed without reading the graph's vectors;
// "<file>.f32" (a flat index) keeps the exact vectors for re-scoring and the chunk ids.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>
#include <usearch/index_dense.hpp>
#include <vector>

#include "index/internal/backends.h"
#include "index/internal/cache_files.h"
#include "index/internal/chunk_ids.h"
#include "index/internal/usearch_types.h"

namespace kebab::index::internal {
namespace {

namespace us = unum::usearch;

// A refresh that would touch more than this share of the vectors rebuilds instead: removals
// leave the graph sparser than a fresh build, and adding most of it costs a build anyway.
constexpr double kMaxRefreshShare = 0.3;

struct KeyHash {
  int64_t rowid;
  uint64_t text_hash;  // the first 8 bytes of the chunk's text hash
};

uint64_t HashPrefix(std::string_view text_hash) {
  uint64_t h = 0;
  std::memcpy(&h, text_hash.data(), std::min(sizeof(h), text_hash.size()));
  return h;
}

class HnswIndex : public VectorIndex {
 public:
  HnswIndex(us::index_dense_t index, int dims) : index_(std::move(index)), dims_(dims) {}

  IndexKind kind() const override { return IndexKind::kHnsw; }
  int64_t size() const override { return static_cast<int64_t>(index_.size()); }
  int dimensions() const override { return dims_; }

  std::vector<Neighbor> Search(const float* query, int k, const ChunkFilter* filter,
                               bool exact) const override {
    const size_t wanted = static_cast<size_t>(std::max(k, 0));
    auto result =
        filter == nullptr
            ? index_.search(query, wanted, us::index_dense_t::any_thread(), exact)
            : index_.filtered_search(
                  query, wanted,
                  [filter](us::default_key_t key) { return (*filter)(static_cast<int64_t>(key)); },
                  us::index_dense_t::any_thread(), exact);
    if (!result) {
      TakeError(result.error);
      return {};
    }
    std::vector<us::default_key_t> keys(result.size());
    std::vector<us::default_distance_t> distances(result.size());
    const size_t n = result.dump_to(keys.data(), distances.data());
    std::vector<Neighbor> out(n);
    for (size_t i = 0; i < n; ++i) {
      out[i] = {static_cast<int64_t>(keys[i]), 1.0f - static_cast<float>(distances[i])};
    }
    return out;
  }

  bool Rescore(const float* query, std::vector<Neighbor>* neighbors) const override {
    return exact_ != nullptr && exact_->Rescore(query, neighbors);
  }

  bool ChunkIds(const std::vector<Neighbor>& neighbors,
                std::vector<std::string>* ids) const override {
    return exact_ != nullptr && exact_->ChunkIds(neighbors, ids);
  }

  us::index_dense_t& raw() { return index_; }
  // The float32 vectors of the same chunks (a flat f32 index), for Rescore.
  void set_exact(std::unique_ptr<VectorIndex> exact) { exact_ = std::move(exact); }

 private:
  us::index_dense_t index_;
  int dims_;
  std::unique_ptr<VectorIndex> exact_;
};

// The companion file of an HNSW cache file: its chunks' float32 vectors.
std::string ExactPath(const std::string& path) {
  return path + ".f32";
}

Shape ExactShape() {
  return {.kind = IndexKind::kExact, .scalar = "f32"};
}

// An empty index of kebab's metric with `shape`'s scalar and graph settings. Without key
// lookups it can only add and search: no remove, contains or get.
us::index_dense_t::state_result_t MakeEmpty(int dims, const Shape& shape, bool key_lookups) {
  us::index_dense_config_t config(static_cast<size_t>(shape.connectivity),
                                  static_cast<size_t>(shape.expansion_add),
                                  static_cast<size_t>(shape.expansion_search));
  config.enable_key_lookups = key_lookups;
  return us::index_dense_t::make(
      us::metric_punned_t::builtin(static_cast<size_t>(dims), us::metric_kind_t::cos_k,
                                   ScalarKind(shape.scalar)),
      config);
}

// Adds `count` f32 vectors (rows of `vectors`) on `threads` threads.
Status AddParallel(us::index_dense_t& index, const std::vector<int64_t>& keys,
                   const std::vector<float>& vectors, int dims, int threads) {
  std::mutex mu;
  std::string error;
  auto work = [&](size_t thread) {
    for (size_t i = thread; i < keys.size(); i += static_cast<size_t>(threads)) {
      auto added = index.add(static_cast<us::default_key_t>(keys[i]),
                             vectors.data() + i * static_cast<size_t>(dims), thread);
      if (!added) {
        std::lock_guard<std::mutex> lock(mu);
        error = TakeError(added.error);
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, static_cast<size_t>(t));
  work(0);
  for (std::thread& t : pool) t.join();
  if (!error.empty()) return GenericError("building the vector index failed: " + error);
  return Status::OK();
}

// Every vector of a space, read in one scan: the graph is built or refreshed from it, and it
// becomes the ".keys" and ".f32" files.
struct SpaceVectors {
  std::vector<KeyHash> keys;    // rowid order
  std::vector<int64_t> rowids;  // the same rowids, for the graph and the flat file
  std::vector<float> vectors;   // dims floats per rowid
  ChunkIdPacker ids;            // their chunk ids
};

Result<SpaceVectors> ReadSpace(store::Store& store, int64_t space_id, int dims) {
  SpaceVectors all;
  KEBAB_RETURN_IF_ERROR(store.ScanSpaceVectors(space_id, [&](const store::ChunkVector& cv) {
    all.keys.push_back({cv.chunk_rowid, HashPrefix(cv.text_hash)});
    all.rowids.push_back(cv.chunk_rowid);
    all.ids.Add(cv.chunk_id);
    all.vectors.insert(all.vectors.end(), cv.vector, cv.vector + dims);
    return Status::OK();
  }));
  return all;
}

// Adds `keys` with their vectors (rows of `vectors`) to `index`, growing it as needed.
Status AddRows(us::index_dense_t& index, const std::vector<int64_t>& keys,
               const std::vector<float>& vectors, int dims, int threads) {
  if (index.size() + keys.size() > index.capacity() &&
      !index.try_reserve(
          us::index_limits_t(index.size() + keys.size(), static_cast<size_t>(threads)))) {
    return GenericError("out of memory reserving the vector index for " +
                        std::to_string(index.size() + keys.size()) + " vectors");
  }
  return AddParallel(index, keys, vectors, dims, threads);
}

Result<std::vector<KeyHash>> ReadKeys(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return IoError("cannot read " + path);
  std::vector<KeyHash> keys;
  KeyHash k{};
  while (std::fread(&k, sizeof(k), 1, f) == 1) keys.push_back(k);
  std::fclose(f);
  return keys;
}

Status WriteKeys(const std::string& path, const std::vector<KeyHash>& keys) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return IoError("cannot write " + path);
  bool ok = std::fwrite(keys.data(), sizeof(KeyHash), keys.size(), f) == keys.size();
  ok = (std::fclose(f) == 0) && ok;
  return ok ? Status::OK() : IoError("cannot write " + path + " (disk full?)");
}

// Removes from `index` the chunks of `old_keys` that are gone from `now` or whose text changed,
// and returns the rowids of `now` that the index lacks.
std::vector<int64_t> Reconcile(us::index_dense_t& index, const std::vector<KeyHash>& old_keys,
                               const std::vector<KeyHash>& now, int64_t* removed) {
  std::vector<int64_t> missing;
  size_t i = 0, j = 0;
  while (i < old_keys.size() || j < now.size()) {
    if (j == now.size() || (i < old_keys.size() && old_keys[i].rowid < now[j].rowid)) {
      auto r = index.remove(static_cast<us::default_key_t>(old_keys[i++].rowid));
      if (!r) TakeError(r.error);
      ++*removed;
    } else if (i == old_keys.size() || now[j].rowid < old_keys[i].rowid) {
      missing.push_back(now[j++].rowid);
    } else {
      if (old_keys[i].text_hash != now[j].text_hash) {
        auto r = index.remove(static_cast<us::default_key_t>(old_keys[i].rowid));
        if (!r) TakeError(r.error);
        ++*removed;
        missing.push_back(now[j].rowid);
      }
      ++i;
      ++j;
    }
  }
  return missing;
}

// Brings the saved generation `previous` up to date; nullopt when it cannot be used (then the
// caller builds from scratch).
Result<std::optional<HnswBuild>> Refresh(int dims, int threads, const std::string& previous,
                                         const SpaceVectors& now) {
  auto old_keys = ReadKeys(previous + ".keys");
  if (!old_keys.ok()) return std::optional<HnswBuild>();
  auto loaded = us::index_dense_t::make(previous.c_str(), /*view=*/false);
  if (!loaded) {
    TakeError(loaded.error);
    return std::optional<HnswBuild>();
  }
  if (loaded.index.dimensions() != static_cast<size_t>(dims) ||
      loaded.index.size() != old_keys->size()) {
    return std::optional<HnswBuild>();
  }
  HnswBuild build;
  us::index_dense_t& index = loaded.index;
  const std::vector<int64_t> missing = Reconcile(index, *old_keys, now.keys, &build.removed);
  const double share = static_cast<double>(missing.size() + static_cast<size_t>(build.removed)) /
                       static_cast<double>(std::max<size_t>(now.keys.size(), 1));
  if (share > kMaxRefreshShare) return std::optional<HnswBuild>();
  // Both lists are in rowid order: pick the missing rows' vectors in one pass.
  std::vector<float> vectors;
  const size_t width = static_cast<size_t>(dims);
  for (size_t i = 0, m = 0; i < now.rowids.size() && m < missing.size(); ++i) {
    if (now.rowids[i] != missing[m]) continue;
    vectors.insert(vectors.end(), now.vectors.begin() + static_cast<ptrdiff_t>(i * width),
                   now.vectors.begin() + static_cast<ptrdiff_t>((i + 1) * width));
    ++m;
  }
  KEBAB_RETURN_IF_ERROR(AddRows(index, missing, vectors, dims, threads));
  build.added = static_cast<int64_t>(missing.size());
  build.refreshed = true;
  build.index = std::make_unique<HnswIndex>(std::move(index), dims);
  return std::optional<HnswBuild>(std::move(build));
}

}  // namespace

Result<HnswBuild> BuildHnsw(store::Store& store, int64_t space_id, int dims, const Shape& shape,
                            int threads, const std::string& previous, const std::string& path,
                            std::string* warning) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  KEBAB_ASSIGN_OR_RETURN(SpaceVectors all, ReadSpace(store, space_id, dims));
  std::optional<HnswBuild> build;
  if (!previous.empty()) {
    KEBAB_ASSIGN_OR_RETURN(build, Refresh(dims, threads, previous, all));
  }
  if (!build) {
    auto made = MakeEmpty(dims, shape, /*key_lookups=*/true);
    if (!made) return GenericError("cannot create the vector index: " + TakeError(made.error));
    KEBAB_RETURN_IF_ERROR(AddRows(made.index, all.rowids, all.vectors, dims, threads));
    build.emplace();
    build->added = static_cast<int64_t>(all.rowids.size());
    build->index = std::make_unique<HnswIndex>(std::move(made.index), dims);
  }
  auto& hnsw = static_cast<HnswIndex&>(*build->index);
  hnsw.raw().change_expansion_search(static_cast<size_t>(shape.expansion_search));
  if (!path.empty()) {
    Status st = WriteAtomically(path + ".keys",
                                [&](const std::string& tmp) { return WriteKeys(tmp, all.keys); });
    if (st.ok()) {
      st = WriteAtomically(path, [&](const std::string& tmp) -> Status {
        auto saved = hnsw.raw().save(tmp.c_str());
        if (!saved) return IoError("cannot write " + tmp + ": " + TakeError(saved.error));
        return Status::OK();
      });
    }
    // Re-scoring from these instead of from SQLite keeps a search's cost near the graph walk.
    if (st.ok()) {
      auto exact = MakeFlat(dims, ExactShape(), std::move(all.rowids), all.vectors,
                            all.ids.ok() ? std::optional(all.ids.Take()) : std::nullopt,
                            ExactPath(path), warning);
      if (exact.ok()) hnsw.set_exact(std::move(exact).value());
    }
    if (!st.ok() && warning != nullptr) *warning = st.message();
  }
  return std::move(*build);
}

Result<std::unique_ptr<VectorIndex>> OpenHnsw(const std::string& path, int dims, const Shape& shape,
                                              int64_t map_above_bytes, bool* memory_mapped) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  const bool view = !ec && static_cast<int64_t>(bytes) > map_above_bytes;
  // A search never looks a vector up by its key, and USearch builds the key-to-slot table
  // when it opens an index unless told not to: most of the time to map a large one.
  auto opened = MakeEmpty(dims, shape, /*key_lookups=*/false);
  // Opening sizes the per-thread search state by the limits the index had before; a new
  // index has none.
  if (!opened || !opened.index.try_reserve(us::index_limits_t{})) {
    return IoError("cannot open " + path + ": " +
                   (opened ? std::string("out of memory") : TakeError(opened.error)));
  }
  auto read = view ? opened.index.view(path.c_str()) : opened.index.load(path.c_str());
  if (!read) return IoError("cannot open " + path + ": " + TakeError(read.error));
  if (opened.index.dimensions() != static_cast<size_t>(dims)) {
    return IoError(path + " holds vectors of another dimension");
  }
  opened.index.change_expansion_search(static_cast<size_t>(shape.expansion_search));
  if (memory_mapped != nullptr) *memory_mapped = view;
  auto index = std::make_unique<HnswIndex>(std::move(opened.index), dims);
  auto exact = OpenFlat(ExactPath(path), dims, ExactShape());
  if (exact.ok() && (*exact)->size() == index->size()) index->set_exact(std::move(exact).value());
  return std::unique_ptr<VectorIndex>(std::move(index));
}

}  // namespace kebab::index::internal
