// Store::LexicalSearch: FTS5 MATCH + BM25 with every SearchFilter applied inside SQL.
#include <algorithm>
#include <string>

#include "store/internal/filters.h"
#include "store/internal/rows.h"
#include "store/store.h"

namespace kebab::store {
namespace {

// BM25 with the heading path counting as much as the body text, plus proximity
// (internal/rank.h). (At half weight, Cranfield's titles, which are headings here, counted for
// less: nDCG@10 0.003 lower on its questions and on paragraph-length rewrites of them,
// bench/eval_bench.py.) ?2 is the phrases' words.
constexpr const char* kRank = "kebab_rank(chunks_fts, ?2)";

std::string PhraseWords(const std::vector<int>& words) {
  std::string out;
  for (int w : words) {
    if (!out.empty()) out += ' ';
    out += std::to_string(w);
  }
  return out;
}

// FTS5 reports bad MATCH syntax ("fts5: syntax error near …", "no such column: …") at step
// time; that is the user's query, not a store failure.
Status MapMatchError(const Status& st) {
  const std::string& m = st.message();
  if (m.find("fts5:") != std::string::npos || m.find("no such column") != std::string::npos ||
      m.find("unknown special query") != std::string::npos ||
      m.find("unterminated string") != std::string::npos) {
    return InvalidInput("invalid search syntax: " + m.substr(m.find(": ") + 2),
                        "check the FTS5 query inside '…', or drop the quotes to search plain "
                        "words");
  }
  return st;
}

}  // namespace

// Ranking runs in two steps so a query matching most of the corpus stays fast. Unfiltered,
// the FTS table alone is ranked over a window a little deeper than the page; rows are then
// joined for their chunk ids and ordered by (score, chunk id). That is exact unless ties at
// the page boundary run past the window, in which case — and for filtered queries — the
// joined query ranks instead, still without reading chunk text.
// The window orders bm25() itself, not FTS5's `rank` column: ORDER BY rank makes FTS5 sort
// every match in a nested statement, while ORDER BY … LIMIT keeps only the window in
// SQLite's top-N sorter (tldr-pages, `https` in most of 38,924 chunks: 42 → 15 ms).
Result<std::vector<LexicalRank>> Store::LexicalRanking(const LexicalQuery& query) {
  const size_t page_end = static_cast<size_t>(query.offset) + static_cast<size_t>(query.limit);
  std::vector<LexicalRank> ranked;
  Status st;
  bool exact = false;
  if (query.filters.empty()) {
    constexpr size_t kTieMargin = 32;
    Statement top(db_, std::string("SELECT rowid, ") + kRank +
                           " AS score FROM chunks_fts WHERE chunks_fts MATCH ?1 ORDER BY score "
                           "DESC LIMIT ?3");
    top.Bind(1, query.match)
        .Bind(2, PhraseWords(query.phrase_words))
        .Bind(3, static_cast<int64_t>(page_end + kTieMargin));
    while (top.Step(&st)) ranked.push_back({top.ColumnInt(0), {}, top.ColumnDouble(1)});
    if (!st.ok()) return MapMatchError(st);
    exact = ranked.size() < page_end + kTieMargin ||
            (page_end > 0 && ranked.back().bm25 < ranked[page_end - 1].bm25);
  }
  if (exact) {
    // Order the window by (score desc, chunk id asc) and keep the page.
    Statement& id = Prepared(ChunkIdByRowidSql());
    for (LexicalRank& r : ranked) {
      id.Bind(1, r.chunk_rowid);
      if (id.Step(&st)) r.chunk_id = id.ColumnText(0);
      id.Reset();
      KEBAB_RETURN_IF_ERROR(st);
    }
    // A chunk deleted since the FTS row was read has no id; it is dropped.
    std::erase_if(ranked, [](const LexicalRank& r) { return r.chunk_id.empty(); });
    std::sort(ranked.begin(), ranked.end(), [](const LexicalRank& a, const LexicalRank& b) {
      if (a.bm25 != b.bm25) return a.bm25 > b.bm25;
      return a.chunk_id < b.chunk_id;
    });
    std::vector<LexicalRank> page;
    for (size_t i = static_cast<size_t>(query.offset); i < ranked.size() && i < page_end; ++i) {
      page.push_back(std::move(ranked[i]));
    }
    return page;
  }
  Binder binder(/*first_index=*/3);  // ?1 is the MATCH expression, ?2 its phrases' words
  std::string filters = FilterSql(query.filters, binder);
  std::string limit = binder.Param(std::to_string(query.limit));
  std::string offset = binder.Param(std::to_string(query.offset));
  std::string sql = std::string("SELECT c.chunk_rowid, c.chunk_id, ") + kRank +
                    " AS score FROM chunks_fts JOIN chunks c ON c.chunk_rowid = "
                    "chunks_fts.rowid JOIN documents d ON d.doc_id = c.doc_id "
                    "WHERE chunks_fts MATCH ?1" +
                    filters + " ORDER BY score DESC, c.chunk_id ASC LIMIT CAST(" + limit +
                    " AS INTEGER) OFFSET CAST(" + offset + " AS INTEGER)";
  Statement q(db_, sql);
  KEBAB_RETURN_IF_ERROR(q.prepare_status());
  q.Bind(1, query.match).Bind(2, PhraseWords(query.phrase_words));
  for (size_t i = 0; i < binder.values().size(); ++i) {
    q.Bind(binder.first_index() + static_cast<int>(i), binder.values()[i]);
  }
  ranked.clear();
  while (q.Step(&st)) ranked.push_back({q.ColumnInt(0), q.ColumnText(1), q.ColumnDouble(2)});
  if (!st.ok()) return MapMatchError(st);
  return ranked;
}

Result<std::vector<LexicalRow>> Store::LexicalSearch(const LexicalQuery& query) {
  KEBAB_ASSIGN_OR_RETURN(std::vector<LexicalRank> ranked, LexicalRanking(query));
  std::vector<int64_t> rowids;
  for (const LexicalRank& r : ranked) rowids.push_back(r.chunk_rowid);
  KEBAB_ASSIGN_OR_RETURN(std::vector<LexicalRow> rows, ChunksByRowid(rowids));
  // A chunk deleted since it was ranked is simply missing from `rows`.
  size_t r = 0;
  for (LexicalRow& row : rows) {
    while (r < ranked.size() && ranked[r].chunk_rowid != row.chunk_rowid) ++r;
    if (r < ranked.size()) row.bm25 = ranked[r].bm25;
  }
  return rows;
}

Result<std::vector<LexicalRow>> Store::ChunksByRowid(const std::vector<int64_t>& rowids) {
  std::vector<LexicalRow> rows;
  Statement hydrate(db_, "SELECT " + ChunkSelectColumns() +
                             ", d.lang, d.source_type, d.trust_level, "
                             "json_extract(d.metadata_json, '$.repo'), "
                             "json_extract(d.metadata_json, '$.code_lang') FROM chunks c JOIN "
                             "documents d ON d.doc_id = c.doc_id WHERE c.chunk_rowid = ?1");
  const int n = ChunkSelectColumnCount();
  Status st;
  for (int64_t rowid : rowids) {
    hydrate.Bind(1, rowid);
    if (hydrate.Step(&st)) {
      LexicalRow row;
      row.chunk_rowid = rowid;
      row.chunk = ReadChunkRow(hydrate, 0);
      row.lang = hydrate.ColumnText(n);
      row.source_type = hydrate.ColumnText(n + 1);
      row.trust_level = hydrate.ColumnText(n + 2);
      if (!hydrate.ColumnIsNull(n + 3)) row.repo = hydrate.ColumnText(n + 3);
      if (!hydrate.ColumnIsNull(n + 4)) row.code_lang = hydrate.ColumnText(n + 4);
      rows.push_back(std::move(row));
    }
    hydrate.Reset();
    KEBAB_RETURN_IF_ERROR(st);
  }
  return rows;
}

}  // namespace kebab::store
