// A read-only memory mapping of a whole cache file, unmapped on destruction. The index files
// are mapped rather than read so a search touches only the pages it needs.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "core/status.h"

namespace kebab::index::internal {

class MappedFile {
 public:
  // An error for a missing, empty or unmappable file.
  static Result<std::unique_ptr<MappedFile>> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::byte* data() const { return base_; }
  size_t size() const { return size_; }

 private:
  MappedFile(const std::byte* base, size_t size) : base_(base), size_(size) {}
  const std::byte* base_;
  size_t size_;
};

}  // namespace kebab::index::internal
