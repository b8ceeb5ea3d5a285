// Where the index cache of a space lives and how its files are named, written and retired.
// A file's name is its generation: the revisions it was built at plus the index kind and the
// build parameters that shape it, so a name match means the file is current.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "store/vectors.h"

namespace kebab::index::internal {

// {cache_dir}/vectors/{store_id}/space-{space_id}-d{dims}
std::string SpaceDir(const std::string& cache_dir, const std::string& store_id, int64_t space_id,
                     int dims);

// "c{corpus}-v{vectors}.{shape}", e.g. "c12-v7.hnsw-f16-m16-e128".
std::string GenerationName(const store::VectorIndexStamp& stamp, std::string_view shape);

// The newest file in `dir` whose name ends with ".{shape}" (any revisions), if there is one.
std::optional<std::string> FindGeneration(const std::string& dir, std::string_view shape);

// Where the chunk ids of the index file at `index_path` are kept (chunk_ids.h).
std::string IdsPath(const std::string& index_path);

// Writes through `write(tmp_path)` then renames onto `path`, so readers never see half a file.
Status WriteAtomically(const std::string& path,
                       const std::function<Status(const std::string& tmp_path)>& write);

// Deletes every file in `dir` except `keep` (best effort: a reader that mapped a deleted file
// keeps its mapping).
void RetireOthers(const std::string& dir, const std::vector<std::string>& keep);

}  // namespace kebab::index::internal
