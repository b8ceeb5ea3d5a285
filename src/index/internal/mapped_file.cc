#include "index/internal/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kebab::index::internal {

Result<std::unique_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size == 0) {
    ::close(fd);
    return IoError("cannot read " + path);
  }
  void* base = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (base == MAP_FAILED) return IoError("cannot map " + path + ": " + std::strerror(errno));
  return std::unique_ptr<MappedFile>(
      new MappedFile(static_cast<const std::byte*>(base), static_cast<size_t>(st.st_size)));
}

MappedFile::~MappedFile() {
  munmap(const_cast<std::byte*>(base_), size_);
}

}  // namespace kebab::index::internal
