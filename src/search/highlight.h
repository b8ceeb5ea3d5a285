// Snippets computed from the chunk text itself: the query and the text go through the same
// analyzer as the index, and every text token whose term is a query term is highlighted.
// This replaces FTS5's snippet(), which re-ran the MATCH once per hit and stopped at 64
// tokens.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

#include "search/search.h"
#include "text/analyzer.h"

namespace kebab::search {

// The analyzed terms of a user query (operators of raw FTS5 syntax and column filters
// excluded), as the index stores them.
std::unordered_set<std::string> QueryTerms(std::string_view query, const text::Analyzer& analyzer);

// The terms a plain query's plan searched (a Korean particle it left out is not among them),
// or QueryTerms(query) for raw FTS5 syntax and for a vector search, which has no plan.
std::unordered_set<std::string> QueryTerms(const MatchPlan& plan, std::string_view query,
                                           const text::Analyzer& analyzer);

struct Snippet {
  std::string text;   // highlights wrapped in \x01 … \x02, whitespace collapsed
  bool full = false;  // the whole chunk text fits
};

// A window of about `max_chars` code points of `text` around its densest cluster of query
// terms (the start of the text when none occurs).
Snippet MakeSnippet(std::string_view text, const std::unordered_set<std::string>& terms,
                    const text::Analyzer& analyzer, int max_chars);

}  // namespace kebab::search
