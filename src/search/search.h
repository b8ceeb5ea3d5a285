// Search (spec §1.5, §2.2, §3.7): turns a user query into ranked, cited hits, lexically
// (FTS5 + BM25 with the kebab tokenizer), by vector similarity in an embedding space, or both
// fused by normalized RRF. Results are deterministic: ties break on chunk id.
#pragma once

#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/citation.h"
#include "core/search_types.h"
#include "core/status.h"
#include "index/vector_index.h"
#include "search/fusion.h"
#include "store/store.h"

namespace kebab::search {

// How one word of a plain query was searched (for --explain).
struct QueryWordPlan {
  std::string word;                // as typed
  std::vector<std::string> terms;  // the FTS5 terms it added, as they appear in the expression
  std::vector<std::string> notes;  // what was done to it, e.g. "particle 을 left out"
};

// The FTS5 MATCH expression for a user query, and how it was made. Plain text becomes the
// whole query as a phrase OR each word's terms, so BM25 ranks chunks with the phrase and with
// more of the words first (query.cc says how Hangul, Han and Kana words are split); a query
// wrapped in single quotes is passed through as raw FTS5 syntax.
struct MatchPlan {
  std::string expression;
  bool raw = false;
  std::string phrase;  // the whole-query phrase term; empty for a one-term query or raw syntax
  std::vector<QueryWordPlan> words;
  int words_left_out = 0;  // words past the 256th, not searched
  // For each phrase of `expression` in order, the index in `words` of the word it stands for,
  // or -1 (the whole-query phrase); the store ranks words that stand near each other higher.
  // Empty for raw syntax.
  std::vector<int> phrase_words;
};

struct SearchRequest {
  std::string query;
  SearchMode mode = SearchMode::kLexical;
  int k = 10;
  SearchFilters filters;
  std::optional<std::string> cursor;  // from a previous response's next_cursor
  std::optional<int> max_tokens;      // budget for the whole response (chars / 4)
  int snippet_chars = 220;
  bool explain = false;
  bool trace = false;  // keep per-stage timings and each channel's candidates
};

struct RetrievalDetail {
  SearchMode method = SearchMode::kLexical;
  std::optional<double> lexical_score, vector_score, fusion_score;
  std::optional<int> lexical_rank, vector_rank;
};

struct SearchHit {
  int rank = 0;
  double score = 0;
  std::string score_kind;  // bm25 | cosine | rrf
  store::StoredChunk chunk;
  Citation citation;
  std::string snippet;  // match highlights wrapped in \x01 … \x02
  bool snippet_full_text = false;
  RetrievalDetail retrieval;
  std::string lang, source_type, trust_level;
  std::optional<std::string> repo, code_lang;  // for files in a repository / source code
};

struct SearchResponse {
  std::string query;
  SearchMode mode = SearchMode::kLexical;
  int k = 0;
  std::vector<SearchHit> hits;
  std::optional<std::string> next_cursor;
  bool truncated = false;
  int64_t corpus_revision = 0;
  std::string index_version;
  MatchPlan match;              // what FTS5 ran (for --explain); empty expression in vector mode
  std::string embedding_model;  // the space searched (vector and hybrid modes)
  // With request.trace: milliseconds per stage ("open_ms", "model_load_ms", "index_open_ms",
  // "lexical_ms", "vector_wait_ms", "vector_ms", "fusion_ms", "total_ms"; "query_embed_ms"
  // overlaps the stages from "index_open_ms" to "vector_wait_ms") and the candidates each
  // channel gave the fusion, best first.
  std::map<std::string, double> timing_ms;
  std::vector<ChannelHit> lexical_candidates, vector_candidates;
  std::optional<std::string> hint;
  double elapsed_ms = 0;
};

// "fts5-kebab-v1/<stemmer>": identifies how the lexical index was built.
std::string LexicalIndexVersion(const std::string& stemmer);

// Errors: kInvalidInput for an empty query or one with no searchable words.
Result<MatchPlan> PlanMatch(std::string_view query);

// The query's vector in the embedding space to search. The caller embeds the query, and may
// still be doing so on another thread when the search starts: a hybrid search ranks its
// lexical channel first and waits for the vector only then, so the two overlap.
struct VectorQuery {
  int64_t space_id = 0;
  std::future<Result<std::vector<float>>> vector;  // unit length
  std::string model;                               // names the space in index_version
  // The space's vector index; null = scan the store's vectors (slow, but always current).
  const index::VectorIndex* index = nullptr;
};

// Runs a vector (request.mode kVector: score = cosine) or hybrid (kHybrid: score = normalized
// RRF of the lexical and vector ranks, rrf_k from the config) search. Filters apply inside
// both channels. Errors as LexicalSearch, and the vector's own error.
Result<SearchResponse> SemanticSearch(store::Store& store, const SearchRequest& request,
                                      VectorQuery query, int rrf_k);

// Runs a lexical search. Errors: kInvalidInput (bad syntax, bad cursor), kStaleCursor (the
// corpus changed since the cursor was issued), store errors.
Result<SearchResponse> LexicalSearch(store::Store& store, const SearchRequest& request);

}  // namespace kebab::search
