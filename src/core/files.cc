#include "core/files.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace kebab {

namespace fs = std::filesystem;

Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) {
    fs::create_directories(parent, ec);
    if (ec) return IoError("cannot create " + parent.string() + ": " + ec.message());
  }
  const std::string tmp = path + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      const std::string reason = std::strerror(errno);
      fs::remove(tmp, ec);
      return IoError("cannot write " + tmp + ": " + reason);
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    const std::string reason = ec.message();
    fs::remove(tmp, ec);
    return IoError("cannot write " + path + ": " + reason);
  }
  return Status::OK();
}

}  // namespace kebab
