// Reciprocal rank fusion of the lexical and vector rankings (spec §2.2): a chunk's raw score is
// Σ 1 / (rrf_k + rank) over the channels that found it, normalized by the best possible raw
// score 2 / (rrf_k + 1), so 1.0 means rank 1 in both channels and 0.5 is the ceiling for a
// chunk only one channel found. Ties break on chunk id, so the order is deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kebab::search {

// One channel's hit, in rank order (best first).
struct ChannelHit {
  int64_t chunk_rowid = 0;
  std::string chunk_id;
  double score = 0;  // the channel's own score (BM25 or cosine)
};

struct FusedHit {
  int64_t chunk_rowid = 0;
  std::string chunk_id;
  double score = 0;  // normalized RRF in [0, 1]
  std::optional<int> lexical_rank, vector_rank;
  std::optional<double> lexical_score, vector_score;
};

std::vector<FusedHit> FuseRrf(const std::vector<ChannelHit>& lexical,
                              const std::vector<ChannelHit>& vector, int rrf_k);

}  // namespace kebab::search
