#include "index/vector_index.h"

#include <filesystem>
#include <system_error>

#include "index/internal/backends.h"
#include "index/internal/cache_files.h"

namespace kebab::index {
namespace {

// HNSW files above this are memory-mapped rather than read: a search touches a few hundred
// nodes, and reading the whole file cost more than the search (a 15 MB file: 16 ms to read,
// ~2 ms to map), while the page cache keeps mapped pages warm across kebab processes.
constexpr int64_t kMapAboveBytes = 1LL << 20;

internal::Shape ShapeFor(IndexKind kind, const config::IndexConfig& c) {
  return {.kind = kind,
          .scalar = c.scalar,
          .connectivity = c.connectivity,
          .expansion_add = c.expansion_add,
          .expansion_search = c.expansion_search};
}

bool Exists(const std::string& path) {
  std::error_code ec;
  return !path.empty() && std::filesystem::exists(path, ec);
}

}  // namespace

const char* IndexKindName(IndexKind kind) {
  return kind == IndexKind::kHnsw ? "hnsw" : "exact";
}

namespace internal {
std::string Shape::Tag() const {
  if (kind == IndexKind::kExact) return "exact-" + scalar;
  return "hnsw-" + scalar + "-m" + std::to_string(connectivity) + "-e" +
         std::to_string(expansion_add);
}
}  // namespace internal

IndexOptions IndexOptionsFrom(const config::Config& config) {
  return {.cache_dir = config.storage.cache_dir,
          .config = config.index,
          .threads = config.embedding.threads};
}

Result<std::unique_ptr<VectorIndex>> OpenIndex(store::Store& store, int64_t space_id,
                                               int dimensions, const IndexOptions& options,
                                               OpenReport* report) {
  OpenReport local;
  OpenReport& r = report != nullptr ? *report : local;
  KEBAB_ASSIGN_OR_RETURN(store::VectorIndexStamp stamp, store.IndexStamp());
  const std::string dir =
      options.cache_dir.empty()
          ? std::string()
          : internal::SpaceDir(options.cache_dir, stamp.store_id, space_id, dimensions);
  auto path_of = [&](const internal::Shape& shape) {
    return dir.empty() ? std::string() : dir + "/" + internal::GenerationName(stamp, shape.Tag());
  };
  const internal::Shape exact = ShapeFor(IndexKind::kExact, options.config);
  const internal::Shape hnsw = ShapeFor(IndexKind::kHnsw, options.config);
  const int64_t exact_max = options.config.exact_max;

  // A current file of either kind, if its size still calls for that kind.
  if (Exists(path_of(hnsw))) {
    auto opened =
        internal::OpenHnsw(path_of(hnsw), dimensions, hnsw, kMapAboveBytes, &r.memory_mapped);
    if (opened.ok() && (*opened)->size() > exact_max) {
      r.kind = IndexKind::kHnsw;
      r.vectors = (*opened)->size();
      r.path = path_of(hnsw);
      (*opened)->set_stamp(stamp);
      return opened;
    }
  }
  if (Exists(path_of(exact))) {
    auto opened = internal::OpenFlat(path_of(exact), dimensions, exact);
    if (opened.ok() && (*opened)->size() <= exact_max) {
      r.kind = IndexKind::kExact;
      r.vectors = (*opened)->size();
      r.memory_mapped = true;
      r.path = path_of(exact);
      (*opened)->set_stamp(stamp);
      return opened;
    }
  }

  KEBAB_ASSIGN_OR_RETURN(int64_t count, store.CountChunkVectors(space_id));
  r.kind = count > exact_max ? IndexKind::kHnsw : IndexKind::kExact;
  r.memory_mapped = false;
  std::unique_ptr<VectorIndex> index;
  if (r.kind == IndexKind::kExact) {
    r.path = path_of(exact);
    KEBAB_ASSIGN_OR_RETURN(
        index, internal::BuildFlat(store, space_id, dimensions, exact, r.path, &r.warning));
    r.rebuilt = true;
    r.added = index->size();
  } else {
    r.path = path_of(hnsw);
    const std::string previous =
        dir.empty() ? std::string() : internal::FindGeneration(dir, hnsw.Tag()).value_or("");
    KEBAB_ASSIGN_OR_RETURN(internal::HnswBuild build,
                           internal::BuildHnsw(store, space_id, dimensions, hnsw, options.threads,
                                               previous, r.path, &r.warning));
    r.refreshed = build.refreshed;
    r.rebuilt = !build.refreshed;
    r.added = build.added;
    r.removed = build.removed;
    index = std::move(build.index);
  }
  r.vectors = index->size();
  if (!r.warning.empty()) {
    r.path.clear();
  } else if (!dir.empty()) {
    internal::RetireOthers(dir, {r.path, internal::IdsPath(r.path), r.path + ".keys",
                                 r.path + ".f32", internal::IdsPath(r.path + ".f32")});
  }
  index->set_stamp(stamp);
  return index;
}

}  // namespace kebab::index
