// The chunk ids of an index's vectors, kept beside its cache file ("<file>.ids": 16 raw bytes
// per vector, in the index's rowid order). A search names its hits from them instead of
// looking each one up in the chunks table, which at a million chunks cost a page fault per
// hit, more than the graph walk itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "index/internal/mapped_file.h"

namespace kebab::index::internal {

// Ids packed as ChunkIdTable stores them, appended one by one in rowid order.
class ChunkIdPacker {
 public:
  // Appends `chunk_id`; an id that is not 32 lowercase hex digits makes the whole table
  // unusable (ok() false), and the index then names hits from the store.
  void Add(std::string_view chunk_id);
  bool ok() const { return ok_; }
  std::vector<std::byte> Take() { return std::move(packed_); }

 private:
  std::vector<std::byte> packed_;
  bool ok_ = true;
};

class ChunkIdTable {
 public:
  static constexpr size_t kBytesPerId = 16;

  explicit ChunkIdTable(std::vector<std::byte> packed)
      : owned_(std::move(packed)), data_(owned_.data()) {}
  // The table saved at `path`, which must hold exactly `count` ids.
  static Result<std::unique_ptr<ChunkIdTable>> Open(const std::string& path, size_t count);
  // Saves `packed` (ChunkIdPacker's) at `path`, atomically.
  static Status Write(const std::string& path, const std::vector<std::byte>& packed);

  // The id at `position` (below the count it holds), as 32 lowercase hex digits.
  std::string At(size_t position) const;

 private:
  ChunkIdTable() = default;
  std::vector<std::byte> owned_;
  std::unique_ptr<MappedFile> mapping_;
  const std::byte* data_ = nullptr;
};

}  // namespace kebab::index::internal
