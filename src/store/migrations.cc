#include "store/migrations.h"

#include <string>

#include "core/time.h"
#include "store/sqlite_util.h"

namespace kebab::store {
namespace {

// V001: the tables of spec §5 that the lexical pipeline needs. Deviations from the spec DDL,
// all for the same contract at lower cost:
// - assets are content-addressed (several paths may share one asset row), so the unique key
//   on workspace_path lives on documents only;
// - chunks get an INTEGER PRIMARY KEY so chunks_fts can be an external-content FTS5 table
//   (chunk text is stored once) with the project's own tokenizer "kebab";
// - blocks are read per document (by doc_id, ordinal), never by block_id alone, so they are
//   a rowid table without a second index on the random 32-hex block_id;
// - documents carry chunker_version / policy_hash / ingested_at for incremental ingest and
//   the --ingested-after filter, and source_uri (the absolute path read) so a run over one
//   root never mistakes another root's documents for deleted files; chunks carry their
//   ordinal for fetch --context.
constexpr std::string_view kV001 = R"sql(
CREATE TABLE kv (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT INTO kv(key, value) VALUES ('corpus_revision', '0');

CREATE TABLE assets (
  asset_id       TEXT PRIMARY KEY,
  source_uri     TEXT NOT NULL,
  workspace_path TEXT NOT NULL,
  media_type     TEXT NOT NULL,
  byte_len       INTEGER NOT NULL,
  checksum       TEXT NOT NULL,
  storage_kind   TEXT NOT NULL CHECK (storage_kind IN ('copied','reference')),
  storage_path   TEXT NOT NULL,
  discovered_at  TEXT NOT NULL
);
CREATE INDEX idx_assets_workspace_path ON assets(workspace_path);
CREATE INDEX idx_assets_media_type ON assets(media_type);

CREATE TABLE documents (
  doc_id          TEXT PRIMARY KEY,
  asset_id        TEXT NOT NULL REFERENCES assets(asset_id) ON DELETE RESTRICT,
  workspace_path  TEXT NOT NULL,
  source_uri      TEXT NOT NULL,
  title           TEXT,
  lang            TEXT,
  source_type     TEXT NOT NULL,
  trust_level     TEXT NOT NULL,
  parser_version  TEXT NOT NULL,
  chunker_version TEXT,
  policy_hash     TEXT,
  doc_version     INTEGER NOT NULL,
  schema_version  INTEGER NOT NULL,
  metadata_json   TEXT NOT NULL,
  provenance_json TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  ingested_at     TEXT NOT NULL
);
CREATE UNIQUE INDEX idx_docs_workspace_path ON documents(workspace_path);
CREATE INDEX idx_docs_asset_id ON documents(asset_id);
CREATE INDEX idx_docs_lang ON documents(lang);
CREATE INDEX idx_docs_source_type ON documents(source_type);

CREATE TABLE document_tags (
  doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
  tag    TEXT NOT NULL,
  PRIMARY KEY (doc_id, tag)
) WITHOUT ROWID;
CREATE INDEX idx_document_tags_tag ON document_tags(tag);

CREATE TABLE blocks (
  block_rowid       INTEGER PRIMARY KEY,
  block_id          TEXT NOT NULL,
  doc_id            TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
  kind              TEXT NOT NULL,
  heading_path_json TEXT NOT NULL,
  ordinal           INTEGER NOT NULL,
  source_span_json  TEXT NOT NULL,
  payload_json      TEXT NOT NULL
);
CREATE INDEX idx_blocks_doc_id ON blocks(doc_id, ordinal);

CREATE TABLE chunks (
  chunk_rowid       INTEGER PRIMARY KEY,
  chunk_id          TEXT NOT NULL UNIQUE,
  doc_id            TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
  ordinal           INTEGER NOT NULL,
  text              TEXT NOT NULL,
  heading_path_json TEXT NOT NULL,
  section_label     TEXT,
  source_spans_json TEXT NOT NULL,
  token_estimate    INTEGER NOT NULL,
  chunker_version   TEXT NOT NULL,
  policy_hash       TEXT NOT NULL,
  block_ids_json    TEXT NOT NULL,
  created_at        TEXT NOT NULL
);
CREATE INDEX idx_chunks_doc_id ON chunks(doc_id, ordinal);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
  heading_path_json,
  text,
  content = 'chunks',
  content_rowid = 'chunk_rowid',
  tokenize = 'kebab'
);
-- Bulk ingest commits in batches: let FTS5 buffer a whole batch in memory (hashsize) and
-- merge segments less eagerly (automerge) than its defaults, which are tuned for small writes.
INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('hashsize', 16777216);
INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('automerge', 8);
CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, heading_path_json, text)
  VALUES (new.chunk_rowid, new.heading_path_json, new.text);
END;
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, heading_path_json, text)
  VALUES ('delete', old.chunk_rowid, old.heading_path_json, old.text);
END;
CREATE TRIGGER chunks_au AFTER UPDATE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, heading_path_json, text)
  VALUES ('delete', old.chunk_rowid, old.heading_path_json, old.text);
  INSERT INTO chunks_fts(rowid, heading_path_json, text)
  VALUES (new.chunk_rowid, new.heading_path_json, new.text);
END;

CREATE TABLE jobs (
  job_id        TEXT PRIMARY KEY,
  kind          TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('pending','running','succeeded','failed','canceled')),
  payload_json  TEXT NOT NULL,
  progress_json TEXT,
  error_json    TEXT,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  finished_at   TEXT
);
CREATE INDEX idx_jobs_status ON jobs(status);
CREATE INDEX idx_jobs_kind ON jobs(kind);

CREATE TABLE ingest_runs (
  run_id        TEXT PRIMARY KEY,
  scope_json    TEXT NOT NULL,
  scanned       INTEGER NOT NULL,
  new_count     INTEGER NOT NULL,
  updated_count INTEGER NOT NULL,
  skipped_count INTEGER NOT NULL,
  error_count   INTEGER NOT NULL,
  duration_ms   INTEGER NOT NULL,
  started_at    TEXT NOT NULL,
  finished_at   TEXT NOT NULL,
  items_json    TEXT
);
)sql";

// V002, two changes for the single ingest writer thread (together with token replay, see
// text/token_stream.h, its CPU time on tldr-pages' 38k files fell from ~5.3 s to ~3.4 s):
// - The store writes chunks_fts rows itself. A trigger makes every chunk INSERT or DELETE a
//   multi-row statement, so SQLite wraps it in a statement savepoint, and FTS5 (3.40) flushes
//   its pending terms to a new segment at every savepoint: a segment per chunk, then merges.
// - A document's blocks are one contiguous rowid range recorded on the document
//   (first_block_rowid, block_count) instead of an index on (doc_id, ordinal): the index took
//   a random-position insert per block (~8 per document) for a lookup a range scan does.
//   Without the index a foreign-key cascade would scan the table, so the store deletes a
//   document's blocks itself.
constexpr std::string_view kV002 = R"sql(
DROP TRIGGER chunks_ai;
DROP TRIGGER chunks_ad;
DROP TRIGGER chunks_au;
ALTER TABLE documents ADD COLUMN first_block_rowid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN block_count INTEGER NOT NULL DEFAULT 0;
CREATE TABLE blocks_v2 (
  block_rowid       INTEGER PRIMARY KEY,
  block_id          TEXT NOT NULL,
  doc_id            TEXT NOT NULL,
  kind              TEXT NOT NULL,
  heading_path_json TEXT NOT NULL,
  ordinal           INTEGER NOT NULL,
  source_span_json  TEXT NOT NULL,
  payload_json      TEXT NOT NULL
);
INSERT INTO blocks_v2(block_id, doc_id, kind, heading_path_json, ordinal, source_span_json,
                      payload_json)
  SELECT block_id, doc_id, kind, heading_path_json, ordinal, source_span_json, payload_json
  FROM blocks ORDER BY doc_id, ordinal;
DROP TABLE blocks;
ALTER TABLE blocks_v2 RENAME TO blocks;
CREATE INDEX temp_blocks_doc_id ON blocks(doc_id);
UPDATE documents SET (first_block_rowid, block_count) =
  (SELECT coalesce(min(block_rowid), 0), count(*) FROM blocks b WHERE b.doc_id = documents.doc_id);
DROP INDEX temp_blocks_doc_id;
)sql";

// V003: vector search. An embedding space is one model, version, dimension count and document
// prefix; its vectors are keyed by the BLAKE3 of the chunk text they embed, so unchanged text is
// never embedded twice, even after a move or rename, and switching models keeps the old space.
// chunks.text_hash (kebab_text_hash(), registered by the store) joins the two.
constexpr std::string_view kV003 = R"sql(
CREATE TABLE embedding_spaces (
  space_id        INTEGER PRIMARY KEY,
  provider        TEXT NOT NULL,
  model           TEXT NOT NULL,
  version         TEXT NOT NULL,
  dimensions      INTEGER NOT NULL,
  document_prefix TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  UNIQUE (provider, model, version, dimensions, document_prefix)
);
CREATE TABLE embeddings (
  space_id  INTEGER NOT NULL REFERENCES embedding_spaces(space_id) ON DELETE CASCADE,
  text_hash BLOB NOT NULL,
  vector    BLOB NOT NULL,
  PRIMARY KEY (space_id, text_hash)
) WITHOUT ROWID;
ALTER TABLE chunks ADD COLUMN text_hash BLOB;
UPDATE chunks SET text_hash = kebab_text_hash(text);
CREATE INDEX idx_chunks_text_hash ON chunks(text_hash);
)sql";

// V004: what the vector index cache (src/index) is stamped with. store_id tells databases apart
// (a recreated kebab.sqlite restarts its revisions, so revisions alone could match a stale
// cache); vectors_revision changes whenever vectors are added or removed.
constexpr std::string_view kV004 = R"sql(
INSERT OR IGNORE INTO kv(key, value) VALUES ('store_id', lower(hex(randomblob(16))));
INSERT OR IGNORE INTO kv(key, value) VALUES ('vectors_revision', '0');
)sql";

// V005: every `kebab ask`, refusals included (spec §5.7). answer_json keeps the whole
// answer.v1 object, so `kebab inspect answer` shows exactly what the user saw; the other columns
// are the spec's, for queries over many answers.
constexpr std::string_view kV005 = R"sql(
CREATE TABLE answers (
  trace_id                TEXT PRIMARY KEY,
  query                   TEXT NOT NULL,
  answer                  TEXT NOT NULL,
  grounded                INTEGER NOT NULL,
  refusal_reason          TEXT,
  model_id                TEXT NOT NULL,
  model_provider          TEXT NOT NULL,
  embedding_model_id      TEXT,
  embedding_dimensions    INTEGER,
  prompt_template_version TEXT NOT NULL,
  retrieval_mode          TEXT NOT NULL,
  retrieval_k             INTEGER NOT NULL,
  score_gate              REAL NOT NULL,
  top_score               REAL NOT NULL,
  chunks_returned         INTEGER NOT NULL,
  chunks_used             INTEGER NOT NULL,
  citations_json          TEXT NOT NULL,
  packed_chunks_json      TEXT,
  prompt_tokens           INTEGER,
  completion_tokens       INTEGER,
  latency_ms              INTEGER,
  created_at              TEXT NOT NULL,
  answer_json             TEXT NOT NULL
);
CREATE INDEX idx_answers_created_at ON answers(created_at);
CREATE INDEX idx_answers_grounded ON answers(grounded);
)sql";

// V006: `kebab eval run` (spec §5.7). result_json holds one query's hits and metrics,
// aggregate_json the run's means; the reports under runs/<run_id>/ are rendered from them.
constexpr std::string_view kV006 = R"sql(
CREATE TABLE eval_runs (
  run_id               TEXT PRIMARY KEY,
  suite                TEXT NOT NULL,
  config_snapshot_json TEXT NOT NULL,
  aggregate_json       TEXT NOT NULL,
  commit_hash          TEXT,
  created_at           TEXT NOT NULL
);
CREATE INDEX idx_eval_runs_created_at ON eval_runs(created_at);
CREATE TABLE eval_query_results (
  run_id      TEXT NOT NULL REFERENCES eval_runs(run_id) ON DELETE CASCADE,
  query_id    TEXT NOT NULL,
  result_json TEXT NOT NULL,
  PRIMARY KEY (run_id, query_id)
);
)sql";

// V007: chunk ids by rowid from a covering index. A search names the candidates each channel
// ranked (~80 a hybrid query) by rowid; read from the chunks table, every one touched a page
// of chunk text, and a kept connection's cache filled with text it never used.
constexpr std::string_view kV007 = R"sql(
CREATE INDEX idx_chunks_rowid_id ON chunks(chunk_rowid, chunk_id);
)sql";

// V008: the derivation cache (OCR pages, captions) and the OCR log (store/derivations.h).
constexpr std::string_view kV008 = R"sql(
CREATE TABLE derivations (
  cache_key TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE ocr_events (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  ts TEXT NOT NULL,
  doc_path TEXT NOT NULL,
  page INTEGER NOT NULL,
  ms INTEGER NOT NULL,
  chars INTEGER NOT NULL,
  cached INTEGER NOT NULL,
  engine TEXT NOT NULL,
  failure TEXT
);
CREATE INDEX idx_ocr_events_path ON ocr_events(doc_path, ts);
)sql";

// V009: identifiers are indexed as their words plus the whole (text/identifier.h): the index
// is tokenized again from the chunks it holds, so old rows match new queries.
constexpr std::string_view kV009 = R"sql(
INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild');
)sql";

constexpr Migration kMigrations[] = {
    {1, "documents, blocks, chunks, FTS5 (kebab tokenizer), jobs, ingest runs", kV001},
    {2, "chunks_fts written by the store; blocks as one rowid range per document", kV002},
    {3, "embedding spaces and vectors keyed by chunk text hash", kV003},
    {4, "store id and vectors revision for the vector index cache", kV004},
    {5, "answers of kebab ask, refusals included", kV005},
    {6, "eval runs and their per-query results", kV006},
    {7, "chunk ids by rowid from a covering index", kV007},
    {8, "derivation cache (OCR, captions) and OCR log", kV008},
    {9, "chunks_fts tokenized again: identifiers as their words and the whole", kV009},
};

}  // namespace

std::span<const Migration> AllMigrations() {
  return {kMigrations, sizeof(kMigrations) / sizeof(kMigrations[0])};
}

int LatestSchemaVersion() {
  return AllMigrations().back().version;
}

Result<int> CurrentSchemaVersion(sqlite3* db) {
  Statement probe(db, "SELECT count(*) FROM sqlite_master WHERE name = 'schema_meta'");
  Status st;
  if (!probe.Step(&st)) return st.ok() ? Status(ErrorCode::kCorrupt, "sqlite_master empty") : st;
  if (probe.ColumnInt(0) == 0) return 0;
  Statement q(db, "SELECT value FROM schema_meta WHERE key = 'schema_version'");
  if (!q.Step(&st)) return st.ok() ? Result<int>(0) : Result<int>(st);
  return std::stoi(q.ColumnText(0));
}

Status ApplyMigrations(sqlite3* db, int target_version) {
  if (target_version <= 0) target_version = LatestSchemaVersion();
  KEBAB_ASSIGN_OR_RETURN(int current, CurrentSchemaVersion(db));
  if (current > LatestSchemaVersion()) {
    return Status(ErrorCode::kIoError,
                  "database schema v" + std::to_string(current) + " is newer than this kebab (v" +
                      std::to_string(LatestSchemaVersion()) + ")",
                  "upgrade kebab, or point --config at another data_dir");
  }
  if (current >= target_version) return Status::OK();
  KEBAB_RETURN_IF_ERROR(Exec(db, "BEGIN IMMEDIATE"));
  Status st = Exec(db,
                   "CREATE TABLE IF NOT EXISTS schema_meta (key TEXT PRIMARY KEY, value TEXT NOT "
                   "NULL);"
                   "CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, applied_at "
                   "TEXT NOT NULL, description TEXT NOT NULL);");
  for (const Migration& m : AllMigrations()) {
    if (!st.ok()) break;
    if (m.version <= current || m.version > target_version) continue;
    st = Exec(db, m.sql).WithContext("migration V" + std::to_string(m.version));
    if (!st.ok()) break;
    Statement rec(db, "INSERT INTO migrations(id, applied_at, description) VALUES (?1, ?2, ?3)");
    st = rec.Bind(1, m.version).Bind(2, NowRfc3339()).Bind(3, m.description).Run();
  }
  if (st.ok()) {
    Statement ver(db,
                  "INSERT INTO schema_meta(key, value) VALUES ('schema_version', ?1) "
                  "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    st = ver.Bind(1, std::to_string(target_version)).Run();
  }
  if (!st.ok()) {
    (void)Exec(db, "ROLLBACK");
    return st;
  }
  return Exec(db, "COMMIT");
}

}  // namespace kebab::store
