#include "store/checkpointer.h"

#include <algorithm>

#include "store/sqlite_util.h"

namespace kebab::store {
namespace {

// SQLite's own default threshold (SQLITE_DEFAULT_WAL_AUTOCHECKPOINT pages).
constexpr int kCheckpointPages = 1000;
}  // namespace

Result<std::unique_ptr<BackgroundCheckpointer>> BackgroundCheckpointer::Start(
    sqlite3* writer, const std::string& path, int64_t max_log_bytes) {
  int64_t page_size = 0;
  {
    Statement q(writer, "PRAGMA page_size");
    Status st;
    if (q.Step(&st)) page_size = q.ColumnInt(0);
    KEBAB_RETURN_IF_ERROR(st);
  }
  sqlite3* own = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &own, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  // A connection finds out the file is in WAL mode at its first read; until then it has no
  // log to checkpoint.
  Status st = rc == SQLITE_OK ? Exec(own, "SELECT count(*) FROM sqlite_schema")
                              : SqliteError(own, rc, "open " + path + " for checkpoints");
  if (!st.ok()) {
    sqlite3_close_v2(own);
    return st;
  }
  const int64_t max_log_pages = max_log_bytes / std::max<int64_t>(page_size, 512);
  auto checkpointer = std::unique_ptr<BackgroundCheckpointer>(new BackgroundCheckpointer(
      writer, own, static_cast<int>(std::clamp<int64_t>(max_log_pages, 1, 1 << 30))));
  checkpointer->thread_ = std::thread(&BackgroundCheckpointer::Run, checkpointer.get());
  sqlite3_wal_hook(writer, &BackgroundCheckpointer::OnCommit, checkpointer.get());
  return checkpointer;
}

BackgroundCheckpointer::~BackgroundCheckpointer() {
  sqlite3_wal_autocheckpoint(writer_, kCheckpointPages);  // replaces OnCommit
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
  sqlite3_close_v2(own_);
}

int BackgroundCheckpointer::OnCommit(void* self, sqlite3* writer, const char*, int log_pages) {
  auto* c = static_cast<BackgroundCheckpointer*>(self);
  if (log_pages >= c->max_log_pages_) {
    // Checkpoint the rest here, after the one in progress: the writer's next transaction then
    // starts on a fully checkpointed log and rewinds it.
    {
      std::unique_lock lock(c->mu_);
      c->idle_.wait(lock, [&] { return !c->running_; });
      c->due_ = false;
    }
    sqlite3_wal_checkpoint_v2(writer, "main", SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  } else if (log_pages >= std::min(kCheckpointPages, c->max_log_pages_)) {
    {
      std::lock_guard lock(c->mu_);
      c->due_ = true;
    }
    c->wake_.notify_one();
  }
  return SQLITE_OK;
}

void BackgroundCheckpointer::Run() {
  std::unique_lock lock(mu_);
  while (true) {
    wake_.wait(lock, [&] { return due_ || stop_; });
    if (stop_) return;
    due_ = false;
    running_ = true;
    lock.unlock();
    // A failure (the disk is full, say) leaves the frames in the log, where they are just as
    // durable; the writer's final checkpoint reports it.
    sqlite3_wal_checkpoint_v2(own_, "main", SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    lock.lock();
    running_ = false;
    idle_.notify_all();
  }
}

}  // namespace kebab::store
