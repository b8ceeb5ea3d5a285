#include "app/internal/ingest_files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "app/ingest.h"
#include "core/hash.h"
#include "core/ids.h"
#include "core/time.h"

namespace kebab::app::internal {

uint64_t MaxFileBytes(const config::Config& config, MediaKind media) {
  return static_cast<uint64_t>(media == MediaKind::kAudio ? config.ingest.audio_max_file_bytes
                                                          : config.ingest.max_file_bytes);
}

bool ShouldPurge(const std::string& workspace_path, const std::string& abs_path,
                 const config::Config& config) {
  if (workspace_path.starts_with("_external/")) return false;
  struct stat st;
  if (::stat(abs_path.c_str(), &st) != 0) return errno == ENOENT || errno == ENOTDIR;
  const MediaKind media = source::DetectMedia(workspace_path);
  if (static_cast<uint64_t>(st.st_size) > MaxFileBytes(config, media)) return false;
  return ::access(abs_path.c_str(), R_OK) == 0;
}

PurgeVerdict DecidePurge(int64_t stored, int64_t gone, int64_t walked, bool confirmed,
                         double max_share) {
  if (gone == 0 || confirmed) return PurgeVerdict::kPurge;
  if (walked == 0) return PurgeVerdict::kRootEmpty;
  if (gone > kMinGuardedPurge &&
      static_cast<double>(gone) > max_share * static_cast<double>(stored)) {
    return PurgeVerdict::kTooMany;
  }
  return PurgeVerdict::kPurge;
}

bool UnderAnyDir(const std::string& workspace_path, const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    if (dir.empty()) return true;  // the root itself
    if (workspace_path.size() > dir.size() && workspace_path.starts_with(dir) &&
        workspace_path[dir.size()] == '/') {
      return true;
    }
  }
  return false;
}

IngestLock::~IngestLock() {
  if (fd_ >= 0) ::close(fd_);
}

Status IngestLock::Acquire(const std::string& data_dir) {
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  const std::string path = data_dir + "/ingest.lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return IoError("cannot open " + path + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    return Status(ErrorCode::kIoError, "another kebab ingest is running on " + data_dir,
                  "wait for it to finish, then run this again");
  }
  return Status::OK();
}

std::string NewRunId() {
  Blake3 h;
  h.Update(NowRfc3339());
  int64_t t = MonotonicMillis();
  pid_t pid = ::getpid();
  h.Update(&t, sizeof t);
  h.Update(&pid, sizeof pid);
  return "run_" + h.HexDigest().substr(0, 16);
}

Result<std::vector<source::FoundFile>> ExplicitFiles(const std::string& root,
                                                     const std::vector<std::string>& paths) {
  std::vector<source::FoundFile> files;
  for (const std::string& abs : paths) {
    struct stat st;
    if (::stat(abs.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      return IoError("not a readable file: " + abs);
    }
    if (!abs.starts_with(root + "/")) {
      return InvalidInput(abs + " is not under the workspace root " + root);
    }
    KEBAB_RETURN_IF_ERROR(CheckReadable(abs));
    source::FoundFile f;
    f.abs_path = abs;
    f.workspace_path = NormalizeWorkspacePath(abs.substr(root.size() + 1));
    f.media = source::DetectMedia(abs);
    f.size = static_cast<uint64_t>(st.st_size);
    files.push_back(std::move(f));
  }
  return files;
}

}  // namespace kebab::app::internal
