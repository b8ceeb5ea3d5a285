// Shared by the lexical, vector and hybrid searches: paging fingerprints, --max-tokens
// budgets, and turning a stored chunk row into a cited, snippeted hit.
#pragma once

#include <chrono>
#include <string>
#include <unordered_set>
#include <vector>

#include "search/search.h"
#include "text/analyzer.h"

namespace kebab::search::internal {

// Identifies a query + mode + filters, so a cursor is only honoured for the same search.
std::string QueryFingerprint(const std::string& query_key, const SearchRequest& request);

// Shortens snippets, then drops the lowest hits, until the response fits `max_tokens`.
void ApplyBudget(int max_tokens, std::vector<SearchHit>& hits, bool* truncated);

// The offset a request's cursor continues from (0 without a cursor). Errors: a cursor of
// another query (invalid_input) or of an older corpus revision (stale_cursor).
Result<int64_t> CursorOffset(const SearchRequest& request, const std::string& fingerprint,
                             int64_t revision);

// Where a page starts and what it belongs to (for the next cursor).
struct PageKey {
  int64_t offset = 0;
  int64_t revision = 0;
  std::string fingerprint;
};

// What to tell a user whose first page is empty, without and with filters.
struct NoHitHints {
  std::string unfiltered, filtered;
};

// Completes a response whose hits are in place: --max-tokens budget, the zero-hit hint, the
// next cursor (when `more` hits exist or the budget cut some), and the elapsed time.
void FinishPage(const SearchRequest& request, const PageKey& page, bool more,
                std::chrono::steady_clock::time_point started, const NoHitHints& hints,
                SearchResponse* resp);

// A hit for `row` at `rank`, with its citation and a snippet highlighting `terms`.
SearchHit BuildHit(store::LexicalRow&& row, int rank, const std::unordered_set<std::string>& terms,
                   const text::Analyzer& analyzer, int snippet_chars);

}  // namespace kebab::search::internal
