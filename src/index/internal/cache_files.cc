#include "index/internal/cache_files.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace kebab::index::internal {

namespace fs = std::filesystem;

std::string SpaceDir(const std::string& cache_dir, const std::string& store_id, int64_t space_id,
                     int dims) {
  return cache_dir + "/vectors/" + store_id + "/space-" + std::to_string(space_id) + "-d" +
         std::to_string(dims);
}

std::string GenerationName(const store::VectorIndexStamp& stamp, std::string_view shape) {
  return "c" + std::to_string(stamp.corpus_revision) + "-v" +
         std::to_string(stamp.vectors_revision) + "." + std::string(shape);
}

std::optional<std::string> FindGeneration(const std::string& dir, std::string_view shape) {
  std::error_code ec;
  std::optional<std::string> newest;
  fs::file_time_type newest_time;
  const std::string suffix = "." + std::string(shape);
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("c") || !name.ends_with(suffix)) continue;
    const auto time = entry.last_write_time(ec);
    if (ec) continue;
    if (!newest || time > newest_time) {
      newest = entry.path().string();
      newest_time = time;
    }
  }
  return newest;
}

std::string IdsPath(const std::string& index_path) {
  return index_path + ".ids";
}

Status WriteAtomically(const std::string& path,
                       const std::function<Status(const std::string& tmp_path)>& write) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec)
    return IoError("cannot create " + fs::path(path).parent_path().string() + ": " + ec.message());
  // The pid keeps two processes refreshing the same cache from writing one temp file.
  const std::string tmp = path + ".tmp-" + std::to_string(getpid());
  Status st = write(tmp);
  if (st.ok()) {
    fs::rename(tmp, path, ec);
    if (ec) st = IoError("cannot rename " + tmp + " to " + path + ": " + ec.message());
  }
  if (!st.ok()) fs::remove(tmp, ec);
  return st;
}

void RetireOthers(const std::string& dir, const std::vector<std::string>& keep) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string path = entry.path().string();
    if (path.find(".tmp-") != std::string::npos) continue;  // another process is writing it
    bool kept = false;
    for (const std::string& k : keep) kept = kept || k == path;
    if (!kept) fs::remove(entry.path(), ec);
  }
}

}  // namespace kebab::index::internal
