#include <chrono>

#include "core/hash.h"
#include "search/cursor.h"
#include "search/highlight.h"
#include "search/search.h"
#include "search/snippet.h"

namespace kebab::search {
namespace {

std::string QueryFingerprint(const std::string& match, const SearchRequest& r) {
  nlohmann::json f = {{"match", match},
                      {"mode", SearchModeName(r.mode)},
                      {"tags", r.filters.tags_any},
                      {"lang", r.filters.lang.value_or("")},
                      {"glob", r.filters.path_glob.value_or("")},
                      {"trust", r.filters.trust_min ? static_cast<int>(*r.filters.trust_min) : 0},
                      {"docs", r.filters.doc_ids},
                      {"after", r.filters.ingested_after.value_or("")}};
  nlohmann::json media = nlohmann::json::array(), types = nlohmann::json::array();
  for (auto m : r.filters.media) media.push_back(MediaKindName(m));
  for (auto t : r.filters.source_types) types.push_back(SourceTypeName(t));
  f["media"] = media;
  f["types"] = types;
  return Blake3Hex(f.dump()).substr(0, 16);
}

// Rough size of a hit on the wire, for --max-tokens budgets (tokens ≈ chars / 4).
size_t HitChars(const SearchHit& h) {
  size_t n =
      400 + h.snippet.size() + 2 * h.chunk.doc_path.size() + h.chunk.chunk.section_label.size();
  for (const auto& p : h.chunk.chunk.heading_path) n += p.size() + 3;
  return n;
}

void ApplyBudget(int max_tokens, std::vector<SearchHit>& hits, bool* truncated) {
  const size_t budget = static_cast<size_t>(max_tokens) * 4;
  auto total = [&] {
    size_t n = 200;
    for (const auto& h : hits) n += HitChars(h);
    return n;
  };
  // First shorten snippets (never below 60 chars), then drop the lowest-ranked hits.
  for (int snippet_chars = 160; total() > budget && snippet_chars >= 60; snippet_chars /= 2) {
    for (auto& h : hits) {
      ShapedSnippet s = ShapeSnippet(h.snippet, snippet_chars);
      if (s.text.size() < h.snippet.size()) {
        h.snippet = s.text;
        h.snippet_full_text = false;
        *truncated = true;
      }
    }
  }
  while (hits.size() > 1 && total() > budget) {
    hits.pop_back();
    *truncated = true;
  }
}

}  // namespace

std::string LexicalIndexVersion(const std::string& stemmer) {
  return "fts5-kebab-v1/" + (stemmer.empty() ? std::string("none") : stemmer);
}

Result<SearchResponse> LexicalSearch(store::Store& store, const SearchRequest& request) {
  const auto started = std::chrono::steady_clock::now();
  if (request.k < 1) return InvalidInput("k must be at least 1");
  KEBAB_ASSIGN_OR_RETURN(std::string match, BuildMatchExpression(request.query));
  KEBAB_ASSIGN_OR_RETURN(int64_t revision, store.CorpusRevision());
  const std::string fingerprint = QueryFingerprint(match, request);

  int64_t offset = 0;
  if (request.cursor) {
    KEBAB_ASSIGN_OR_RETURN(CursorState cursor, DecodeCursor(*request.cursor));
    if (cursor.query_fingerprint != fingerprint) {
      return InvalidInput("this --cursor belongs to a different query or filters",
                          "repeat the original query and filters with the cursor");
    }
    if (cursor.corpus_revision != revision) {
      return Status(ErrorCode::kStaleCursor,
                    "the index changed since this cursor was issued (revision " +
                        std::to_string(cursor.corpus_revision) + " → " + std::to_string(revision) +
                        ")",
                    "run the search again without --cursor");
    }
    offset = cursor.offset;
  }

  store::LexicalQuery lq;
  lq.match = match;
  lq.filters = request.filters;
  lq.limit = request.k + 1;  // one extra row tells whether another page exists
  lq.offset = static_cast<int>(offset);
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::LexicalRow> rows, store.LexicalSearch(lq));

  SearchResponse resp;
  resp.query = request.query;
  resp.mode = SearchMode::kLexical;
  resp.k = request.k;
  resp.corpus_revision = revision;
  resp.index_version = LexicalIndexVersion(store.stemmer());
  resp.match_expression = match;
  text::Analyzer analyzer({.stemmer = store.stemmer()});
  const auto terms = QueryTerms(request.query, analyzer);
  const bool more = rows.size() > static_cast<size_t>(request.k);
  if (more) rows.resize(static_cast<size_t>(request.k));

  for (size_t i = 0; i < rows.size(); ++i) {
    store::LexicalRow& row = rows[i];
    SearchHit hit;
    hit.rank = static_cast<int>(offset + static_cast<int64_t>(i) + 1);
    // Raw BM25 is unbounded; s / (1 + s) maps it into [0, 1) without changing the order.
    hit.score = row.bm25 / (1.0 + row.bm25);
    hit.score_kind = "bm25";
    Snippet snippet = MakeSnippet(row.chunk.chunk.text, terms, analyzer, request.snippet_chars);
    hit.snippet = std::move(snippet.text);
    hit.snippet_full_text = snippet.full;
    std::optional<std::string> section;
    if (!row.chunk.chunk.section_label.empty()) section = row.chunk.chunk.section_label;
    SourceSpan span = row.chunk.chunk.source_spans.empty() ? SourceSpan::Lines(1, 1)
                                                           : row.chunk.chunk.source_spans[0];
    hit.citation = CitationFromSpan(row.chunk.doc_path, span, section);
    hit.retrieval.method = SearchMode::kLexical;
    hit.retrieval.lexical_score = row.bm25;
    hit.retrieval.lexical_rank = hit.rank;
    hit.retrieval.fusion_score = hit.score;
    hit.lang = std::move(row.lang);
    hit.source_type = std::move(row.source_type);
    hit.trust_level = std::move(row.trust_level);
    hit.chunk = std::move(row.chunk);
    resp.hits.push_back(std::move(hit));
  }
  if (request.max_tokens) ApplyBudget(*request.max_tokens, resp.hits, &resp.truncated);
  if (resp.hits.empty() && offset == 0) {
    resp.hint = request.filters.empty()
                    ? "no indexed chunk contains these words; try other or fewer words"
                    : "nothing matches these words with these filters; try fewer filters";
  }
  if (more || resp.truncated) {
    resp.next_cursor =
        EncodeCursor({offset + static_cast<int64_t>(resp.hits.size()), revision, fingerprint});
  }
  resp.elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return resp;
}

}  // namespace kebab::search
