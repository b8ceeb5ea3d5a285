#include "search/internal/results.h"

#include "core/hash.h"
#include "search/cursor.h"
#include "search/highlight.h"
#include "search/snippet.h"

namespace kebab::search::internal {
namespace {

// Rough size of a hit on the wire, for --max-tokens budgets (tokens ≈ chars / 4).
size_t HitChars(const SearchHit& h) {
  size_t n =
      400 + h.snippet.size() + 2 * h.chunk.doc_path.size() + h.chunk.chunk.section_label.size();
  for (const auto& p : h.chunk.chunk.heading_path) n += p.size() + 3;
  return n;
}

}  // namespace

std::string QueryFingerprint(const std::string& query_key, const SearchRequest& r) {
  nlohmann::json f = {{"match", query_key},
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

Result<int64_t> CursorOffset(const SearchRequest& request, const std::string& fingerprint,
                             int64_t revision) {
  if (!request.cursor) return int64_t{0};
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
  return cursor.offset;
}

void FinishPage(const SearchRequest& request, const PageKey& page, bool more,
                std::chrono::steady_clock::time_point started, const NoHitHints& hints,
                SearchResponse* resp) {
  if (request.max_tokens) ApplyBudget(*request.max_tokens, resp->hits, &resp->truncated);
  if (resp->hits.empty() && page.offset == 0) {
    resp->hint = request.filters.empty() ? hints.unfiltered : hints.filtered;
  }
  if (more || resp->truncated) {
    resp->next_cursor = EncodeCursor(
        {page.offset + static_cast<int64_t>(resp->hits.size()), page.revision, page.fingerprint});
  }
  resp->elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

SearchHit BuildHit(store::LexicalRow&& row, int rank, const std::unordered_set<std::string>& terms,
                   const text::Analyzer& analyzer, int snippet_chars) {
  SearchHit hit;
  hit.rank = rank;
  Snippet snippet = MakeSnippet(row.chunk.chunk.text, terms, analyzer, snippet_chars);
  hit.snippet = std::move(snippet.text);
  hit.snippet_full_text = snippet.full;
  std::optional<std::string> section;
  if (!row.chunk.chunk.section_label.empty()) section = row.chunk.chunk.section_label;
  SourceSpan span = row.chunk.chunk.source_spans.empty() ? SourceSpan::Lines(1, 1)
                                                         : row.chunk.chunk.source_spans[0];
  hit.citation = CitationFromSpan(row.chunk.doc_path, span, section);
  hit.retrieval.lexical_score = row.bm25;
  hit.lang = std::move(row.lang);
  hit.source_type = std::move(row.source_type);
  hit.trust_level = std::move(row.trust_level);
  hit.repo = std::move(row.repo);
  hit.code_lang = std::move(row.code_lang);
  hit.chunk = std::move(row.chunk);
  return hit;
}

}  // namespace kebab::search::internal
