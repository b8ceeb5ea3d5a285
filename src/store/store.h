// The SQLite store (spec §5): the single source of truth for assets, documents, blocks,
// chunks, the FTS5 index, ingest runs and jobs. This module is the only code that writes SQL.
//
// A Store owns one connection and is NOT thread-safe: the ingest pipeline funnels every write
// through one writer thread. Several processes may open the same file (WAL); writers
// serialize on SQLite's lock. Every document write is one transaction, so a crash leaves each
// document either fully present or fully absent.
#pragma once

#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/search_types.h"
#include "core/status.h"
#include "core/types.h"
#include "store/answers.h"
#include "store/derivations.h"
#include "store/eval_runs.h"
#include "store/sqlite_util.h"
#include "store/text_column.h"
#include "store/vectors.h"
#include "text/token_stream.h"

namespace kebab::store {

class BackgroundCheckpointer;

struct StoreOptions {
  bool readonly = false;            // open SQLITE_OPEN_READONLY; no migrations, no writes
  std::string stemmer = "english";  // FTS tokenizer stemmer; a change rebuilds the FTS index
  // Readonly: map the file (fastest for a short-lived reader). A handle kept for many calls
  // reads through SQLite's own cache instead, bounded by its cache_size, where a mapping's
  // touched pages would stay in the process's RSS up to the file's size.
  bool map_file = true;
};

// What incremental ingest compares against, per workspace path.
struct StoredDocState {
  std::string doc_id;
  std::string asset_id;
  std::string parser_version;
  std::string chunker_version;
  std::string policy_hash;
  std::string source_uri;  // absolute path the document was read from
};

struct DocumentWrite {
  RawAsset asset;
  CanonicalDocument doc;
  std::vector<Chunk> chunks;
  std::string chunker_version;
  std::string policy_hash;

  // The JSON columns of the rows to insert. EncodeRows() fills them; ingest calls it on its
  // worker threads so the single writer thread only executes SQL.
  struct Encoded {
    std::string metadata, provenance;
    TextColumn block_heading, block_span, block_payload;
    TextColumn chunk_heading, chunk_spans, chunk_block_ids;
    // Full-text tokens of chunk_heading[i] and chunks[i].text, when EncodeRows had an analyzer.
    std::vector<text::TokenStream> chunk_heading_tokens, chunk_text_tokens;
    // kebab_text_hash() of each chunk's text (Blake3Key16), one after another: hashed here, on
    // the worker, rather than by the writer.
    std::string chunk_text_hashes;
  };
  std::optional<Encoded> encoded;
};

// Fills write->encoded from the document and chunks. Pure; safe on any thread. With an
// analyzer (one per thread), also analyzes the chunks for the full-text index, so the writer
// only copies their tokens in (text/token_stream.h).
void EncodeRows(DocumentWrite* write, const text::Analyzer* analyzer = nullptr);

struct DocSummary {
  std::string doc_id, doc_path, title, lang;
  std::vector<std::string> tags, aliases;
  TrustLevel trust_level = TrustLevel::kPrimary;
  SourceType source_type = SourceType::kMarkdown;
  std::string media;
  uint64_t byte_len = 0;
  int chunk_count = 0;
  std::string created_at, updated_at, ingested_at;
  std::string parser_version, chunker_version;
  std::string source_uri;  // absolute path the document was read from
  // A source file's programming language (Metadata::code_lang: "rust", "cpp", ...); `lang` stays
  // its natural language, `und` for code.
  std::optional<std::string> code_lang;
};

struct DocListFilter {
  std::optional<std::string> path;  // exactly this workspace path
  std::optional<std::string> path_glob;
  std::optional<std::string> tag;
  std::optional<std::string> lang;
  std::vector<std::string> code_langs;  // any of these programming languages (canonical names)
  int limit = 0;                        // 0 = all
  int offset = 0;
};

struct StoredDocument {
  CanonicalDocument doc;
  DocSummary summary;
  std::vector<std::string> chunk_ids;  // in document order
};

struct StoredChunk {
  Chunk chunk;
  int ordinal = 0;
  std::string doc_path;
  std::string title;
  std::string indexed_at;  // documents.ingested_at
};

struct LexicalQuery {
  std::string match;  // an FTS5 MATCH expression (built by the search module)
  // The query word each phrase of `match` stands for (-1: none), for the proximity part of
  // the ranking; empty ranks by BM25 alone.
  std::vector<int> phrase_words;
  SearchFilters filters;
  int limit = 10;
  int offset = 0;
};

// One chunk of a lexical ranking, before its row is read.
struct LexicalRank {
  int64_t chunk_rowid = 0;
  std::string chunk_id;
  double bm25 = 0;  // BM25 with proximity (store/internal/rank.h), higher = better
};

struct LexicalRow {
  int64_t chunk_rowid = 0;
  StoredChunk chunk;
  double bm25 = 0;  // BM25 with proximity (store/internal/rank.h), higher = better
  std::string lang, source_type, trust_level;
  std::optional<std::string> repo, code_lang;  // the document's Metadata fields, when set
};

struct StoreStats {
  int64_t doc_count = 0, chunk_count = 0, asset_count = 0, block_count = 0;
  std::optional<std::string> last_ingest_at;
  std::map<std::string, int64_t> media_breakdown, lang_breakdown;
  // Documents per parser and chunker version ("audio-v1+asr(...)", "transcript-v1").
  std::map<std::string, int64_t> parser_breakdown, chunker_breakdown;
  // Source code per language and files per git repository: documents, and their chunks.
  std::map<std::string, int64_t> code_lang_breakdown, code_lang_chunk_breakdown;
  std::map<std::string, int64_t> repo_breakdown, repo_chunk_breakdown;
  int64_t sqlite_bytes = 0;
  int64_t fts_rows = 0;
};

struct IngestRunRecord {
  std::string run_id;
  std::string scope_json;
  int64_t scanned = 0, new_count = 0, updated_count = 0, skipped_count = 0, error_count = 0;
  int64_t duration_ms = 0;
  std::string started_at, finished_at;
  std::optional<std::string> items_json;
  std::string status;  // succeeded | canceled | failed (recorded in jobs)
};

class Store {
 public:
  // Opens (creating the file and its directory unless readonly) and migrates. A readonly
  // open of a missing file → kNotIndexed; of an older schema → kNotIndexed with a hint.
  static Result<std::unique_ptr<Store>> Open(const std::string& path, const StoreOptions& options);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }
  int schema_version() const { return schema_version_; }
  const std::string& stemmer() const { return stemmer_; }

  // Runs the reads made while it lives in one read transaction: they see one snapshot of the
  // index (a concurrent ingest cannot land between them), and the WAL read lock is taken once
  // instead of per statement, which costs more than a small lookup. Inside an open
  // transaction it does nothing.
  class ReadSnapshot {
   public:
    explicit ReadSnapshot(Store& store);
    ~ReadSnapshot();
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;

   private:
    sqlite3* db_ = nullptr;  // null when the snapshot did not begin a transaction
  };

  // --- ingest side ---
  // The stored state of every document by workspace path, or of those at `paths` only (an
  // ingest of a few files in a large index need not read them all).
  Result<std::unordered_map<std::string, StoredDocState>> LoadDocStates(
      const std::vector<std::string>* paths = nullptr);
  Result<int64_t> CountDocuments();
  // Replaces whatever document is stored at doc.workspace_path with this one, atomically
  // (old blocks, chunks, tags and FTS rows go with it): its own transaction, or its own
  // savepoint inside a batch.
  Status WriteDocument(const DocumentWrite& write);
  // Group commit for bulk ingest: between BeginBatch and CommitBatch, WriteDocument and
  // PurgePath join one transaction, so the durable commit and the FTS5 segment flush happen
  // once per batch instead of once per document. Documents stay all-or-nothing: a batch
  // holds whole documents only, and a failed write rolls the whole batch back (the error is
  // returned; in_batch() turns false). A crash likewise loses at most the uncommitted batch,
  // which the next ingest redoes. (Savepoints per document were tried: FTS5 flushes its
  // pending terms at every savepoint, which costs as much as a commit.)
  Status BeginBatch();
  Status CommitBatch();
  bool in_batch() const { return in_batch_; }
  // Loading into an empty store (store/bulk_load.cc): drops the secondary indexes that only
  // reads, deletes and filters use, so each row written costs no random-position index
  // inserts, and turns FTS5's automerge off; EndBulkLoad builds the indexes back by one sort
  // each and turns automerge on. Returns false, doing nothing, when documents are stored.
  // Reads stay correct meanwhile, only slower; a store left so (a crash mid-load) is put
  // right at its next writable open.
  Result<bool> BeginBulkLoad();
  Status EndBulkLoad();
  // Removes the document at `workspace_path` (and its asset when unreferenced).
  Status PurgePath(const std::string& workspace_path);
  Result<int64_t> CorpusRevision();
  Result<int64_t> BumpCorpusRevision();
  Status StartJob(const std::string& job_id, const std::string& kind,
                  const std::string& payload_json);
  Status RecordIngestRun(const IngestRunRecord& run);
  // --- derivation cache and OCR log (store/derivations.cc) ---
  // The payload cached under `key`, or nullopt.
  Result<std::optional<std::string>> GetDerivation(const std::string& key);
  // Writes the rows and events in one transaction (a key already there is replaced).
  Status PutDerivations(const std::vector<DerivationRow>& rows,
                        const std::vector<OcrEventRecord>& events);
  // Every event, or those of one document; failures only when `failures_only`, newest first.
  Result<std::vector<OcrEventRecord>> OcrEvents(const std::optional<std::string>& doc_path,
                                                bool failures_only, int limit);
  Result<OcrStats> ComputeOcrStats();
  // --- answers of `kebab ask` (store/answers.cc) ---
  // Inserts the row; a second record with the same trace id replaces the first.
  Status RecordAnswer(const AnswerRecord& answer);
  // The stored answer.v1 object of `trace_id`, or nullopt when there is none.
  Result<std::optional<std::string>> AnswerJson(const std::string& trace_id);
  // The chunks that answer's prompt held (stored for --explain asks only).
  Result<std::optional<std::string>> PackedChunksJson(const std::string& trace_id);
  // --- eval runs (store/eval_runs.cc) ---
  // The run and its per-query rows, all or nothing.
  Status RecordEvalRun(const EvalRunRecord& run, const std::vector<EvalQueryRecord>& queries);
  Result<std::optional<EvalRunRecord>> GetEvalRun(const std::string& run_id);
  // Newest first; limit 0 = all.
  Result<std::vector<EvalRunRecord>> ListEvalRuns(int limit);
  // In the order they were recorded.
  Result<std::vector<EvalQueryRecord>> EvalQueryResults(const std::string& run_id);
  Status SetEvalAggregate(const std::string& run_id, const std::string& aggregate_json);
  // The document indexed at a workspace path, or nullopt.
  Result<std::optional<std::string>> DocIdOfPath(const std::string& workspace_path);
  // Until Checkpoint(), copies the write-ahead log into the database file on a thread of its
  // own instead of in the commits that fill it, keeping the log near `max_log_bytes`
  // (store/checkpointer.h): for bulk writes.
  Status CheckpointInBackground(int64_t max_log_bytes = 64 << 20);
  // Folds the write-ahead log back into the database file and truncates it, so readers after
  // a bulk ingest do not wade through a long WAL.
  Status Checkpoint();
  // Merges FTS5 segments: all of them into one when `full` (cost grows with the index, so
  // for large rewrites only), else a bounded incremental merge.
  Status CompactFullTextIndex(bool full);
  // Lets SQLite re-analyze tables whose shape a write changed (PRAGMA optimize). Ingest runs
  // it after a run that changed the corpus; readers never pay for it.
  Status RefreshPlannerStatistics();

  // --- embedding spaces and vectors (store/vectors.cc) ---
  Result<std::optional<int64_t>> FindSpaceId(const SpaceKey& key);
  // Cheap (search checks it on every query); CountVectors reads the whole space.
  Result<bool> HasVectors(int64_t space_id);
  Result<int64_t> CountVectors(int64_t space_id);
  Result<std::vector<StoredSpace>> ListSpaces();
  Result<int64_t> EnsureSpace(const SpaceKey& key);
  // Up to `limit` chunks after `after_rowid` (in rowid order) whose text has no vector in the
  // space. Chunks sharing a text each appear.
  Result<std::vector<PendingText>> TextsWithoutVectors(int64_t space_id, int limit,
                                                       int64_t after_rowid = 0);
  Result<int64_t> CountTextsWithoutVectors(int64_t space_id);
  // Stores one vector per text hash, atomically.
  Status PutVectors(int64_t space_id, const std::vector<std::string>& text_hashes,
                    const std::vector<std::vector<float>>& vectors);
  // The `limit` chunks most similar to the unit-length `query`, filters applied while
  // scanning (so k hits come back whenever k matching chunks have vectors); ties by chunk id.
  Result<std::vector<VectorHit>> ExactVectorSearch(int64_t space_id,
                                                   const std::vector<float>& query,
                                                   const SearchFilters& filters, int limit);
  // Deletes every embedding space and vector, bumping the corpus revision; returns how many
  // vectors went.
  Result<int64_t> DeleteAllVectors();
  // Deletes one embedding space and its vectors, bumping the corpus
  // revision; returns how many vectors went (0, and no change, for an unknown id).
  Result<int64_t> DeleteSpace(int64_t space_id);
  Result<VectorIndexStamp> IndexStamp();
  // Chunks that have a vector in the space: how many, and each in rowid order.
  Result<int64_t> CountChunkVectors(int64_t space_id);
  Status ScanSpaceVectors(int64_t space_id, const std::function<Status(const ChunkVector&)>& fn);
  // Rowids, ascending, of the chunks whose documents pass `filters`.
  Result<std::vector<int64_t>> FilteredChunkRowids(const SearchFilters& filters);
  // Exact cosine of `query` with the stored vector of each chunk in `rowids` (chunks without
  // one in the space are left out), best first, ties by chunk id.
  Result<std::vector<VectorHit>> ScoreChunks(int64_t space_id, const std::vector<float>& query,
                                             const std::vector<int64_t>& rowids);
  // The best `depth` of hits scored outside the store, best first, ties by chunk id, each with
  // its chunk_id filled in from its rowid (hits whose chunk is gone are dropped). Only hits
  // that can make the cut are looked up.
  Result<std::vector<VectorHit>> NameAndRank(std::vector<VectorHit> hits, int depth);
  // Chunk rows (with their document's lang, source type and trust) by rowid, in that order.
  Result<std::vector<LexicalRow>> ChunksByRowid(const std::vector<int64_t>& rowids);

  // --- read side ---
  Result<std::vector<DocSummary>> ListDocuments(const DocListFilter& filter);
  Result<std::optional<StoredDocument>> GetDocument(const std::string& doc_id);
  Result<std::optional<StoredChunk>> GetChunk(const std::string& chunk_id);
  Result<std::vector<StoredChunk>> GetChunksOfDocument(const std::string& doc_id);
  // The page of the ranking (score desc, chunk id asc) without reading chunk rows: what a
  // hybrid search fuses, where most candidates never reach the page.
  Result<std::vector<LexicalRank>> LexicalRanking(const LexicalQuery& query);
  // LexicalRanking's page with each chunk's row (a chunk deleted since it was ranked is
  // missing).
  Result<std::vector<LexicalRow>> LexicalSearch(const LexicalQuery& query);
  Result<StoreStats> Stats();
  // "ok" or the problems PRAGMA integrity_check reports.
  Result<std::string> IntegrityCheck();
  // "ok", or what FTS5 found wrong between the full-text index and the chunks.
  Result<std::string> FullTextIntegrityCheck();

 private:
  Store(sqlite3* db, std::string path);
  Status Configure(const StoreOptions& options);
  Result<std::string> DocIdAtPath(const std::string& workspace_path);
  // Removes a document's rows. Its FTS entries and orphaned asset go at the end of the batch
  // (at once outside one).
  Status DeleteDocument(const std::string& doc_id);
  Status ApplyDeferredDeletes();
  // The first rowid of the next document's blocks (a document's blocks are one range).
  Result<int64_t> NextBlockRowid();
  Status InsertBlocks(const DocumentWrite& write, int64_t first_rowid);
  // The statement inserting `rows` (1..kBlocksPerInsert) blocks of one document.
  Statement& BlockInsert(size_t rows);
  // Chunk rows and their full-text entries.
  Status InsertChunks(const DocumentWrite& write, const std::string& now);
  // SQL text with static storage (a string literal), which the statement cache keys on.
  class SqlLiteral {
   public:
    // Implicit, so that call sites pass the literal itself.
    template <size_t N>
    consteval SqlLiteral(const char (&text)[N]) : text_(text) {}
    const char* text() const { return text_; }

   private:
    const char* text_;
  };
  // A prepared statement reused across calls (reset after each use by the caller's Run()).
  Statement& Prepared(SqlLiteral sql);
  // "SELECT chunk_id … WHERE chunk_rowid = ?1", from the covering index where the schema
  // has it (SQLite itself would always read the table by rowid).
  SqlLiteral ChunkIdByRowidSql() const;
  // Ends the batch's transaction state: the rowid counters are only valid inside one.
  void LeaveBatch();
  // Runs `body` as one all-or-nothing unit: its own transaction, or part of the open batch.
  Status Atomically(const std::function<Status()>& body);

  sqlite3* db_;
  std::string path_;
  std::string stemmer_;
  int schema_version_ = 0;
  bool in_batch_ = false;
  // Deletes DeleteDocument leaves for the end of the batch (see ApplyDeferredDeletes).
  struct Deferred {
    struct FtsDelete {
      int64_t rowid;
      std::string heading, text;
    };
    std::vector<FtsDelete> fts_deletes;
    int64_t max_rowid = 0;               // of fts_deletes
    std::vector<std::string> asset_ids;  // unreferenced ones are dropped
  };
  Deferred deferred_;
  // Within a batch this connection is the only writer, so after one max() query each the next
  // rowids are counted here instead of queried for every document; 0 = not yet known. Blocks
  // take SQLite's next rowid (the largest plus one), so deleting blocks forgets the count.
  int64_t next_block_rowid_ = 0;
  int64_t last_chunk_rowid_ = 0;
  // Keyed by the address of the SQL literal: hashing the text cost the ingest writer more than
  // a percent of its instructions (it makes ~8 lookups per document).
  std::unordered_map<const char*, std::unique_ptr<Statement>> statements_;
  // Blocks go in up to eight rows per statement: a tldr-pages document has 8.4 on average, and
  // one statement per block cost the writer more in statement overhead than in rows.
  static constexpr size_t kBlocksPerInsert = 8;
  std::array<std::unique_ptr<Statement>, kBlocksPerInsert> block_inserts_;
  std::unique_ptr<BackgroundCheckpointer> checkpointer_;
};

}  // namespace kebab::store
