// kebab_rank(): the FTS5 auxiliary function lexical search orders by. BM25 as FTS5's own bm25()
// computes it (k1 = 1.2, b = 0.75, every column weighing 1), plus a term-proximity score
// (Büttcher, Clarke and Lushman, "Term proximity scoring for ad-hoc retrieval", SIGIR 2006):
// each occurrence of a query word counts the nearest occurrence of another query word before it,
// by that word's IDF over the squared distance between them, and each word's sum is saturated
// as BM25 saturates a term's frequency. A passage whose query words stand together outranks one
// that scatters them, without needing them in order or all present. And the share of the
// query's IDF that one window of 16 tokens holds, squared: a page where all the remembered
// words stand together beats one holding most of them apart. Module-private to store.
//
// SQL: kebab_rank(chunks_fts, groups) -> REAL, higher is better. `groups` gives, for each
// phrase of the MATCH expression in order, the query word it stands for as a decimal number
// separated by spaces ("-1 0 1 1 2"); phrases of the same word never count as near each
// other, and -1 (the whole-query phrase, raw syntax) counts for BM25 only. An empty `groups`
// is BM25 alone.
// Thread safety: registered per connection; SQLite calls it on that connection's thread.
#pragma once

#include <sqlite3.h>

#include <string>
#include <vector>

#include "core/status.h"

namespace kebab::store::internal {

Status RegisterRankFunction(sqlite3* db);

// One occurrence of a query word in a row: which word (its group), which column, which token.
struct WordHit {
  int group = -1;
  int column = 0;
  int offset = 0;
  double idf = 0;
};

// The proximity accumulators of Büttcher et al. for `hits` (sorted by column, then offset):
// acc[g] sums, over each hit of word g and the nearest hit of another word before or after it
// in the same column, that word's IDF / distance². Exposed for tests.
std::vector<double> ProximityAccumulators(const std::vector<WordHit>& hits, int groups);

// The largest sum of group_idf[g] over the distinct words g of `hits` (sorted as above) that
// stand within `width` tokens of each other in one column. Exposed for tests.
double WindowCover(const std::vector<WordHit>& hits, const std::vector<double>& group_idf,
                   int width);

}  // namespace kebab::store::internal
