// The exact index: every vector of a space in one array, scanned in full per query with
// USearch's (SimSIMD) cosine kernel for the stored scalar type.
//
// File layout (native endianness; the cache never leaves the machine):
//   [0, 64)       header: "KEBABFX1", dims u32, bytes per vector u32, count u64, zero padding
//   [64, …)       count chunk rowids, i64, ascending
//   [aligned 64)  count vectors of `bytes per vector`
// and beside it, "<file>.ids": the chunk ids in the same order (chunk_ids.h).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <queue>
#include <usearch/index_dense.hpp>
#include <vector>

#include "index/internal/backends.h"
#include "index/internal/cache_files.h"
#include "index/internal/chunk_ids.h"
#include "index/internal/mapped_file.h"
#include "index/internal/usearch_types.h"

namespace kebab::index::internal {
namespace {

namespace us = unum::usearch;

constexpr char kMagic[8] = {'K', 'E', 'B', 'A', 'B', 'F', 'X', '1'};
constexpr size_t kHeaderBytes = 64;

struct Header {
  char magic[8];
  uint32_t dims;
  uint32_t bytes_per_vector;
  uint64_t count;
};

size_t VectorsOffset(uint64_t count) {
  const size_t end_of_keys = kHeaderBytes + count * sizeof(int64_t);
  return (end_of_keys + 63) / 64 * 64;
}

class FlatIndex : public VectorIndex {
 public:
  FlatIndex(int dims, us::scalar_kind_t scalar)
      : dims_(dims),
        metric_(us::metric_punned_t::builtin(static_cast<size_t>(dims), us::metric_kind_t::cos_k,
                                             scalar)),
        casts_(us::casts_punned_t::make(scalar)) {}

  // Owned arrays (a fresh build).
  void Adopt(std::vector<int64_t> keys, std::vector<std::byte> vectors) {
    owned_keys_ = std::move(keys);
    owned_vectors_ = std::move(vectors);
    keys_ = owned_keys_.data();
    vectors_ = owned_vectors_.data();
    count_ = owned_keys_.size();
  }
  // Arrays inside a mapped file.
  void Adopt(std::unique_ptr<MappedFile> mapping, uint64_t count) {
    mapping_ = std::move(mapping);
    keys_ = reinterpret_cast<const int64_t*>(mapping_->data() + kHeaderBytes);
    vectors_ = mapping_->data() + VectorsOffset(count);
    count_ = count;
  }

  IndexKind kind() const override { return IndexKind::kExact; }
  int64_t size() const override { return static_cast<int64_t>(count_); }
  int dimensions() const override { return dims_; }
  size_t bytes_per_vector() const { return metric_.bytes_per_vector(); }
  void set_ids(std::unique_ptr<ChunkIdTable> ids) { ids_ = std::move(ids); }

  bool ChunkIds(const std::vector<Neighbor>& neighbors,
                std::vector<std::string>* ids) const override {
    if (ids_ == nullptr) return false;
    std::vector<std::string> out;
    out.reserve(neighbors.size());
    for (const Neighbor& n : neighbors) {
      const size_t at = Position(n.chunk_rowid);
      if (at == count_) return false;
      out.push_back(ids_->At(at));
    }
    *ids = std::move(out);
    return true;
  }

  bool Rescore(const float* query, std::vector<Neighbor>* neighbors) const override {
    if (bytes_per_vector() != static_cast<size_t>(dims_) * sizeof(float)) return false;
    std::vector<float> exact(neighbors->size());
    for (size_t i = 0; i < neighbors->size(); ++i) {
      const size_t at = Position((*neighbors)[i].chunk_rowid);
      if (at == count_) return false;
      const auto* v = reinterpret_cast<const float*>(vectors_ + at * bytes_per_vector());
      // The same sum, in the same order, as the store's re-scoring: scores do not depend on
      // which of the two computed them.
      float sum = 0;
      for (int d = 0; d < dims_; ++d) sum += query[d] * v[d];
      exact[i] = sum;
    }
    for (size_t i = 0; i < neighbors->size(); ++i) (*neighbors)[i].similarity = exact[i];
    return true;
  }

  std::vector<Neighbor> Search(const float* query, int k, const ChunkFilter* filter,
                               bool) const override {
    std::vector<std::byte> cast(bytes_per_vector());
    const auto* q = reinterpret_cast<const us::byte_t*>(query);
    if (casts_.from.f32(q, static_cast<size_t>(dims_), reinterpret_cast<us::byte_t*>(cast.data())))
      q = reinterpret_cast<const us::byte_t*>(cast.data());
    // Max-heap on (distance, rowid): its top is the worst neighbour kept.
    using Entry = std::pair<float, int64_t>;
    std::priority_queue<Entry> best;
    const size_t stride = bytes_per_vector();
    const size_t wanted = static_cast<size_t>(std::max(k, 0));
    for (size_t i = 0; i < count_ && wanted > 0; ++i) {
      if (filter != nullptr && !(*filter)(keys_[i])) continue;
      const auto* v = reinterpret_cast<const us::byte_t*>(vectors_ + i * stride);
      const Entry e{static_cast<float>(metric_(q, v)), keys_[i]};
      if (best.size() < wanted) {
        best.push(e);
      } else if (e < best.top()) {
        best.pop();
        best.push(e);
      }
    }
    std::vector<Neighbor> out(best.size());
    for (size_t i = out.size(); i-- > 0; best.pop()) {
      out[i] = {best.top().second, 1.0f - best.top().first};
    }
    return out;
  }

 private:
  // The position of `rowid` in the key array; count_ when the index lacks it. Rowids are
  // nearly dense (gaps only where chunks were deleted), so the search starts where a straight
  // line through the first and last key puts it and gallops from there: a probe or two, where
  // a binary search over a million keys took twenty steps that mostly missed the cache.
  size_t Position(int64_t rowid) const {
    const size_t n = count_;
    if (n == 0 || rowid < keys_[0] || rowid > keys_[n - 1]) return n;
    const double span = static_cast<double>(keys_[n - 1] - keys_[0]);
    const double fraction = span > 0 ? static_cast<double>(rowid - keys_[0]) / span : 0;
    const size_t guess =
        std::min(n - 1, static_cast<size_t>(fraction * static_cast<double>(n - 1)));
    size_t lo = 0, hi = n;  // keys_[lo - 1] < rowid <= keys_[hi - 1]
    size_t step = 1;
    if (keys_[guess] < rowid) {
      while (guess + step < n && keys_[guess + step] < rowid) step *= 2;
      lo = guess + step / 2 + 1;
      hi = std::min(guess + step, n - 1) + 1;
    } else {
      while (step <= guess && keys_[guess - step] >= rowid) step *= 2;
      lo = step <= guess ? guess - step + 1 : 0;
      hi = guess - step / 2 + 1;
    }
    const int64_t* at = std::lower_bound(keys_ + lo, keys_ + hi, rowid);
    return at == keys_ + hi || *at != rowid ? n : static_cast<size_t>(at - keys_);
  }

  int dims_;
  us::metric_punned_t metric_;
  us::casts_punned_t casts_;
  std::vector<int64_t> owned_keys_;
  std::vector<std::byte> owned_vectors_;
  std::unique_ptr<MappedFile> mapping_;
  std::unique_ptr<ChunkIdTable> ids_;
  const int64_t* keys_ = nullptr;
  const std::byte* vectors_ = nullptr;
  size_t count_ = 0;
};

Status WriteFlatFile(const std::string& path, int dims, size_t bytes_per_vector,
                     const std::vector<int64_t>& keys, const std::vector<std::byte>& vectors) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return IoError("cannot write " + path + ": " + std::strerror(errno));
  std::vector<char> header(kHeaderBytes, 0);
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  h.dims = static_cast<uint32_t>(dims);
  h.bytes_per_vector = static_cast<uint32_t>(bytes_per_vector);
  h.count = keys.size();
  std::memcpy(header.data(), &h, sizeof(h));
  const size_t padding = VectorsOffset(keys.size()) - kHeaderBytes - keys.size() * sizeof(int64_t);
  const std::vector<char> zeros(padding, 0);
  // An empty index (or no padding) leaves a vector empty, and its data() may be null, which
  // fwrite must not be passed even for zero items (UBSan: nonnull argument).
  auto put = [f](const void* data, size_t size, size_t count) {
    return count == 0 || std::fwrite(data, size, count, f) == count;
  };
  bool ok = put(header.data(), 1, header.size()) &&
            put(keys.data(), sizeof(int64_t), keys.size()) && put(zeros.data(), 1, zeros.size()) &&
            put(vectors.data(), 1, vectors.size());
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) return IoError("cannot write " + path + " (disk full?)");
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<VectorIndex>> MakeFlat(int dims, const Shape& shape,
                                              std::vector<int64_t> keys,
                                              const std::vector<float>& vectors,
                                              std::optional<std::vector<std::byte>> ids,
                                              const std::string& path, std::string* warning) {
  auto index = std::make_unique<FlatIndex>(dims, ScalarKind(shape.scalar));
  const size_t stride = index->bytes_per_vector();
  const auto cast = us::casts_punned_t::make(ScalarKind(shape.scalar)).from.f32;
  std::vector<std::byte> stored(keys.size() * stride);
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto* in = reinterpret_cast<const us::byte_t*>(vectors.data() + i * dims);
    auto* out = reinterpret_cast<us::byte_t*>(stored.data() + i * stride);
    if (!cast(in, static_cast<size_t>(dims), out)) std::memcpy(out, in, stride);
  }
  if (!path.empty()) {
    // The ids first: a current index file then always has its ids beside it, when it has any.
    Status st = ids ? ChunkIdTable::Write(IdsPath(path), *ids) : Status::OK();
    if (st.ok()) {
      st = WriteAtomically(path, [&](const std::string& tmp) {
        return WriteFlatFile(tmp, dims, stride, keys, stored);
      });
    }
    if (!st.ok() && warning != nullptr) *warning = st.message();
  }
  if (ids && ids->size() == keys.size() * ChunkIdTable::kBytesPerId) {
    index->set_ids(std::make_unique<ChunkIdTable>(std::move(*ids)));
  }
  index->Adopt(std::move(keys), std::move(stored));
  return std::unique_ptr<VectorIndex>(std::move(index));
}

Result<std::unique_ptr<VectorIndex>> BuildFlat(store::Store& store, int64_t space_id, int dims,
                                               const Shape& shape, const std::string& path,
                                               std::string* warning) {
  std::vector<int64_t> keys;
  std::vector<float> vectors;
  ChunkIdPacker ids;
  KEBAB_RETURN_IF_ERROR(store.ScanSpaceVectors(space_id, [&](const store::ChunkVector& cv) {
    keys.push_back(cv.chunk_rowid);
    ids.Add(cv.chunk_id);
    vectors.insert(vectors.end(), cv.vector, cv.vector + dims);
    return Status::OK();
  }));
  return MakeFlat(dims, shape, std::move(keys), vectors,
                  ids.ok() ? std::optional(ids.Take()) : std::nullopt, path, warning);
}

Result<std::unique_ptr<VectorIndex>> OpenFlat(const std::string& path, int dims,
                                              const Shape& shape) {
  KEBAB_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> mapping, MappedFile::Open(path));
  auto index = std::make_unique<FlatIndex>(dims, ScalarKind(shape.scalar));
  Header h{};
  if (mapping->size() >= kHeaderBytes) std::memcpy(&h, mapping->data(), sizeof(h));
  const bool valid =
      mapping->size() >= kHeaderBytes && std::memcmp(h.magic, kMagic, sizeof(kMagic)) == 0 &&
      h.dims == static_cast<uint32_t>(dims) && h.bytes_per_vector == index->bytes_per_vector() &&
      mapping->size() == VectorsOffset(h.count) + h.count * h.bytes_per_vector;
  if (!valid) return IoError(path + " is not a complete kebab vector index");
  // Without its ids (a cache written before they were kept) the index still works.
  auto ids = ChunkIdTable::Open(IdsPath(path), h.count);
  if (ids.ok()) index->set_ids(std::move(ids).value());
  index->Adopt(std::move(mapping), h.count);
  return std::unique_ptr<VectorIndex>(std::move(index));
}

}  // namespace kebab::index::internal
