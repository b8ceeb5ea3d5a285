#include "index/internal/chunk_ids.h"

#include "core/files.h"
#include "core/hash.h"

namespace kebab::index::internal {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

void ChunkIdPacker::Add(std::string_view chunk_id) {
  if (!ok_) return;
  if (chunk_id.size() != 2 * ChunkIdTable::kBytesPerId) {
    ok_ = false;
    return;
  }
  for (size_t i = 0; i < chunk_id.size(); i += 2) {
    const int high = HexValue(chunk_id[i]), low = HexValue(chunk_id[i + 1]);
    if (high < 0 || low < 0) {
      ok_ = false;
      return;
    }
    packed_.push_back(static_cast<std::byte>(high << 4 | low));
  }
}

Result<std::unique_ptr<ChunkIdTable>> ChunkIdTable::Open(const std::string& path, size_t count) {
  if (count == 0) return std::make_unique<ChunkIdTable>(std::vector<std::byte>());
  KEBAB_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> mapping, MappedFile::Open(path));
  if (mapping->size() != count * kBytesPerId) {
    return IoError(path + " does not hold the ids of its index's " + std::to_string(count) +
                   " vectors");
  }
  auto table = std::unique_ptr<ChunkIdTable>(new ChunkIdTable());
  table->data_ = mapping->data();
  table->mapping_ = std::move(mapping);
  return table;
}

Status ChunkIdTable::Write(const std::string& path, const std::vector<std::byte>& packed) {
  return WriteFileAtomically(
      path, std::string_view(reinterpret_cast<const char*>(packed.data()), packed.size()));
}

std::string ChunkIdTable::At(size_t position) const {
  return ToHex(reinterpret_cast<const unsigned char*>(data_ + position * kBytesPerId), kBytesPerId);
}

}  // namespace kebab::index::internal
