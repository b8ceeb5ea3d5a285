#include <chrono>

#include "core/hash.h"
#include "search/highlight.h"
#include "search/internal/results.h"
#include "search/search.h"

namespace kebab::search {

std::string LexicalIndexVersion(const std::string& stemmer) {
  return "fts5-kebab-v1/" + (stemmer.empty() ? std::string("none") : stemmer);
}

Result<SearchResponse> LexicalSearch(store::Store& store, const SearchRequest& request) {
  const auto started = std::chrono::steady_clock::now();
  if (request.k < 1) return InvalidInput("k must be at least 1");
  KEBAB_ASSIGN_OR_RETURN(MatchPlan plan, PlanMatch(request.query));
  const std::string& match = plan.expression;
  KEBAB_ASSIGN_OR_RETURN(int64_t revision, store.CorpusRevision());
  const std::string fingerprint = internal::QueryFingerprint(match, request);

  KEBAB_ASSIGN_OR_RETURN(int64_t offset, internal::CursorOffset(request, fingerprint, revision));

  store::LexicalQuery lq;
  lq.match = match;
  lq.phrase_words = plan.phrase_words;
  lq.filters = request.filters;
  lq.limit = request.k + 1;  // one extra row tells whether another page exists
  lq.offset = static_cast<int>(offset);
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::LexicalRow> rows, store.LexicalSearch(lq));
  const double lexical_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();

  SearchResponse resp;
  resp.query = request.query;
  resp.mode = SearchMode::kLexical;
  resp.k = request.k;
  resp.corpus_revision = revision;
  resp.index_version = LexicalIndexVersion(store.stemmer());
  resp.match = std::move(plan);
  text::Analyzer analyzer({.stemmer = store.stemmer()});
  const auto terms = QueryTerms(resp.match, request.query, analyzer);
  const bool more = rows.size() > static_cast<size_t>(request.k);
  if (more) rows.resize(static_cast<size_t>(request.k));

  for (size_t i = 0; i < rows.size(); ++i) {
    SearchHit hit = internal::BuildHit(std::move(rows[i]),
                                       static_cast<int>(offset + static_cast<int64_t>(i) + 1),
                                       terms, analyzer, request.snippet_chars);
    // Raw BM25 is unbounded; s / (1 + s) maps it into [0, 1) without changing the order.
    hit.score = *hit.retrieval.lexical_score / (1.0 + *hit.retrieval.lexical_score);
    hit.score_kind = "bm25";
    hit.retrieval.method = SearchMode::kLexical;
    hit.retrieval.lexical_rank = hit.rank;
    hit.retrieval.fusion_score = hit.score;
    resp.hits.push_back(std::move(hit));
  }
  if (request.trace) {
    resp.timing_ms["lexical_ms"] = lexical_ms;
    for (const SearchHit& h : resp.hits) {
      resp.lexical_candidates.push_back({0, h.chunk.chunk.chunk_id, *h.retrieval.lexical_score});
    }
  }
  internal::FinishPage(request, {offset, revision, fingerprint}, more, started,
                       {"no indexed chunk contains these words; try other or fewer words",
                        "nothing matches these words with these filters; try fewer filters"},
                       &resp);
  return resp;
}

}  // namespace kebab::search
