// The ingest's rules about files, apart from reading them: which size skips a file, whether a
// stored document whose file the walk did not return leaves the index, the files of an
// explicit `ingest-file` run, the run's lock and id. Module-private to app.
// Thread safety: the functions are; an IngestLock belongs to one run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"
#include "core/status.h"
#include "core/types.h"
#include "source/walker.h"

namespace kebab::app::internal {

// The size past which a file of `media` is skipped: recordings have their own cap.
uint64_t MaxFileBytes(const config::Config& config, MediaKind media);

// Whether a stored document whose file the walk did not return should leave the index: its
// file is gone, or it is now excluded by ignore rules. Files skipped as bad input (too big,
// unreadable) keep their last good version, and ingest-file / ingest-stdin copies under
// _external/ (hidden from walks on purpose) always stay.
bool ShouldPurge(const std::string& workspace_path, const std::string& abs_path,
                 const config::Config& config);

// Whether the deleted-file sweep may purge `gone` documents of the `stored` ones indexed from
// the walked root, given the `walked` files the walk returned there. A root that now holds no
// file kebab reads, or a sweep past `max_share` of the documents (and more than
// kMinGuardedPurge), looks like an unmounted drive or a moved folder, not a deletion: it waits
// for `confirmed` (`kebab ingest --purge`).
enum class PurgeVerdict { kPurge, kRootEmpty, kTooMany };
inline constexpr int64_t kMinGuardedPurge = 10;  // fewer deletions are a normal edit session
PurgeVerdict DecidePurge(int64_t stored, int64_t gone, int64_t walked, bool confirmed,
                         double max_share);

// Whether `workspace_path` lies in one of `dirs` (workspace paths of directories the walk could
// not read: what is there is unknown, so it is not gone).
bool UnderAnyDir(const std::string& workspace_path, const std::vector<std::string>& dirs);

// Holds an exclusive advisory lock on {data_dir}/ingest.lock for the lifetime of a run, so
// two ingests never race on the same index.
class IngestLock {
 public:
  IngestLock() = default;
  ~IngestLock();
  IngestLock(const IngestLock&) = delete;
  IngestLock& operator=(const IngestLock&) = delete;
  Status Acquire(const std::string& data_dir);

 private:
  int fd_ = -1;
};

// "run_" and 16 hex digits, unique to this run.
std::string NewRunId();

// `paths` (absolute, under `root`) as the walk would have found them; io_error or
// invalid_input for one that is not a readable file under the root.
Result<std::vector<source::FoundFile>> ExplicitFiles(const std::string& root,
                                                     const std::vector<std::string>& paths);

}  // namespace kebab::app::internal
