// Checkpoints a writer's WAL on a thread of its own (internal to the store module).
//
// SQLite checkpoints on the committing thread by default: the commit that takes the WAL past
// 1000 pages copies them into the database file and waits for the disk. In a bulk ingest that
// thread is the single writer every parse worker waits on, and copying came to a quarter of
// its time. Here a commit only signals; a second connection copies what is committed
// (SQLITE_CHECKPOINT_PASSIVE, which never blocks the writer) while the writer goes on.
//
// A log is rewound only by a write that starts when all of it is checkpointed, which a
// checkpoint running beside the writer never lets happen, so the log would grow by every
// commit. Past `max_log_bytes` a commit therefore finishes the checkpoint itself (waiting for
// the one in progress), and the next transaction rewinds the log.
#pragma once

#include <sqlite3.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/status.h"

namespace kebab::store {

class BackgroundCheckpointer {
 public:
  // Takes over checkpointing from `writer`, a connection to the WAL database at `path`.
  static Result<std::unique_ptr<BackgroundCheckpointer>> Start(sqlite3* writer,
                                                               const std::string& path,
                                                               int64_t max_log_bytes);
  // Stops the thread (after the checkpoint in progress) and gives checkpointing back to the
  // writer's commits.
  ~BackgroundCheckpointer();
  BackgroundCheckpointer(const BackgroundCheckpointer&) = delete;
  BackgroundCheckpointer& operator=(const BackgroundCheckpointer&) = delete;

 private:
  BackgroundCheckpointer(sqlite3* writer, sqlite3* own, int max_log_pages)
      : writer_(writer), own_(own), max_log_pages_(max_log_pages) {}
  static int OnCommit(void* self, sqlite3* writer, const char* schema, int log_pages);
  void Run();

  sqlite3* writer_;
  sqlite3* own_;
  const int max_log_pages_;
  std::mutex mu_;
  std::condition_variable wake_, idle_;
  bool due_ = false, running_ = false, stop_ = false;
  std::thread thread_;
};

}  // namespace kebab::store
