#include "store/internal/rank.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <string_view>

#include "store/sqlite_util.h"
#include "text/fts5_tokenizer.h"

namespace kebab::store::internal {
namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
// Weights of the two proximity parts beside BM25, and the window of the second, tuned on
// bench/passage_bench.py (nine remembered words from a page of a 1,000-2,400-page manual) and
// bench/eval_bench.py (Cranfield, its paragraph-long rewrites): the pairs of Büttcher et al.
// at full weight and a window as wide as the query (2.5 tokens a word) found more pages but
// lost on long questions (cranfield-long nDCG@10 0.447 against 0.469 for BM25 alone); a fixed
// window of 16 tokens gains on both (top-1 page 0.958-0.974, cranfield-long 0.472).
constexpr double kProximityWeight = 0.5;
constexpr double kWindowWeight = 1.0;
constexpr int kWindowTokens = 16;

// What one query needs across rows: computed at its first row, kept as FTS5 auxiliary data.
struct QueryStats {
  std::vector<double> idf;        // per phrase
  std::vector<int> group;         // per phrase: the query word, or -1
  int groups = 0;                 // 1 + the largest group
  double avg_tokens = 1;          // tokens per row, all columns
  std::vector<double> group_idf;  // per group: its phrases' largest IDF
  double total_idf = 0;
  // Scratch of one row, kept so that scoring every match does not allocate anew.
  std::vector<double> freq;      // per phrase: its occurrences in the row
  std::vector<WordHit> hits;     // the row's occurrences of query words
  std::vector<double> word_idf;  // per group: the largest IDF among its occurrences
};

int CountRow(const Fts5ExtensionApi*, Fts5Context*, void* user) {
  ++*static_cast<int64_t*>(user);
  return SQLITE_OK;
}

// BM25's IDF, floored as FTS5's bm25() floors it so a word in most rows still counts a little.
double Idf(int64_t rows, int64_t with_phrase) {
  const double idf = std::log((static_cast<double>(rows - with_phrase) + 0.5) /
                              (static_cast<double>(with_phrase) + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

std::vector<int> ParseGroups(std::string_view text, int phrases) {
  std::vector<int> groups(static_cast<size_t>(phrases), -1);
  size_t i = 0;
  for (int p = 0; p < phrases && i < text.size(); ++p) {
    while (i < text.size() && text[i] == ' ') ++i;
    int value = -1;
    auto [end, ec] = std::from_chars(text.data() + i, text.data() + text.size(), value);
    if (ec != std::errc()) break;
    groups[static_cast<size_t>(p)] = value < 0 ? -1 : value;
    i = static_cast<size_t>(end - text.data());
  }
  return groups;
}

int LoadStats(const Fts5ExtensionApi* api, Fts5Context* fts, std::string_view groups_text,
              QueryStats* stats) {
  sqlite3_int64 rows = 0, tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc != SQLITE_OK) return rc;
  stats->avg_tokens = rows > 0 ? std::max(1.0, static_cast<double>(tokens) / rows) : 1.0;
  const int phrases = api->xPhraseCount(fts);
  stats->idf.resize(static_cast<size_t>(phrases));
  for (int p = 0; p < phrases; ++p) {
    int64_t with_phrase = 0;
    rc = api->xQueryPhrase(fts, p, &with_phrase, CountRow);
    if (rc != SQLITE_OK) return rc;
    stats->idf[static_cast<size_t>(p)] = Idf(rows, with_phrase);
  }
  stats->group = ParseGroups(groups_text, phrases);
  for (int g : stats->group) stats->groups = std::max(stats->groups, g + 1);
  stats->group_idf.assign(static_cast<size_t>(stats->groups), 0.0);
  for (int p = 0; p < phrases; ++p) {
    const int g = stats->group[static_cast<size_t>(p)];
    if (g >= 0) stats->group_idf[g] = std::max(stats->group_idf[g], stats->idf[p]);
  }
  for (double v : stats->group_idf) stats->total_idf += v;
  return SQLITE_OK;
}

void DeleteStats(void* p) {
  delete static_cast<QueryStats*>(p);
}

void RankFunction(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc,
                  sqlite3_value** argv) {
  auto* stats = static_cast<QueryStats*>(api->xGetAuxdata(fts, 0));
  if (stats == nullptr) {
    auto fresh = std::make_unique<QueryStats>();
    std::string_view groups;
    if (argc > 0 && sqlite3_value_type(argv[0]) == SQLITE_TEXT) {
      groups = {reinterpret_cast<const char*>(sqlite3_value_text(argv[0])),
                static_cast<size_t>(sqlite3_value_bytes(argv[0]))};
    }
    int rc = LoadStats(api, fts, groups, fresh.get());
    if (rc == SQLITE_OK) rc = api->xSetAuxdata(fts, fresh.get(), DeleteStats);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    stats = fresh.release();
  }
  int row_tokens = 0;
  int instances = 0;
  int rc = api->xColumnSize(fts, -1, &row_tokens);
  if (rc == SQLITE_OK) rc = api->xInstCount(fts, &instances);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  std::vector<double>& freq = stats->freq;
  freq.assign(stats->idf.size(), 0.0);
  std::vector<WordHit>& hits = stats->hits;
  hits.clear();
  for (int i = 0; i < instances; ++i) {
    int phrase = 0, column = 0, offset = 0;
    rc = api->xInst(fts, i, &phrase, &column, &offset);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    freq[static_cast<size_t>(phrase)] += 1;
    const int group = stats->group[static_cast<size_t>(phrase)];
    if (group >= 0)
      hits.push_back({group, column, offset, stats->idf[static_cast<size_t>(phrase)]});
  }
  const double k = kK1 * (1 - kB + kB * row_tokens / stats->avg_tokens);
  double score = 0;
  for (size_t p = 0; p < freq.size(); ++p) {
    if (freq[p] > 0) score += stats->idf[p] * freq[p] * (kK1 + 1) / (freq[p] + k);
  }
  if (stats->groups > 1 && hits.size() > 1) {
    std::sort(hits.begin(), hits.end(), [](const WordHit& a, const WordHit& b) {
      return a.column != b.column ? a.column < b.column : a.offset < b.offset;
    });
    const std::vector<double> acc = ProximityAccumulators(hits, stats->groups);
    if (stats->total_idf > 0) {
      const double cover = WindowCover(hits, stats->group_idf, kWindowTokens) / stats->total_idf;
      score += kWindowWeight * cover * cover * stats->total_idf;
    }
    std::vector<double>& word_idf = stats->word_idf;
    word_idf.assign(static_cast<size_t>(stats->groups), 0.0);
    for (const WordHit& h : hits) {
      word_idf[static_cast<size_t>(h.group)] =
          std::max(word_idf[static_cast<size_t>(h.group)], h.idf);
    }
    for (size_t g = 0; g < acc.size(); ++g) {
      if (acc[g] > 0)
        score += kProximityWeight * std::min(1.0, word_idf[g]) * acc[g] * (kK1 + 1) / (acc[g] + k);
    }
  }
  sqlite3_result_double(ctx, score);
}

}  // namespace

double WindowCover(const std::vector<WordHit>& hits, const std::vector<double>& group_idf,
                   int width) {
  std::vector<int> count(group_idf.size(), 0);
  double inside = 0, best = 0;
  size_t lo = 0;
  for (size_t hi = 0; hi < hits.size(); ++hi) {
    const auto g = static_cast<size_t>(hits[hi].group);
    if (count[g]++ == 0) inside += group_idf[g];
    while (hits[lo].column != hits[hi].column || hits[hi].offset - hits[lo].offset >= width) {
      const auto out = static_cast<size_t>(hits[lo].group);
      if (--count[out] == 0) inside -= group_idf[out];
      ++lo;
    }
    best = std::max(best, inside);
  }
  return best;
}

std::vector<double> ProximityAccumulators(const std::vector<WordHit>& hits, int groups) {
  std::vector<double> acc(static_cast<size_t>(std::max(groups, 0)), 0.0);
  // Each hit and the hit before it: Büttcher's pairs of adjacent occurrences of two different
  // words. A word repeated ("index index") is no pair.
  for (size_t i = 1; i < hits.size(); ++i) {
    const WordHit& prev = hits[i - 1];
    const WordHit& cur = hits[i];
    if (prev.column != cur.column || prev.group == cur.group) continue;
    const double d = std::max(1, cur.offset - prev.offset);
    acc[static_cast<size_t>(cur.group)] += prev.idf / (d * d);
    acc[static_cast<size_t>(prev.group)] += cur.idf / (d * d);
  }
  return acc;
}

Status RegisterRankFunction(sqlite3* db) {
  fts5_api* api = text::Fts5Api(db);
  if (api == nullptr || api->iVersion < 2) {
    return GenericError("SQLite was built without FTS5: " + std::string(sqlite3_errmsg(db)));
  }
  const int rc = api->xCreateFunction(api, "kebab_rank", nullptr, RankFunction, nullptr);
  if (rc != SQLITE_OK) return SqliteError(db, rc, "register kebab_rank");
  return Status::OK();
}

}  // namespace kebab::store::internal
