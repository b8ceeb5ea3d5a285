// Store methods for embedding spaces and vectors, and exact (brute-force) vector search.
#include "store/vectors.h"

#include <algorithm>
#include <cstring>
#include <queue>

#include "core/hash.h"
#include "core/time.h"
#include "store/internal/filters.h"
#include "store/store.h"

namespace kebab::store {
namespace {

void SqlTextHash(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  if (text == nullptr) {
    sqlite3_result_null(ctx);
    return;
  }
  const std::string key =
      Blake3Key16(std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(argv[0]))));
  sqlite3_result_blob(ctx, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
}

float Dot(const float* a, const float* b, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

bool RanksBefore(const VectorHit& a, const VectorHit& b) {
  if (a.similarity != b.similarity) return a.similarity > b.similarity;
  return a.chunk_id < b.chunk_id;
}

// The count `sql` selects for ?1 = space_id (0 when it selects no row).
Result<int64_t> CountForSpace(sqlite3* db, const char* sql, int64_t space_id) {
  Statement q(db, sql);
  q.Bind(1, space_id);
  Status st;
  if (q.Step(&st)) return q.ColumnInt(0);
  if (!st.ok()) return st;
  return int64_t{0};
}

// The vector index cache is stamped with this; every change to the vectors bumps it.
Status BumpVectorsRevision(sqlite3* db) {
  return Exec(db,
              "UPDATE kv SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) "
              "WHERE key = 'vectors_revision'");
}

}  // namespace

Status RegisterTextHashFunction(sqlite3* db) {
  const int rc = sqlite3_create_function_v2(db, "kebab_text_hash", 1,
                                            SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                            nullptr, SqlTextHash, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return SqliteError(db, rc, "register kebab_text_hash");
  return Status::OK();
}

Result<std::optional<int64_t>> Store::FindSpaceId(const SpaceKey& key) {
  Statement q(db_,
              "SELECT space_id FROM embedding_spaces WHERE provider = ?1 AND model = ?2 AND "
              "version = ?3 AND dimensions = ?4 AND document_prefix = ?5");
  q.Bind(1, key.provider).Bind(2, key.model).Bind(3, key.version).Bind(4, key.dimensions);
  q.Bind(5, key.document_prefix);
  Status st;
  if (q.Step(&st)) return std::optional<int64_t>(q.ColumnInt(0));
  if (!st.ok()) return st;
  return std::optional<int64_t>();
}

Result<bool> Store::HasVectors(int64_t space_id) {
  Statement q(db_, "SELECT EXISTS (SELECT 1 FROM embeddings WHERE space_id = ?1)");
  q.Bind(1, space_id);
  Status st;
  if (q.Step(&st)) return q.ColumnInt(0) != 0;
  if (!st.ok()) return st;
  return false;
}

Result<int64_t> Store::CountVectors(int64_t space_id) {
  return CountForSpace(db_, "SELECT count(*) FROM embeddings WHERE space_id = ?1", space_id);
}

Result<std::vector<StoredSpace>> Store::ListSpaces() {
  Statement q(db_,
              "SELECT s.space_id, provider, model, version, dimensions, document_prefix, "
              "(SELECT count(*) FROM embeddings e WHERE e.space_id = s.space_id) "
              "FROM embedding_spaces s ORDER BY space_id");
  std::vector<StoredSpace> out;
  Status st;
  while (q.Step(&st)) {
    out.push_back({q.ColumnInt(0),
                   {q.ColumnText(1), q.ColumnText(2), q.ColumnText(3),
                    static_cast<int>(q.ColumnInt(4)), q.ColumnText(5)},
                   q.ColumnInt(6)});
  }
  if (!st.ok()) return st;
  return out;
}

Result<int64_t> Store::EnsureSpace(const SpaceKey& key) {
  KEBAB_ASSIGN_OR_RETURN(std::optional<int64_t> found, FindSpaceId(key));
  if (found) return *found;
  KEBAB_RETURN_IF_ERROR(
      Statement(db_,
                "INSERT INTO embedding_spaces(provider, model, version, dimensions, "
                "document_prefix, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
          .Bind(1, key.provider)
          .Bind(2, key.model)
          .Bind(3, key.version)
          .Bind(4, key.dimensions)
          .Bind(5, key.document_prefix)
          .Bind(6, NowRfc3339())
          .Run());
  return static_cast<int64_t>(sqlite3_last_insert_rowid(db_));
}

Result<std::vector<PendingText>> Store::TextsWithoutVectors(int64_t space_id, int limit,
                                                            int64_t after_rowid) {
  // Walks chunks in rowid order from `after_rowid`, so a caller paging through a large index
  // reads each chunk once.
  Statement q(db_,
              "SELECT c.chunk_rowid, c.text_hash, c.text FROM chunks c WHERE c.chunk_rowid > ?3 "
              "AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.space_id = ?1 AND "
              "e.text_hash = c.text_hash) ORDER BY c.chunk_rowid LIMIT ?2");
  q.Bind(1, space_id).Bind(2, static_cast<int64_t>(limit)).Bind(3, after_rowid);
  std::vector<PendingText> out;
  Status st;
  while (q.Step(&st)) {
    out.push_back({q.ColumnInt(0), std::string(q.ColumnBlob(1)), q.ColumnText(2)});
  }
  if (!st.ok()) return st;
  return out;
}

Result<int64_t> Store::CountTextsWithoutVectors(int64_t space_id) {
  return CountForSpace(
      db_,
      "SELECT count(DISTINCT c.text_hash) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM "
      "embeddings e WHERE e.space_id = ?1 AND e.text_hash = c.text_hash)",
      space_id);
}

Status Store::PutVectors(int64_t space_id, const std::vector<std::string>& text_hashes,
                         const std::vector<std::vector<float>>& vectors) {
  return Atomically([&]() -> Status {
    Statement& put = Prepared(
        "INSERT OR REPLACE INTO embeddings(space_id, text_hash, vector) VALUES (?1, ?2, ?3)");
    for (size_t i = 0; i < text_hashes.size() && i < vectors.size(); ++i) {
      const std::string blob(reinterpret_cast<const char*>(vectors[i].data()),
                             vectors[i].size() * sizeof(float));
      KEBAB_RETURN_IF_ERROR(
          put.Bind(1, space_id).BindBlob(2, text_hashes[i]).BindBlob(3, blob).Run());
    }
    return BumpVectorsRevision(db_);
  });
}

Result<int64_t> Store::DeleteAllVectors() {
  int64_t removed = 0;
  KEBAB_RETURN_IF_ERROR(Atomically([&]() -> Status {
    Statement count(db_, "SELECT count(*) FROM embeddings");
    Status st;
    if (count.Step(&st)) removed = count.ColumnInt(0);
    KEBAB_RETURN_IF_ERROR(st);
    KEBAB_RETURN_IF_ERROR(Exec(db_, "DELETE FROM embeddings; DELETE FROM embedding_spaces;"));
    KEBAB_RETURN_IF_ERROR(BumpVectorsRevision(db_));
    return BumpCorpusRevision().status();
  }));
  return removed;
}

Result<int64_t> Store::DeleteSpace(int64_t space_id) {
  int64_t removed = 0;
  KEBAB_RETURN_IF_ERROR(Atomically([&]() -> Status {
    KEBAB_ASSIGN_OR_RETURN(removed, CountVectors(space_id));
    KEBAB_RETURN_IF_ERROR(
        Statement(db_, "DELETE FROM embeddings WHERE space_id = ?1").Bind(1, space_id).Run());
    KEBAB_RETURN_IF_ERROR(
        Statement(db_, "DELETE FROM embedding_spaces WHERE space_id = ?1").Bind(1, space_id).Run());
    if (sqlite3_changes(db_) == 0) return Status::OK();  // no such space: nothing changed
    KEBAB_RETURN_IF_ERROR(BumpVectorsRevision(db_));
    return BumpCorpusRevision().status();
  }));
  return removed;
}

Result<std::vector<VectorHit>> Store::ExactVectorSearch(int64_t space_id,
                                                        const std::vector<float>& query,
                                                        const SearchFilters& filters, int limit) {
  Binder binder(/*first_index=*/2);
  const std::string sql =
      "SELECT c.chunk_rowid, c.chunk_id, e.vector FROM chunks c JOIN embeddings e ON "
      "e.space_id = ?1 AND e.text_hash = c.text_hash JOIN documents d ON d.doc_id = c.doc_id "
      "WHERE 1" +
      FilterSql(filters, binder);
  Statement q(db_, sql);
  KEBAB_RETURN_IF_ERROR(q.prepare_status());
  q.Bind(1, space_id);
  for (size_t i = 0; i < binder.values().size(); ++i) {
    q.Bind(binder.first_index() + static_cast<int>(i), binder.values()[i]);
  }
  // Best `limit` by (similarity desc, chunk id asc); the heap's top is the worst kept.
  struct Candidate {
    float similarity;
    std::string chunk_id;
    int64_t rowid;
  };
  auto ranks_before = [](const Candidate& a, const Candidate& b) {
    if (a.similarity != b.similarity) return a.similarity > b.similarity;
    return a.chunk_id < b.chunk_id;
  };
  std::priority_queue<Candidate, std::vector<Candidate>, decltype(ranks_before)> best(ranks_before);
  const int dims = static_cast<int>(query.size());
  Status st;
  while (q.Step(&st)) {
    const std::string_view blob = q.ColumnBlob(2);
    if (blob.size() != query.size() * sizeof(float)) continue;
    float similarity = Dot(query.data(), reinterpret_cast<const float*>(blob.data()), dims);
    if (static_cast<int>(best.size()) < limit) {
      best.push({similarity, q.ColumnText(1), q.ColumnInt(0)});
    } else if (similarity > best.top().similarity ||
               (similarity == best.top().similarity && q.ColumnView(1) < best.top().chunk_id)) {
      best.pop();
      best.push({similarity, q.ColumnText(1), q.ColumnInt(0)});
    }
  }
  if (!st.ok()) return st;
  std::vector<Candidate> sorted;
  while (!best.empty()) {
    sorted.push_back(best.top());
    best.pop();
  }
  std::reverse(sorted.begin(), sorted.end());
  std::vector<VectorHit> out;
  for (Candidate& c : sorted) out.push_back({c.rowid, std::move(c.chunk_id), c.similarity});
  return out;
}

Result<VectorIndexStamp> Store::IndexStamp() {
  // Prepared once: a vector search checks the stamp of its index on every query.
  Statement& q = Prepared(
      "SELECT key, value FROM kv WHERE key IN ('store_id', 'corpus_revision', "
      "'vectors_revision')");
  VectorIndexStamp stamp;
  Status st;
  while (q.Step(&st)) {
    const std::string_view key = q.ColumnView(0);
    if (key == "store_id") {
      stamp.store_id = q.ColumnText(1);
    } else if (key == "corpus_revision") {
      stamp.corpus_revision = std::stoll(q.ColumnText(1));
    } else {
      stamp.vectors_revision = std::stoll(q.ColumnText(1));
    }
  }
  q.Reset();
  if (!st.ok()) return st;
  return stamp;
}

Result<int64_t> Store::CountChunkVectors(int64_t space_id) {
  return CountForSpace(db_,
                       "SELECT count(*) FROM chunks c JOIN embeddings e ON e.space_id = ?1 AND "
                       "e.text_hash = c.text_hash",
                       space_id);
}

Status Store::ScanSpaceVectors(int64_t space_id,
                               const std::function<Status(const ChunkVector&)>& fn) {
  Statement q(db_,
              "SELECT c.chunk_rowid, c.chunk_id, c.text_hash, e.vector FROM chunks c JOIN "
              "embeddings e ON e.space_id = ?1 AND e.text_hash = c.text_hash "
              "ORDER BY c.chunk_rowid");
  q.Bind(1, space_id);
  Status st;
  while (q.Step(&st)) {
    const std::string_view blob = q.ColumnBlob(3);
    KEBAB_RETURN_IF_ERROR(fn({q.ColumnInt(0), q.ColumnView(1), q.ColumnBlob(2),
                              reinterpret_cast<const float*>(blob.data())}));
  }
  return st;
}

Result<std::vector<int64_t>> Store::FilteredChunkRowids(const SearchFilters& filters) {
  Binder binder(/*first_index=*/1);
  const std::string sql =
      "SELECT c.chunk_rowid FROM chunks c JOIN documents d ON d.doc_id = c.doc_id WHERE 1" +
      FilterSql(filters, binder) + " ORDER BY c.chunk_rowid";
  Statement q(db_, sql);
  KEBAB_RETURN_IF_ERROR(q.prepare_status());
  for (size_t i = 0; i < binder.values().size(); ++i) {
    q.Bind(binder.first_index() + static_cast<int>(i), binder.values()[i]);
  }
  std::vector<int64_t> out;
  Status st;
  while (q.Step(&st)) out.push_back(q.ColumnInt(0));
  if (!st.ok()) return st;
  return out;
}

Result<std::vector<VectorHit>> Store::ScoreChunks(int64_t space_id, const std::vector<float>& query,
                                                  const std::vector<int64_t>& rowids) {
  Statement q(db_,
              "SELECT c.chunk_id, e.vector FROM chunks c JOIN embeddings e ON e.space_id = ?1 "
              "AND e.text_hash = c.text_hash WHERE c.chunk_rowid = ?2");
  std::vector<VectorHit> out;
  const int dims = static_cast<int>(query.size());
  Status st;
  for (int64_t rowid : rowids) {
    q.Bind(1, space_id).Bind(2, rowid);
    if (q.Step(&st)) {
      const std::string_view blob = q.ColumnBlob(1);
      if (blob.size() == query.size() * sizeof(float)) {
        out.push_back({rowid, q.ColumnText(0),
                       Dot(query.data(), reinterpret_cast<const float*>(blob.data()), dims)});
      }
    }
    q.Reset();
    KEBAB_RETURN_IF_ERROR(st);
  }
  std::sort(out.begin(), out.end(), RanksBefore);
  return out;
}

void RankVectorHits(std::vector<VectorHit>* hits, int depth) {
  std::sort(hits->begin(), hits->end(), RanksBefore);
  if (hits->size() > static_cast<size_t>(std::max(depth, 0))) {
    hits->resize(static_cast<size_t>(std::max(depth, 0)));
  }
}

Result<std::vector<VectorHit>> Store::NameAndRank(std::vector<VectorHit> hits, int depth) {
  std::sort(hits.begin(), hits.end(),
            [](const VectorHit& a, const VectorHit& b) { return a.similarity > b.similarity; });
  Statement& q = Prepared(ChunkIdByRowidSql());
  const size_t wanted = static_cast<size_t>(std::max(depth, 0));
  std::vector<VectorHit> out;
  out.reserve(std::min(hits.size(), wanted));
  ReadSnapshot snapshot(*this);
  Status st;
  for (VectorHit& h : hits) {
    // Hits tied with the last one kept still compete for the cut on chunk id.
    if (out.size() >= wanted && h.similarity < out.back().similarity) break;
    q.Bind(1, h.chunk_rowid);
    if (q.Step(&st)) {
      h.chunk_id = q.ColumnText(0);
      out.push_back(std::move(h));
    }
    q.Reset();
    if (!st.ok()) break;
  }
  KEBAB_RETURN_IF_ERROR(st);
  RankVectorHits(&out, depth);
  return out;
}

}  // namespace kebab::store
