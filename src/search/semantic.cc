// Vector and hybrid search: cosine ranking in one embedding space, and its fusion with the
// lexical ranking by normalized RRF (search/fusion.h).
#include <algorithm>
#include <chrono>

#include "core/time.h"
#include "search/fusion.h"
#include "search/highlight.h"
#include "search/internal/results.h"
#include "search/internal/vector_channel.h"
#include "search/search.h"

namespace kebab::search {
namespace {

// Candidates each channel contributes before fusion: deeper than the page, so a chunk ranked
// moderately by both channels can still rise above one found by a single channel.
constexpr int kMinFusionDepth = 50;

}  // namespace

Result<SearchResponse> SemanticSearch(store::Store& store, const SearchRequest& request,
                                      VectorQuery vq, int rrf_k) {
  const auto started = std::chrono::steady_clock::now();
  if (request.k < 1) return InvalidInput("k must be at least 1");
  if (request.query.empty()) return InvalidInput("empty query", "give some words to search for");
  const bool hybrid = request.mode == SearchMode::kHybrid;
  MatchPlan plan;
  if (hybrid) {
    KEBAB_ASSIGN_OR_RETURN(plan, PlanMatch(request.query));
  }
  const std::string& match = plan.expression;
  KEBAB_ASSIGN_OR_RETURN(int64_t revision, store.CorpusRevision());
  const std::string fingerprint =
      internal::QueryFingerprint(request.query + "\x1f" + vq.model, request);
  KEBAB_ASSIGN_OR_RETURN(int64_t offset, internal::CursorOffset(request, fingerprint, revision));
  const int page_end = static_cast<int>(offset) + request.k + 1;  // +1: is there a next page?
  const int depth = hybrid ? std::max(kMinFusionDepth, 2 * page_end) : page_end;

  StageTimer timer;
  std::vector<ChannelHit> lexical_channel;
  if (hybrid) {
    store::LexicalQuery lq{.match = match,
                           .phrase_words = plan.phrase_words,
                           .filters = request.filters,
                           .limit = depth};
    KEBAB_ASSIGN_OR_RETURN(std::vector<store::LexicalRank> ranked, store.LexicalRanking(lq));
    for (auto& r : ranked)
      lexical_channel.push_back({r.chunk_rowid, std::move(r.chunk_id), r.bm25});
    timer.End("lexical_ms");
  }
  KEBAB_ASSIGN_OR_RETURN(std::vector<float> vector, vq.vector.get());
  timer.End("vector_wait_ms");
  KEBAB_ASSIGN_OR_RETURN(
      std::vector<store::VectorHit> nearest,
      internal::NearestChunks(store, vq.index, vq.space_id, vector, request.filters, depth));
  timer.End("vector_ms");
  std::vector<ChannelHit> vector_channel;
  for (auto& h : nearest)
    vector_channel.push_back({h.chunk_rowid, std::move(h.chunk_id), h.similarity});
  std::vector<FusedHit> ranked = FuseRrf(lexical_channel, vector_channel, rrf_k);
  if (!hybrid) {
    // One channel: the score is the cosine itself, not its RRF.
    for (FusedHit& f : ranked) f.score = *f.vector_score;
  }

  const bool more = static_cast<int64_t>(ranked.size()) > offset + request.k;
  std::vector<FusedHit> page;
  for (size_t i = static_cast<size_t>(offset);
       i < ranked.size() && page.size() < static_cast<size_t>(request.k); ++i) {
    page.push_back(ranked[i]);
  }
  std::vector<int64_t> rowids;
  for (const FusedHit& f : page) rowids.push_back(f.chunk_rowid);
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::LexicalRow> rows, store.ChunksByRowid(rowids));

  SearchResponse resp;
  resp.query = request.query;
  resp.mode = request.mode;
  resp.k = request.k;
  resp.corpus_revision = revision;
  const char* vector_index = vq.index != nullptr ? index::IndexKindName(vq.index->kind()) : "exact";
  resp.index_version = (hybrid ? LexicalIndexVersion(store.stemmer()) + "+" : std::string()) +
                       vector_index + "/" + vq.model;
  resp.match = std::move(plan);
  resp.embedding_model = vq.model;
  text::Analyzer analyzer({.stemmer = store.stemmer()});
  const auto terms = QueryTerms(resp.match, request.query, analyzer);
  size_t r = 0;
  for (size_t i = 0; i < page.size(); ++i) {
    const FusedHit& f = page[i];
    size_t found = r;
    while (found < rows.size() && rows[found].chunk_rowid != f.chunk_rowid) ++found;
    if (found == rows.size()) continue;  // deleted since it was ranked; the rest may not be
    r = found;
    SearchHit hit = internal::BuildHit(std::move(rows[r]),
                                       static_cast<int>(offset + static_cast<int64_t>(i) + 1),
                                       terms, analyzer, request.snippet_chars);
    hit.score = f.score;
    hit.score_kind = hybrid ? "rrf" : "cosine";
    hit.retrieval.method = request.mode;
    hit.retrieval.lexical_score = f.lexical_score;
    hit.retrieval.lexical_rank = f.lexical_rank;
    hit.retrieval.vector_score = f.vector_score;
    hit.retrieval.vector_rank = f.vector_rank;
    hit.retrieval.fusion_score = f.score;
    resp.hits.push_back(std::move(hit));
  }
  timer.End("fusion_ms");
  if (request.trace) {
    resp.timing_ms = std::move(timer.stages());
    resp.lexical_candidates = std::move(lexical_channel);
    resp.vector_candidates = std::move(vector_channel);
  }
  internal::FinishPage(request, {offset, revision, fingerprint}, more, started,
                       {"no chunk has a vector in this embedding space yet; run `kebab ingest`",
                        "nothing matches these filters; try fewer filters"},
                       &resp);
  return resp;
}

}  // namespace kebab::search
