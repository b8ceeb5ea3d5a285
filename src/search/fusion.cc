#include "search/fusion.h"

#include <algorithm>
#include <unordered_map>

namespace kebab::search {

std::vector<FusedHit> FuseRrf(const std::vector<ChannelHit>& lexical,
                              const std::vector<ChannelHit>& vector, int rrf_k) {
  std::vector<FusedHit> fused;
  std::unordered_map<int64_t, size_t> index;
  const double k = rrf_k;
  auto add = [&](const std::vector<ChannelHit>& hits, bool is_lexical) {
    for (size_t i = 0; i < hits.size(); ++i) {
      const ChannelHit& h = hits[i];
      auto [it, inserted] = index.emplace(h.chunk_rowid, fused.size());
      if (inserted) fused.push_back({h.chunk_rowid, h.chunk_id});
      FusedHit& f = fused[it->second];
      const int rank = static_cast<int>(i) + 1;
      f.score += 1.0 / (k + rank);
      if (is_lexical) {
        f.lexical_rank = rank;
        f.lexical_score = h.score;
      } else {
        f.vector_rank = rank;
        f.vector_score = h.score;
      }
    }
  };
  add(lexical, true);
  add(vector, false);
  const double best = 2.0 / (k + 1.0);
  for (FusedHit& f : fused) f.score /= best;
  std::sort(fused.begin(), fused.end(), [](const FusedHit& a, const FusedHit& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.chunk_id < b.chunk_id;
  });
  return fused;
}

}  // namespace kebab::search
