// Retrieval metrics of one ranked result against graded judgements (spec §10.3, with the
// standard IR definitions where the spec is silent), and their mean over a suite.
//
// A query is judged at one of two levels. Chunk level when it names chunks (chunk ids, or
// paths with line ranges): every hit is a unit. Document level otherwise: the hits are first
// reduced to their documents, best rank first, so a document found as three chunks counts
// once — the way public collections (BEIR, TREC) are judged.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kebab::eval {

// One hit as metrics see it.
struct RankedHit {
  std::string chunk_id, doc_id;
  int line_start = 0, line_end = 0;  // 1-based, inclusive; 0 = unknown
};

// A relevant line range of a document: a hit of that document whose lines overlap it is
// relevant with `grade`.
struct LineJudgement {
  std::string doc_id;
  int line_start = 0, line_end = 0;
  int grade = 1;
};

// What is relevant for one query, resolved to store ids. Grades are > 0; a unit matched by
// several judgements takes the highest grade.
struct Judgements {
  std::map<std::string, int> chunks;  // chunk id → grade
  std::map<std::string, int> docs;    // doc id → grade (whole documents)
  std::vector<LineJudgement> lines;

  bool empty() const { return chunks.empty() && docs.empty() && lines.empty(); }
  bool chunk_level() const { return !chunks.empty() || !lines.empty(); }
  // Every document that holds something relevant, with its best grade.
  std::map<std::string, int> RelevantDocs(
      const std::map<std::string, std::string>& doc_of_chunk) const;
};

// The best grade any single judgement gives `hit` (0 = not relevant), as reports show it; the
// metrics themselves credit each judgement to one hit only.
int GradeOf(const RankedHit& hit, const Judgements& judgements);

// The cut-offs metrics are reported at; `run_k` (the run's depth) is added when larger.
std::vector<int> CutOffs(int run_k);

struct QueryMetrics {
  bool judged = false;              // false: no judgements, left out of the means
  int first_relevant_rank = 0;      // among the units; 0 = none in the ranking
  std::map<int, double> hit;        // k → 1 if a relevant unit is in the top k, else 0
  std::map<int, double> precision;  // k → relevant units in the top k / k (k fixed, spec)
  std::map<int, double> recall;     // k → relevant documents in the top-k documents / all
  double mrr10 = 0;                 // 1 / first relevant rank, 0 when beyond 10
  double ndcg10 = 0;                // linear gains (trec_eval), ideal from every judgement
};

// Scores `hits` (best first). `doc_of_chunk` maps the chunk ids of chunk judgements to their
// documents, for document recall; hits carry their own doc id.
QueryMetrics ScoreQuery(const std::vector<RankedHit>& hits, const Judgements& judgements,
                        const std::map<std::string, std::string>& doc_of_chunk,
                        const std::vector<int>& cut_offs);

// Normalized discounted cumulative gain at `k` of ranked gains against the ideal gains (any
// order; sorted here). 0 when the ideal has no gain.
double Ndcg(const std::vector<int>& ranked_gains, std::vector<int> ideal_gains, int k);

// Means over the judged queries, named as the reports show them: "hit@1", "precision@5",
// "recall@10", "mrr@10", "ndcg@10". Empty when no query is judged.
std::map<std::string, double> MeanMetrics(const std::vector<QueryMetrics>& queries);

// The q-quantile (0..1) of `values` by linear interpolation; 0 for an empty list.
double Quantile(std::vector<double> values, double q);

}  // namespace kebab::eval
