#include "eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace kebab::eval {

namespace {

constexpr int kMrrDepth = 10;
constexpr int kNdcgDepth = 10;

bool Overlaps(const LineJudgement& l, const RankedHit& h) {
  return l.doc_id == h.doc_id && h.line_start > 0 && h.line_start <= l.line_end &&
         l.line_start <= h.line_end;
}

// The ranking metrics are computed over: the hits themselves, or their documents in order of
// first appearance, a document taking the best grade of its chunks.
struct Unit {
  std::string doc_id;
  int grade = 0;
};

// Chunk level: each judgement credits one hit, the first it matches, so that a relevant
// document or line range found as several chunks is not counted above the ideal ranking.
std::vector<Unit> ChunkUnits(const std::vector<RankedHit>& hits, const Judgements& j) {
  std::set<std::string> credited_docs;
  std::vector<bool> credited_lines(j.lines.size(), false);
  std::vector<Unit> units;
  for (const RankedHit& h : hits) {
    int grade = 0;
    if (auto it = j.chunks.find(h.chunk_id); it != j.chunks.end()) grade = it->second;
    // The best uncredited judgement among the document and its line ranges takes this hit.
    int best_line = -1, best_grade = 0;
    if (auto it = j.docs.find(h.doc_id); it != j.docs.end() && !credited_docs.count(h.doc_id)) {
      best_grade = it->second;
    }
    for (size_t i = 0; i < j.lines.size(); ++i) {
      const LineJudgement& l = j.lines[i];
      if (Overlaps(l, h) && !credited_lines[i] && l.grade > best_grade) {
        best_grade = l.grade;
        best_line = static_cast<int>(i);
      }
    }
    if (best_grade > grade) {
      grade = best_grade;
      if (best_line >= 0) {
        credited_lines[best_line] = true;
      } else {
        credited_docs.insert(h.doc_id);
      }
    }
    units.push_back({h.doc_id, grade});
  }
  return units;
}

std::vector<Unit> DocumentUnits(const std::vector<RankedHit>& hits, const Judgements& j) {
  std::vector<Unit> units;
  std::map<std::string, size_t> position;
  for (const RankedHit& h : hits) {
    auto [it, added] = position.emplace(h.doc_id, units.size());
    if (added) {
      auto judged = j.docs.find(h.doc_id);
      units.push_back({h.doc_id, judged == j.docs.end() ? 0 : judged->second});
    }
  }
  return units;
}

// The gains an ideal ranking would have: one per judgement at chunk level, one per relevant
// document otherwise.
std::vector<int> IdealGains(const Judgements& j, const std::map<std::string, int>& relevant_docs) {
  std::vector<int> gains;
  if (!j.chunk_level()) {
    for (const auto& [doc, grade] : relevant_docs) gains.push_back(grade);
    return gains;
  }
  for (const auto& [chunk, grade] : j.chunks) gains.push_back(grade);
  for (const LineJudgement& l : j.lines) gains.push_back(l.grade);
  for (const auto& [doc, grade] : j.docs) gains.push_back(grade);
  return gains;
}

}  // namespace

int GradeOf(const RankedHit& hit, const Judgements& j) {
  int grade = 0;
  if (auto it = j.chunks.find(hit.chunk_id); it != j.chunks.end()) grade = it->second;
  if (auto it = j.docs.find(hit.doc_id); it != j.docs.end()) grade = std::max(grade, it->second);
  for (const LineJudgement& l : j.lines) {
    if (Overlaps(l, hit)) grade = std::max(grade, l.grade);
  }
  return grade;
}

std::map<std::string, int> Judgements::RelevantDocs(
    const std::map<std::string, std::string>& doc_of_chunk) const {
  std::map<std::string, int> out = docs;
  auto add = [&](const std::string& doc, int grade) {
    int& g = out[doc];
    g = std::max(g, grade);
  };
  for (const auto& [chunk, grade] : chunks) {
    if (auto it = doc_of_chunk.find(chunk); it != doc_of_chunk.end()) add(it->second, grade);
  }
  for (const LineJudgement& l : lines) add(l.doc_id, l.grade);
  return out;
}

std::vector<int> CutOffs(int run_k) {
  std::vector<int> ks = {1, 3, 5, 10};
  if (run_k > ks.back()) ks.push_back(run_k);
  return ks;
}

double Ndcg(const std::vector<int>& ranked_gains, std::vector<int> ideal_gains, int k) {
  auto dcg = [k](const std::vector<int>& gains) {
    double sum = 0;
    for (int i = 0; i < std::min<int>(k, static_cast<int>(gains.size())); ++i) {
      sum += gains[i] / std::log2(i + 2.0);
    }
    return sum;
  };
  std::sort(ideal_gains.begin(), ideal_gains.end(), std::greater<int>());
  const double ideal = dcg(ideal_gains);
  return ideal > 0 ? dcg(ranked_gains) / ideal : 0;
}

QueryMetrics ScoreQuery(const std::vector<RankedHit>& hits, const Judgements& judgements,
                        const std::map<std::string, std::string>& doc_of_chunk,
                        const std::vector<int>& cut_offs) {
  QueryMetrics m;
  if (judgements.empty()) return m;
  m.judged = true;
  const std::vector<Unit> units =
      judgements.chunk_level() ? ChunkUnits(hits, judgements) : DocumentUnits(hits, judgements);
  const std::map<std::string, int> relevant_docs = judgements.RelevantDocs(doc_of_chunk);

  std::vector<int> gains;
  for (const Unit& u : units) gains.push_back(u.grade);
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].grade > 0) {
      m.first_relevant_rank = static_cast<int>(i) + 1;
      break;
    }
  }
  if (m.first_relevant_rank > 0 && m.first_relevant_rank <= kMrrDepth) {
    m.mrr10 = 1.0 / m.first_relevant_rank;
  }
  m.ndcg10 = Ndcg(gains, IdealGains(judgements, relevant_docs), kNdcgDepth);

  for (int k : cut_offs) {
    int relevant_units = 0;
    std::set<std::string> found_docs;
    for (int i = 0; i < std::min<int>(k, static_cast<int>(units.size())); ++i) {
      if (units[i].grade > 0) ++relevant_units;
      if (relevant_docs.count(units[i].doc_id) > 0) found_docs.insert(units[i].doc_id);
    }
    m.hit[k] = relevant_units > 0 ? 1 : 0;
    m.precision[k] = static_cast<double>(relevant_units) / k;
    m.recall[k] = relevant_docs.empty() ? 0
                                        : static_cast<double>(found_docs.size()) /
                                              static_cast<double>(relevant_docs.size());
  }
  return m;
}

std::map<std::string, double> MeanMetrics(const std::vector<QueryMetrics>& queries) {
  std::map<std::string, double> sums;
  int judged = 0;
  for (const QueryMetrics& q : queries) {
    if (!q.judged) continue;
    ++judged;
    for (const auto& [k, v] : q.hit) sums["hit@" + std::to_string(k)] += v;
    for (const auto& [k, v] : q.precision) sums["precision@" + std::to_string(k)] += v;
    for (const auto& [k, v] : q.recall) sums["recall@" + std::to_string(k)] += v;
    sums["mrr@10"] += q.mrr10;
    sums["ndcg@10"] += q.ndcg10;
  }
  if (judged == 0) return {};
  for (auto& [name, v] : sums) v /= judged;
  return sums;
}

double Quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(values.size() - 1, lo + 1);
  return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace kebab::eval
