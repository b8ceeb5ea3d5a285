// Store: opening and configuring the database, transactions and batches, checkpoints, and the
// kv, job and ingest-run bookkeeping. Documents are written in writer.cc and read in reader.cc.
#include "store/store.h"

#include <filesystem>
#include <functional>
#include <mutex>
#include <system_error>

#include "core/time.h"
#include "store/checkpointer.h"
#include "store/internal/rank.h"
#include "store/migrations.h"
#include "store/path_glob.h"
#include "store/sqlite_util.h"
#include "text/fts5_tokenizer.h"

namespace kebab::store {
namespace {

// Reads kv[key] before any FTS table is touched (the tokenizer must be registered first).
std::optional<std::string> ReadKv(sqlite3* db, const char* key) {
  Statement q(db, "SELECT value FROM kv WHERE key = ?1");
  if (!q.prepare_status().ok()) return std::nullopt;
  q.Bind(1, key);
  Status st;
  if (!q.Step(&st)) return std::nullopt;
  return q.ColumnText(0);
}

}  // namespace

Store::Store(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

Store::~Store() {
  checkpointer_.reset();
  statements_.clear();
  for (auto& insert : block_inserts_) insert.reset();
  if (db_) sqlite3_close_v2(db_);
}

Result<std::unique_ptr<Store>> Store::Open(const std::string& path, const StoreOptions& options) {
  // Memory statistics put a global mutex around every SQLite allocation; kebab never reads
  // them. This must run before SQLite initializes, hence once, here.
  static std::once_flag configured;
  std::call_once(configured, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
  std::error_code ec;
  if (options.readonly) {
    if (!std::filesystem::exists(path, ec)) {
      return Status(ErrorCode::kNotIndexed, "no index at " + path,
                    "run `kebab ingest` to build it");
    }
  } else {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) {
      return IoError("cannot create directory for " + path + ": " + ec.message(),
                     "check storage.data_dir in your config");
    }
  }
  sqlite3* db = nullptr;
  int flags =
      options.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  std::unique_ptr<Store> store(new Store(db, path));
  if (rc != SQLITE_OK) return SqliteError(db, rc, "open " + path);
  KEBAB_RETURN_IF_ERROR(store->Configure(options));
  return store;
}

Status Store::Configure(const StoreOptions& options) {
  sqlite3_busy_timeout(db_, 10000);
  sqlite3_extended_result_codes(db_, 1);
  KEBAB_RETURN_IF_ERROR(Exec(db_,
                             "PRAGMA foreign_keys = ON;"
                             "PRAGMA temp_store = MEMORY;"
                             "PRAGMA cache_size = -65536;"));
  if (options.readonly) {
    // Readers map the file. Naming the hits of a vector search at 1M vectors took 0.8 ms p50
    // through pread, the page cache being far smaller than the chunks table, and 0.04 ms
    // mapped. The writer does not: ingest ran ~10% slower mapped (tldr-pages), and a
    // one-shot lexical search pays ~0.4 ms of page faults for it.
    if (options.map_file) KEBAB_RETURN_IF_ERROR(Exec(db_, "PRAGMA mmap_size = 2147418112;"));
  }
  if (!options.readonly) {
    // 16 KiB pages for a new file (an existing one keeps its own): a bulk ingest writes, logs
    // and checkpoints a quarter as many pages (tldr-pages cold ingest ~10% faster); searches
    // read no slower.
    KEBAB_RETURN_IF_ERROR(Exec(db_,
                               "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; "
                               "PRAGMA synchronous = NORMAL;"));
  }
  KEBAB_RETURN_IF_ERROR(RegisterPathGlobFunction(db_));
  KEBAB_RETURN_IF_ERROR(internal::RegisterRankFunction(db_));
  KEBAB_RETURN_IF_ERROR(RegisterTextHashFunction(db_));
  KEBAB_ASSIGN_OR_RETURN(int version, CurrentSchemaVersion(db_));
  if (options.readonly) {
    if (version < kOldestReadableSchema) {
      return Status(ErrorCode::kNotIndexed,
                    "index at " + path_ + " has schema v" + std::to_string(version) +
                        ", this kebab needs v" + std::to_string(LatestSchemaVersion()),
                    "run `kebab ingest` to upgrade it");
    }
    // Queries must be analyzed exactly as the index was built.
    stemmer_ = ReadKv(db_, "fts_stemmer").value_or(options.stemmer);
    KEBAB_RETURN_IF_ERROR(text::RegisterKebabTokenizer(db_, stemmer_));
    schema_version_ = version;
    return Status::OK();
  }
  std::optional<std::string> indexed_stemmer =
      version > 0 ? ReadKv(db_, "fts_stemmer") : std::nullopt;
  stemmer_ = options.stemmer;
  KEBAB_RETURN_IF_ERROR(text::RegisterKebabTokenizer(db_, stemmer_));
  KEBAB_RETURN_IF_ERROR(ApplyMigrations(db_));
  schema_version_ = LatestSchemaVersion();
  KEBAB_RETURN_IF_ERROR(EndBulkLoad().WithContext("restoring indexes after an interrupted ingest"));
  if (indexed_stemmer != stemmer_) {
    // A different stemmer changes every indexed term: rebuild the FTS index from chunks.
    Status st = Atomically([&]() -> Status {
      KEBAB_RETURN_IF_ERROR(Exec(db_, "INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild')"));
      return Statement(db_,
                       "INSERT INTO kv(key, value) VALUES ('fts_stemmer', ?1) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value")
          .Bind(1, stemmer_)
          .Run();
    });
    KEBAB_RETURN_IF_ERROR(st.WithContext("rebuilding the full-text index for stemmer " + stemmer_));
  }
  return Status::OK();
}

Result<std::unordered_map<std::string, StoredDocState>> Store::LoadDocStates(
    const std::vector<std::string>* paths) {
  std::unordered_map<std::string, StoredDocState> states;
  const std::string select =
      "SELECT workspace_path, doc_id, asset_id, parser_version, coalesce(chunker_version, ''), "
      "coalesce(policy_hash, ''), source_uri FROM documents";
  Statement q(db_, paths == nullptr ? select : select + " WHERE workspace_path = ?1");
  Status st;
  auto read = [&] {
    while (q.Step(&st)) {
      states.emplace(q.ColumnText(0),
                     StoredDocState{q.ColumnText(1), q.ColumnText(2), q.ColumnText(3),
                                    q.ColumnText(4), q.ColumnText(5), q.ColumnText(6)});
    }
  };
  if (paths == nullptr) {
    read();
  } else {
    for (const std::string& path : *paths) {
      q.Reset();
      q.Bind(1, path);
      read();
      if (!st.ok()) break;
    }
  }
  if (!st.ok()) return st;
  return states;
}

Result<int64_t> Store::CountDocuments() {
  Statement q(db_, "SELECT count(*) FROM documents");
  Status st;
  if (!q.Step(&st)) return st.ok() ? Status(ErrorCode::kCorrupt, "count(*) gave no row") : st;
  return q.ColumnInt(0);
}

Status Store::CheckpointInBackground(int64_t max_log_bytes) {
  if (checkpointer_ != nullptr) return Status::OK();
  KEBAB_ASSIGN_OR_RETURN(checkpointer_, BackgroundCheckpointer::Start(db_, path_, max_log_bytes));
  return Status::OK();
}

Status Store::Checkpoint() {
  checkpointer_.reset();
  return Exec(db_, "PRAGMA wal_checkpoint(TRUNCATE)");
}

Status Store::RefreshPlannerStatistics() {
  return Exec(db_, "PRAGMA optimize");
}

Status Store::CompactFullTextIndex(bool full) {
  // Bulk writes leave many small FTS5 segments and every query must merge them (measured on
  // tldr-pages: search p95 13.3 ms before, 9.7 ms after; 'optimize' took 185 ms there).
  if (full) return Exec(db_, "INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')");
  return Exec(db_, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('merge', 500)");
}

Statement& Store::Prepared(SqlLiteral sql) {
  std::unique_ptr<Statement>& statement = statements_[sql.text()];
  if (statement == nullptr) statement = std::make_unique<Statement>(db_, sql.text());
  return *statement;
}

Store::SqlLiteral Store::ChunkIdByRowidSql() const {
  if (schema_version_ >= 7) {
    return "SELECT chunk_id FROM chunks INDEXED BY idx_chunks_rowid_id WHERE chunk_rowid = ?1";
  }
  return "SELECT chunk_id FROM chunks WHERE chunk_rowid = ?1";
}

Store::ReadSnapshot::ReadSnapshot(Store& store) {
  // A failed BEGIN leaves every read in its own transaction, as without a snapshot.
  if (sqlite3_get_autocommit(store.db_) != 0 &&
      sqlite3_exec(store.db_, "BEGIN", nullptr, nullptr, nullptr) == SQLITE_OK) {
    db_ = store.db_;
  }
}

Store::ReadSnapshot::~ReadSnapshot() {
  if (db_ != nullptr) sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
}

Status Store::Atomically(const std::function<Status()>& body) {
  const bool own_transaction = !in_batch_;
  if (own_transaction) KEBAB_RETURN_IF_ERROR(Exec(db_, "BEGIN IMMEDIATE"));
  Status st = body();
  if (!st.ok()) {
    // Inside a batch this discards the whole batch (see BeginBatch).
    (void)Exec(db_, "ROLLBACK");
    LeaveBatch();
    deferred_ = {};
    return st;
  }
  return own_transaction ? Exec(db_, "COMMIT") : Status::OK();
}

Status Store::BeginBatch() {
  if (in_batch_) return Status::OK();
  KEBAB_RETURN_IF_ERROR(Exec(db_, "BEGIN IMMEDIATE"));
  in_batch_ = true;
  return Status::OK();
}

void Store::LeaveBatch() {
  in_batch_ = false;
  next_block_rowid_ = 0;
  last_chunk_rowid_ = 0;
}

Status Store::CommitBatch() {
  if (!in_batch_) return Status::OK();
  LeaveBatch();
  Status st = ApplyDeferredDeletes();
  if (!st.ok()) {
    (void)Exec(db_, "ROLLBACK");
    return st;
  }
  return Exec(db_, "COMMIT");
}

Result<int64_t> Store::CorpusRevision() {
  Statement q(db_, "SELECT CAST(value AS INTEGER) FROM kv WHERE key = 'corpus_revision'");
  Status st;
  if (q.Step(&st)) return q.ColumnInt(0);
  if (!st.ok()) return st;
  return int64_t{0};
}

Result<int64_t> Store::BumpCorpusRevision() {
  KEBAB_RETURN_IF_ERROR(Exec(db_,
                             "UPDATE kv SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) "
                             "WHERE key = 'corpus_revision'"));
  return CorpusRevision();
}

Status Store::StartJob(const std::string& job_id, const std::string& kind,
                       const std::string& payload_json) {
  const std::string now = NowRfc3339();
  return Statement(db_,
                   "INSERT INTO jobs(job_id, kind, status, payload_json, created_at, updated_at) "
                   "VALUES (?1, ?2, 'running', ?3, ?4, ?4)")
      .Bind(1, job_id)
      .Bind(2, kind)
      .Bind(3, payload_json)
      .Bind(4, now)
      .Run();
}

Status Store::RecordIngestRun(const IngestRunRecord& r) {
  return Atomically([&]() -> Status {
    Statement run(db_,
                  "INSERT INTO ingest_runs(run_id, scope_json, scanned, new_count, updated_count, "
                  "skipped_count, error_count, duration_ms, started_at, finished_at, items_json) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    run.Bind(1, r.run_id)
        .Bind(2, r.scope_json)
        .Bind(3, r.scanned)
        .Bind(4, r.new_count)
        .Bind(5, r.updated_count)
        .Bind(6, r.skipped_count)
        .Bind(7, r.error_count)
        .Bind(8, r.duration_ms)
        .Bind(9, r.started_at)
        .Bind(10, r.finished_at);
    if (r.items_json) {
      run.Bind(11, *r.items_json);
    } else {
      run.BindNull(11);
    }
    KEBAB_RETURN_IF_ERROR(run.Run());
    return Statement(db_,
                     "UPDATE jobs SET status = ?2, updated_at = ?3, finished_at = ?3, "
                     "progress_json = ?4 WHERE job_id = ?1")
        .Bind(1, r.run_id)
        .Bind(2, r.status)
        .Bind(3, r.finished_at)
        .Bind(4, r.scope_json)
        .Run();
  });
}

}  // namespace kebab::store
