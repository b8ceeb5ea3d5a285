// Read-side queries of Store: documents, chunks, statistics and integrity.
#include <filesystem>

#include "store/internal/filters.h"
#include "store/internal/rows.h"
#include "store/sqlite_util.h"
#include "store/store.h"

namespace kebab::store {
namespace {

nlohmann::json ParseJson(std::string_view text) {
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

std::vector<std::string> StringArray(std::string_view text) {
  std::vector<std::string> out;
  nlohmann::json j = ParseJson(text);
  if (!j.is_array()) return out;
  for (const auto& e : j) {
    if (e.is_string()) out.push_back(e.get<std::string>());
  }
  return out;
}

std::vector<SourceSpan> Spans(std::string_view text) {
  std::vector<SourceSpan> out;
  nlohmann::json j = ParseJson(text);
  if (!j.is_array()) return out;
  for (const auto& e : j) {
    auto s = SourceSpan::FromJson(e);
    if (s.ok()) out.push_back(*s);
  }
  return out;
}

constexpr std::string_view kSummaryColumns =
    "d.doc_id, d.workspace_path, coalesce(d.title, ''), coalesce(d.lang, 'und'), "
    "d.trust_level, d.source_type, a.media_type, a.byte_len, "
    "(SELECT count(*) FROM chunks c WHERE c.doc_id = d.doc_id), d.created_at, d.updated_at, "
    "d.ingested_at, d.parser_version, coalesce(d.chunker_version, ''), d.metadata_json, "
    "d.source_uri";

DocSummary ReadSummary(const Statement& q, int base) {
  DocSummary s;
  s.doc_id = q.ColumnText(base + 0);
  s.doc_path = q.ColumnText(base + 1);
  s.title = q.ColumnText(base + 2);
  s.lang = q.ColumnText(base + 3);
  s.trust_level = ParseTrustLevel(q.ColumnView(base + 4)).value_or(TrustLevel::kPrimary);
  s.source_type = ParseSourceType(q.ColumnView(base + 5)).value_or(SourceType::kMarkdown);
  s.media = q.ColumnText(base + 6);
  s.byte_len = static_cast<uint64_t>(q.ColumnInt(base + 7));
  s.chunk_count = static_cast<int>(q.ColumnInt(base + 8));
  s.created_at = q.ColumnText(base + 9);
  s.updated_at = q.ColumnText(base + 10);
  s.ingested_at = q.ColumnText(base + 11);
  s.parser_version = q.ColumnText(base + 12);
  s.chunker_version = q.ColumnText(base + 13);
  s.source_uri = q.ColumnText(base + 15);
  Metadata m = Metadata::FromJson(ParseJson(q.ColumnView(base + 14)));
  s.tags = std::move(m.tags);
  s.aliases = std::move(m.aliases);
  s.code_lang = std::move(m.code_lang);
  return s;
}

constexpr std::string_view kChunkColumns =
    "c.chunk_id, c.doc_id, c.ordinal, c.text, c.heading_path_json, coalesce(c.section_label, "
    "''), c.source_spans_json, c.token_estimate, c.chunker_version, c.policy_hash, "
    "c.block_ids_json, d.workspace_path, coalesce(d.title, ''), d.ingested_at";
constexpr int kChunkColumnCount = 14;

StoredChunk ReadChunk(const Statement& q, int base) {
  StoredChunk s;
  Chunk& c = s.chunk;
  c.chunk_id = q.ColumnText(base + 0);
  c.doc_id = q.ColumnText(base + 1);
  s.ordinal = static_cast<int>(q.ColumnInt(base + 2));
  c.text = q.ColumnText(base + 3);
  c.heading_path = StringArray(q.ColumnView(base + 4));
  c.section_label = q.ColumnText(base + 5);
  c.source_spans = Spans(q.ColumnView(base + 6));
  c.token_estimate = static_cast<int>(q.ColumnInt(base + 7));
  c.chunker_version = q.ColumnText(base + 8);
  c.policy_hash = q.ColumnText(base + 9);
  c.block_ids = StringArray(q.ColumnView(base + 10));
  s.doc_path = q.ColumnText(base + 11);
  s.title = q.ColumnText(base + 12);
  s.indexed_at = q.ColumnText(base + 13);
  return s;
}

}  // namespace

std::string ChunkSelectColumns() {
  return std::string(kChunkColumns);
}
int ChunkSelectColumnCount() {
  return kChunkColumnCount;
}
StoredChunk ReadChunkRow(const Statement& q, int base) {
  return ReadChunk(q, base);
}

Result<std::vector<DocSummary>> Store::ListDocuments(const DocListFilter& f) {
  SearchFilters filters;
  filters.path_glob = f.path_glob;
  filters.lang = f.lang;
  filters.code_langs = f.code_langs;
  if (f.tag) filters.tags_any = {*f.tag};
  Binder binder(/*first_index=*/1);
  std::string sql = "SELECT " + std::string(kSummaryColumns) +
                    " FROM documents d JOIN assets a ON a.asset_id = d.asset_id WHERE 1" +
                    FilterSql(filters, binder) +
                    (f.path ? " AND d.workspace_path = " + binder.Param(*f.path) : "") +
                    " ORDER BY d.workspace_path";
  if (f.limit > 0) {
    sql += " LIMIT " + binder.Param(std::to_string(f.limit)) + " OFFSET " +
           binder.Param(std::to_string(f.offset));
  }
  Statement q(db_, sql);
  for (size_t i = 0; i < binder.values().size(); ++i) {
    q.Bind(binder.first_index() + static_cast<int>(i), binder.values()[i]);
  }
  std::vector<DocSummary> out;
  Status st;
  while (q.Step(&st)) out.push_back(ReadSummary(q, 0));
  if (!st.ok()) return st;
  return out;
}

Result<std::optional<StoredDocument>> Store::GetDocument(const std::string& doc_id) {
  Statement q(db_, "SELECT " + std::string(kSummaryColumns) +
                       ", d.asset_id, d.doc_version, d.schema_version, d.provenance_json, "
                       "d.first_block_rowid, d.block_count "
                       "FROM documents d JOIN assets a ON a.asset_id = d.asset_id "
                       "WHERE d.doc_id = ?1");
  q.Bind(1, doc_id);
  Status st;
  if (!q.Step(&st)) {
    if (!st.ok()) return st;
    return std::optional<StoredDocument>();
  }
  StoredDocument out;
  out.summary = ReadSummary(q, 0);
  CanonicalDocument& d = out.doc;
  d.doc_id = out.summary.doc_id;
  d.workspace_path = out.summary.doc_path;
  d.title = out.summary.title;
  d.lang = out.summary.lang;
  d.parser_version = out.summary.parser_version;
  d.metadata = Metadata::FromJson(ParseJson(q.ColumnView(14)));
  d.asset_id = q.ColumnText(16);
  d.doc_version = static_cast<int>(q.ColumnInt(17));
  d.schema_version = static_cast<int>(q.ColumnInt(18));
  nlohmann::json prov = ParseJson(q.ColumnView(19));
  if (prov.is_array()) {
    for (const auto& e : prov) {
      d.provenance.push_back(
          {e.value("at", ""), e.value("agent", ""), e.value("kind", ""), e.value("note", "")});
    }
  }
  const int64_t first_block = q.ColumnInt(20);
  Statement b(db_,
              "SELECT block_id, kind, heading_path_json, ordinal, source_span_json, payload_json "
              "FROM blocks WHERE block_rowid >= ?1 AND block_rowid < ?2 ORDER BY block_rowid");
  b.Bind(1, first_block).Bind(2, first_block + q.ColumnInt(21));
  while (b.Step(&st)) {
    Block blk;
    blk.block_id = b.ColumnText(0);
    blk.kind = ParseBlockKind(b.ColumnView(1)).value_or(BlockKind::kParagraph);
    blk.heading_path = StringArray(b.ColumnView(2));
    blk.ordinal = static_cast<int>(b.ColumnInt(3));
    auto span = SourceSpan::FromJson(ParseJson(b.ColumnView(4)));
    if (span.ok()) blk.span = *span;
    nlohmann::json p = ParseJson(b.ColumnView(5));
    if (p.is_object()) {
      blk.level = p.value("level", 0);
      blk.text = p.value("text", p.value("code", std::string()));
      blk.ordered = p.value("ordered", false);
      blk.items = p.value("items", std::vector<std::string>{});
      blk.lang = p.value("lang", std::string());
      blk.headers = p.value("headers", std::vector<std::string>{});
      blk.rows = p.value("rows", std::vector<std::vector<std::string>>{});
      blk.src = p.value("src", std::string());
      blk.alt = p.value("alt", std::string());
      if (p.contains("confidence") && p["confidence"].is_number()) {
        blk.confidence = p["confidence"].get<double>();
      }
    }
    d.blocks.push_back(std::move(blk));
  }
  if (!st.ok()) return st;
  Statement c(db_, "SELECT chunk_id FROM chunks WHERE doc_id = ?1 ORDER BY ordinal");
  c.Bind(1, doc_id);
  while (c.Step(&st)) out.chunk_ids.push_back(c.ColumnText(0));
  if (!st.ok()) return st;
  return std::optional<StoredDocument>(std::move(out));
}

Result<std::optional<StoredChunk>> Store::GetChunk(const std::string& chunk_id) {
  Statement q(db_, "SELECT " + std::string(kChunkColumns) +
                       " FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
                       "WHERE c.chunk_id = ?1");
  q.Bind(1, chunk_id);
  Status st;
  if (q.Step(&st)) return std::optional<StoredChunk>(ReadChunk(q, 0));
  if (!st.ok()) return st;
  return std::optional<StoredChunk>();
}

Result<std::vector<StoredChunk>> Store::GetChunksOfDocument(const std::string& doc_id) {
  Statement q(db_, "SELECT " + std::string(kChunkColumns) +
                       " FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
                       "WHERE c.doc_id = ?1 ORDER BY c.ordinal");
  q.Bind(1, doc_id);
  std::vector<StoredChunk> out;
  Status st;
  while (q.Step(&st)) out.push_back(ReadChunk(q, 0));
  if (!st.ok()) return st;
  return out;
}

Result<StoreStats> Store::Stats() {
  StoreStats s;
  Status st;
  {
    Statement q(db_,
                "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks), "
                "(SELECT count(*) FROM assets), (SELECT count(*) FROM blocks), "
                "(SELECT max(finished_at) FROM ingest_runs), "
                "(SELECT count(*) FROM chunks_fts_docsize)");
    if (!q.Step(&st)) return st.ok() ? Status(ErrorCode::kCorrupt, "stats query empty") : st;
    s.doc_count = q.ColumnInt(0);
    s.chunk_count = q.ColumnInt(1);
    s.asset_count = q.ColumnInt(2);
    s.block_count = q.ColumnInt(3);
    if (!q.ColumnIsNull(4)) s.last_ingest_at = q.ColumnText(4);
    s.fts_rows = q.ColumnInt(5);
  }
  {
    Statement q(db_,
                "SELECT a.media_type, count(*) FROM documents d JOIN assets a ON a.asset_id = "
                "d.asset_id GROUP BY a.media_type");
    while (q.Step(&st)) s.media_breakdown[q.ColumnText(0)] = q.ColumnInt(1);
    KEBAB_RETURN_IF_ERROR(st);
  }
  {
    Statement q(db_, "SELECT coalesce(lang, 'und'), count(*) FROM documents GROUP BY 1");
    while (q.Step(&st)) s.lang_breakdown[q.ColumnText(0)] = q.ColumnInt(1);
    KEBAB_RETURN_IF_ERROR(st);
  }
  {
    Statement q(db_,
                "SELECT parser_version, coalesce(chunker_version, ''), count(*) FROM documents "
                "GROUP BY 1, 2");
    while (q.Step(&st)) {
      s.parser_breakdown[q.ColumnText(0)] += q.ColumnInt(2);
      if (!q.ColumnText(1).empty()) s.chunker_breakdown[q.ColumnText(1)] += q.ColumnInt(2);
    }
    KEBAB_RETURN_IF_ERROR(st);
  }
  for (const auto& [key, docs, chunks] :
       {std::tuple{"code_lang", &s.code_lang_breakdown, &s.code_lang_chunk_breakdown},
        std::tuple{"repo", &s.repo_breakdown, &s.repo_chunk_breakdown}}) {
    const std::string field = std::string("json_extract(d.metadata_json, '$.") + key + "')";
    Statement q(db_, "SELECT " + field +
                         ", count(DISTINCT d.doc_id), count(c.chunk_rowid) FROM documents d "
                         "LEFT JOIN chunks c ON c.doc_id = d.doc_id WHERE " +
                         field + " IS NOT NULL GROUP BY 1");
    while (q.Step(&st)) {
      (*docs)[q.ColumnText(0)] = q.ColumnInt(1);
      (*chunks)[q.ColumnText(0)] = q.ColumnInt(2);
    }
    KEBAB_RETURN_IF_ERROR(st);
  }
  std::error_code ec;
  for (const char* suffix : {"", "-wal"}) {
    auto size = std::filesystem::file_size(path_ + suffix, ec);
    if (!ec) s.sqlite_bytes += static_cast<int64_t>(size);
  }
  return s;
}

Result<std::string> Store::IntegrityCheck() {
  Statement q(db_, "PRAGMA integrity_check");
  std::string out;
  Status st;
  while (q.Step(&st)) {
    if (!out.empty()) out += "; ";
    out += q.ColumnText(0);
  }
  if (!st.ok()) return st;
  return out;
}

Result<std::string> Store::FullTextIntegrityCheck() {
  // rank = 1 also compares the index with the chunk texts it was built from. The check is
  // phrased as an INSERT, so it needs a writable connection.
  Statement q(db_, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)");
  Status st = q.Run();
  if (st.ok()) return std::string("ok");
  if (st.code() == ErrorCode::kCorrupt) return st.message();
  return st;
}

}  // namespace kebab::store
