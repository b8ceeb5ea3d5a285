// Store::LexicalSearch: FTS5 MATCH + BM25 with every SearchFilter applied inside SQL.
#include <string>

#include "core/time.h"
#include "store/internal/rows.h"
#include "store/store.h"

namespace kebab::store {
namespace {

// The heading path counts half as much as the body text in BM25.
constexpr const char* kBm25 = "bm25(chunks_fts, 0.5, 1.0)";

// Appends "?N" placeholders for `values` and binds them later in order.
struct Binder {
  std::vector<std::string> values;
  std::string Param(std::string v) {
    values.push_back(std::move(v));
    return "?" + std::to_string(values.size() + 1);  // ?1 is the MATCH expression
  }
  std::string List(const std::vector<std::string>& vs) {
    std::string out;
    for (const auto& v : vs) {
      if (!out.empty()) out += ", ";
      out += Param(v);
    }
    return out;
  }
};

std::string FilterSql(const SearchFilters& f, Binder& b) {
  std::string sql;
  if (!f.tags_any.empty()) {
    sql += " AND EXISTS (SELECT 1 FROM document_tags t WHERE t.doc_id = d.doc_id AND t.tag IN (" +
           b.List(f.tags_any) + "))";
  }
  if (f.lang) sql += " AND d.lang = " + b.Param(*f.lang);
  if (f.path_glob) sql += " AND kebab_path_glob(" + b.Param(*f.path_glob) + ", d.workspace_path)";
  if (f.trust_min) {
    std::vector<std::string> allowed;
    for (TrustLevel t : {TrustLevel::kPrimary, TrustLevel::kSecondary, TrustLevel::kGenerated}) {
      if (static_cast<int>(t) >= static_cast<int>(*f.trust_min)) {
        allowed.emplace_back(TrustLevelName(t));
      }
    }
    sql += " AND d.trust_level IN (" + b.List(allowed) + ")";
  }
  if (!f.media.empty()) {
    std::vector<std::string> names;
    for (MediaKind m : f.media) names.emplace_back(MediaKindName(m));
    sql += " AND d.asset_id IN (SELECT asset_id FROM assets WHERE media_type IN (" + b.List(names) +
           "))";
  }
  if (!f.doc_ids.empty()) sql += " AND d.doc_id IN (" + b.List(f.doc_ids) + ")";
  if (!f.source_types.empty()) {
    std::vector<std::string> names;
    for (SourceType t : f.source_types) names.emplace_back(SourceTypeName(t));
    sql += " AND d.source_type IN (" + b.List(names) + ")";
  }
  if (f.ingested_after) {
    // Stored timestamps are UTC "…Z" strings, so text comparison orders them correctly.
    auto t = ParseRfc3339(*f.ingested_after);
    sql += " AND d.ingested_at >= " + b.Param(t ? FormatRfc3339(*t) : *f.ingested_after);
  }
  return sql;
}

}  // namespace

Result<std::vector<LexicalRow>> Store::LexicalSearch(const LexicalQuery& query) {
  Binder binder;
  std::string filters = FilterSql(query.filters, binder);
  std::string limit = binder.Param(std::to_string(query.limit));
  std::string offset = binder.Param(std::to_string(query.offset));
  // Rank first over ids only; snippets are computed afterwards for the page alone, because
  // SQLite would otherwise evaluate snippet() for every match before sorting.
  std::string sql = "SELECT " + ChunkSelectColumns() + ", -" + kBm25 +
                    " AS score, c.chunk_rowid, d.lang, d.source_type, d.trust_level "
                    "FROM chunks_fts JOIN chunks c ON c.chunk_rowid = chunks_fts.rowid "
                    "JOIN documents d ON d.doc_id = c.doc_id "
                    "WHERE chunks_fts MATCH ?1" +
                    filters + " ORDER BY score DESC, c.chunk_id ASC LIMIT CAST(" + limit +
                    " AS INTEGER) OFFSET CAST(" + offset + " AS INTEGER)";
  Statement q(db_, sql);
  KEBAB_RETURN_IF_ERROR(q.prepare_status());
  q.Bind(1, query.match);
  for (size_t i = 0; i < binder.values.size(); ++i) {
    q.Bind(static_cast<int>(i + 2), binder.values[i]);
  }
  std::vector<LexicalRow> rows;
  std::vector<int64_t> rowids;
  Status st;
  const int n = ChunkSelectColumnCount();
  while (q.Step(&st)) {
    LexicalRow row;
    row.chunk = ReadChunkRow(q, 0);
    row.bm25 = q.ColumnDouble(n);
    rowids.push_back(q.ColumnInt(n + 1));
    row.lang = q.ColumnText(n + 2);
    row.source_type = q.ColumnText(n + 3);
    row.trust_level = q.ColumnText(n + 4);
    rows.push_back(std::move(row));
  }
  if (!st.ok()) {
    // FTS5 reports bad MATCH syntax ("fts5: syntax error near …", "no such column: …") at
    // step time; that is the user's query, not a store failure.
    const std::string& m = st.message();
    if (m.find("fts5:") != std::string::npos || m.find("no such column") != std::string::npos ||
        m.find("unknown special query") != std::string::npos ||
        m.find("unterminated string") != std::string::npos) {
      return InvalidInput("invalid search syntax: " + m.substr(m.find(": ") + 2),
                          "check the FTS5 query inside '…', or drop the quotes to search "
                          "plain words");
    }
    return st;
  }

  Statement snip(db_,
                 "SELECT snippet(chunks_fts, 1, char(1), char(2), '…', ?2) FROM chunks_fts "
                 "WHERE chunks_fts MATCH ?1 AND rowid = ?3");
  for (size_t i = 0; i < rows.size(); ++i) {
    snip.Bind(1, query.match).Bind(2, query.snippet_tokens).Bind(3, rowids[i]);
    if (snip.Step(&st)) rows[i].snippet = snip.ColumnText(0);
    snip.Reset();
    if (!st.ok()) return st;
  }
  return rows;
}

}  // namespace kebab::store
