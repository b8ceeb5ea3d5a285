// Shared pieces of kebab_vector_bench (see vector_bench.cc): the synthetic data set, its exact
// neighbours, latency summaries and the rows of the printed table. Benchmark code only.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/config.h"

namespace kebab::bench {

// How the vectors are drawn: `clusters` centres uniform on the unit sphere; a point is its
// centre plus `spread` along `rank` directions of its own cluster (so neighbourhoods have a
// low intrinsic dimension, as real embeddings do) plus `noise` in every direction, normalized.
struct DataShape {
  int dims = 384;
  int clusters = 2000;
  int rank = 16;
  float spread = 0.6f;
  float noise = 0.25f;
  uint32_t seed = 42;
};

// `count` unit-length rows of `dims` floats.
struct Vectors {
  int dims = 0;
  size_t count = 0;
  std::vector<float> data;
  const float* row(size_t i) const { return data.data() + i * static_cast<size_t>(dims); }
};

// `n` points of the shape and `queries` more drawn the same way from an independent stream
// (never in the set). The same shape and seed give the same points on any thread count.
struct Dataset {
  Vectors base, queries;
};
Dataset MakeDataset(const DataShape& shape, size_t n, size_t queries, int threads);

// Per query, ids (rows of base) of its nearest neighbours, best first.
using Neighbors = std::vector<std::vector<uint32_t>>;

// The true top `k` of the first `queries` queries by exact f32 cosine (blocked brute force).
Neighbors TrueNeighbors(const Dataset& d, size_t queries, int k, int threads);

// Mean share of each query's true top `k` found in its top `k` (queries present in `got`).
double RecallAtK(const Neighbors& truth, const Neighbors& got, int k);

struct Latency {
  double p50_ms = 0, p95_ms = 0;
  size_t queries = 0;
};
Latency Summarize(std::vector<double> ms);

using Clock = std::chrono::steady_clock;
inline double MsSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}
inline double SecondsSince(Clock::time_point t) {
  return MsSince(t) / 1000.0;
}

// A progress line on stderr (long steps only).
void Progress(const char* format, ...) __attribute__((format(printf, 1, 2)));

// One line of the table: what an engine built, and how it searches. Negative numbers are "not
// applicable" and print as "-".
struct Row {
  std::string id;      // a key for the ratio lines, e.g. "kebab.hnsw.d11"
  std::string engine;  // "kebab hnsw", "usearch exact", ...
  std::string what;    // what is timed, e.g. "NearestChunks depth 11"
  double build_s = -1;
  double file_mb = -1;
  double reopen_ms = -1;
  std::string note;
  // The ids (rows of base) of query `q`'s top k, best first; empty for rows that only report a
  // build. It owns (shares) whatever it searches, so a Row keeps its index alive.
  std::function<std::vector<uint32_t>(size_t q)> search;
  size_t queries = 0;  // how many of the queries to time
  // Rows of one pass are timed together. Rows that search the same index go in different
  // passes (one would warm the caches for the other), and so do full scans and index walks
  // (a scan evicts the caches a walk relies on).
  int pass = 0;
  // Filled by TimeInterleaved.
  Latency latency;
  double recall = -1;
  double faults_per_query = -1;  // minor page faults (first touches of mapped pages)
};

// Times every row's search on its queries, one query at a time, pass by pass; within a pass,
// interleaved slice by slice (a slice of queries through each row of the pass, in a shuffled
// order), so machine noise falls on all alike. Each row gets a warm-up first.
void TimeInterleaved(std::vector<Row>& rows, const Neighbors& truth, int k);

struct RunOptions {
  int threads = 2;             // build threads; every search runs on one thread
  size_t queries = 1000;       // timed single queries for HNSW searches
  size_t exact_queries = 200;  // for full scans
  int k = 10;
  std::string work_dir;  // the kebab store and its index cache go under it
  bool keep = false;     // keep the store (else deleted after each size)
  config::IndexConfig index;
  size_t faiss_hnsw_max = 10000;  // FAISS HNSW only up to this many vectors (its build is slow)
};

// Each engine builds its indexes over `d` and returns its rows, ready to time (the rows keep
// the queries they search by reference to `d`).
// kebab: a real store, OpenIndex of each kind, NearestChunks (index walk + SQLite re-scoring).
std::vector<Row> KebabRows(const Dataset& d, const RunOptions& o);
// The floor: a bare USearch index_dense_t of kebab's metric, scalar and HNSW settings.
std::vector<Row> UsearchRows(const Dataset& d, const RunOptions& o);
// FAISS IndexFlatIP (and IndexHNSWFlat up to faiss_hnsw_max); a note row when not built in.
std::vector<Row> FaissRows(const Dataset& d, const RunOptions& o);

}  // namespace kebab::bench
