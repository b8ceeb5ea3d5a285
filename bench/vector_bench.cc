// kebab_vector_bench: kebab's vector search against its floor (a bare USearch index of the same
// kind and settings) and FAISS, on clustered 384-dimensional unit vectors. Numbers are printed,
// never asserted.
//
// Per size N: the vectors go into a real kebab store (documents, chunks, embeddings); OpenIndex
// builds the exact and the HNSW index (build time, cache file size, re-open time); then single
// queries, one thread each as one `kebab search` process runs them, time NearestChunks (the
// index walk plus the exact re-scoring from SQLite) and report p50/p95 and recall@10 against
// exact f32 brute force. The same vectors and queries go through bare USearch (HNSW and exact
// scan) and FAISS (IndexFlatIP; IndexHNSWFlat at small sizes).
//
// Usage: kebab_vector_bench [--sizes 10000,100000,1000000] [--queries 1000]
//          [--exact-queries N] [--threads 2] [--work DIR] [--keep]
//          [--engines kebab,usearch,faiss] [--faiss-hnsw-max 10000]
//          [--clusters N/500] [--rank 16] [--spread 0.6] [--noise 0.25] [--seed 42]
//          [--json-out PATH] [--connectivity 16] [--expansion-add 128]
//          [--expansion-search 64] [--scalar f16]
// --json-out also writes every size's rows (the printed numbers, units in the key names) as one
// JSON object to PATH, for bench/suite.py.
#include "vector_bench.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <usearch/index_plugins.hpp>
#include <vector>

namespace kebab::bench {
namespace {

namespace us = unum::usearch;

// Points per independently seeded block: the stream does not depend on the thread count.
constexpr size_t kBlock = 4096;
// Untimed queries per row before timing.
constexpr size_t kWarmup = 20;
// Queries a row runs in a row before the next row's turn: long enough for its caches to settle
// (each row is timed in its own steady state), short enough that machine noise, which comes
// and goes over seconds, falls on all rows of a pass alike.
constexpr size_t kSlice = 50;
// Points per cluster when --clusters is not given: neighbourhoods look alike at every N.
constexpr size_t kPointsPerCluster = 500;

// Runs fn(i) for i in [0, count) on `threads` threads, interleaved.
template <typename Fn>
void ParallelFor(size_t count, int threads, Fn fn) {
  auto work = [&](size_t t) {
    for (size_t i = t; i < count; i += static_cast<size_t>(threads)) fn(i);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, static_cast<size_t>(t));
  work(0);
  for (std::thread& t : pool) t.join();
}

void Normalize(float* v, int dims) {
  double norm = 0;
  for (int i = 0; i < dims; ++i) norm += static_cast<double>(v[i]) * v[i];
  const float inv = static_cast<float>(1.0 / std::sqrt(norm));
  for (int i = 0; i < dims; ++i) v[i] *= inv;
}

// Cluster centres (unit) and each cluster's `rank` directions (about unit length).
struct Clusters {
  std::vector<float> centres, directions;
};

Clusters MakeClusters(const DataShape& s) {
  std::mt19937_64 rng(s.seed);
  std::normal_distribution<float> normal(0, 1);
  const size_t dims = static_cast<size_t>(s.dims);
  Clusters c;
  c.centres.resize(static_cast<size_t>(s.clusters) * dims);
  c.directions.resize(static_cast<size_t>(s.clusters) * static_cast<size_t>(s.rank) * dims);
  for (float& x : c.centres) x = normal(rng);
  for (int i = 0; i < s.clusters; ++i) Normalize(c.centres.data() + i * dims, s.dims);
  const float scale = 1.0f / std::sqrt(static_cast<float>(dims));
  for (float& x : c.directions) x = normal(rng) * scale;
  return c;
}

// Fills `out` with `count` points of stream `stream`.
void Draw(const DataShape& s, const Clusters& c, uint32_t stream, size_t count, int threads,
          Vectors* out) {
  const size_t dims = static_cast<size_t>(s.dims);
  out->dims = s.dims;
  out->count = count;
  out->data.assign(count * dims, 0.0f);
  const size_t blocks = (count + kBlock - 1) / kBlock;
  ParallelFor(blocks, threads, [&](size_t b) {
    std::seed_seq seq{s.seed, stream, static_cast<uint32_t>(b)};
    std::mt19937_64 rng(seq);
    std::normal_distribution<float> normal(0, 1);
    const float along = s.spread / std::sqrt(static_cast<float>(std::max(s.rank, 1)));
    const float across = s.noise / std::sqrt(static_cast<float>(dims));
    for (size_t i = b * kBlock; i < std::min(count, (b + 1) * kBlock); ++i) {
      float* v = out->data.data() + i * dims;
      const size_t cluster = rng() % static_cast<size_t>(s.clusters);
      const float* centre = c.centres.data() + cluster * dims;
      for (size_t j = 0; j < dims; ++j) v[j] = centre[j] + across * normal(rng);
      for (int r = 0; r < s.rank; ++r) {
        const float g = along * normal(rng);
        const float* dir = c.directions.data() + (cluster * static_cast<size_t>(s.rank) + r) * dims;
        for (size_t j = 0; j < dims; ++j) v[j] += g * dir[j];
      }
      Normalize(v, s.dims);
    }
  });
}

std::string Fixed(double v, int decimals) {
  if (v < 0) return "-";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

std::string Grouped(size_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<size_t>(i), 1, ',');
  return s;
}

std::string CpuModel() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

// /proc/loadavg's 1-minute figure: other work on the machine shows in every number.
std::string LoadAverage() {
  std::ifstream f("/proc/loadavg");
  std::string one;
  f >> one;
  return one.empty() ? "?" : one;
}

// Mean cosine of each query's 1st and k-th true neighbour: how tight the neighbourhoods are.
std::pair<double, double> NeighbourCosines(const Dataset& d, const Neighbors& truth) {
  double first = 0, last = 0;
  for (size_t q = 0; q < truth.size(); ++q) {
    auto dot = [&](uint32_t id) {
      double s = 0;
      for (int j = 0; j < d.base.dims; ++j) s += d.queries.row(q)[j] * d.base.row(id)[j];
      return s;
    };
    first += dot(truth[q].front());
    last += dot(truth[q].back());
  }
  const double n = static_cast<double>(std::max<size_t>(truth.size(), 1));
  return {first / n, last / n};
}

void PrintTable(const std::vector<Row>& rows, int k) {
  std::printf("%-15s %-38s %9s %9s %9s %7s %9s %9s %9s %8s  %s\n", "engine", "timed", "build s",
              "file MB", "reopen ms", "queries", "p50 ms", "p95 ms",
              ("recall@" + std::to_string(k)).c_str(), "faults/q", "note");
  for (const Row& r : rows) {
    std::printf("%-15s %-38s %9s %9s %9s %7s %9s %9s %9s %8s  %s\n", r.engine.c_str(),
                r.what.c_str(), Fixed(r.build_s, 2).c_str(), Fixed(r.file_mb, 1).c_str(),
                Fixed(r.reopen_ms, 2).c_str(),
                r.latency.queries ? std::to_string(r.latency.queries).c_str() : "-",
                r.latency.queries ? Fixed(r.latency.p50_ms, 3).c_str() : "-",
                r.latency.queries ? Fixed(r.latency.p95_ms, 3).c_str() : "-",
                Fixed(r.recall, 3).c_str(), Fixed(r.faults_per_query, 1).c_str(), r.note.c_str());
  }
}

const Row* Find(const std::vector<Row>& rows, const std::string& id) {
  for (const Row& r : rows) {
    if (r.id == id && r.latency.queries > 0) return &r;
  }
  return nullptr;
}

const char* Verdict(bool ok) {
  return ok ? "met" : "MISSED";
}

// kebab against its floor, and the issue's targets.
void PrintVerdicts(const std::vector<Row>& rows, size_t n) {
  const bool applies = n >= 100000;
  for (const char* kind : {"hnsw", "exact"}) {
    const Row* kebab = Find(rows, std::string("kebab.") + kind + ".d11");
    const Row* floor = Find(rows, std::string("usearch.") + kind);
    if (kebab == nullptr || floor == nullptr) continue;
    const double p50 = kebab->latency.p50_ms / floor->latency.p50_ms;
    const double p95 = kebab->latency.p95_ms / floor->latency.p95_ms;
    std::printf(
        "kebab %-5s / bare usearch %-5s: p50 %.2fx, p95 %.2fx  (target <= 1.3x at 100k "
        "and 1M: %s)\n",
        kind, kind, p50, p95,
        applies ? Verdict(std::max(p50, p95) <= 1.3) : "not applicable below 100k");
  }
  const Row* kebab = Find(rows, "kebab.hnsw.d11");
  const Row* mapped = Find(rows, "usearch.hnsw_mapped");
  if (kebab != nullptr && mapped != nullptr) {
    std::printf(
        "kebab hnsw  / bare usearch hnsw mapped from its file: p50 %.2fx, p95 %.2fx (like with "
        "like: both indexes opened from disk; the target is against the in-memory one)\n",
        kebab->latency.p50_ms / mapped->latency.p50_ms,
        kebab->latency.p95_ms / mapped->latency.p95_ms);
  }
  if (const Row* h = Find(rows, "kebab.hnsw.d11")) {
    std::printf(
        "kebab hnsw p95 %.3f ms (target <= 2 ms at 1M x 384: %s), recall@10 %.3f "
        "(target >= 0.95: %s), build %.1f s on the build threads (target <= 300 s: "
        "%s)\n",
        h->latency.p95_ms, n >= 1000000 ? Verdict(h->latency.p95_ms <= 2.0) : "applies at 1M",
        h->recall, Verdict(h->recall >= 0.95), h->build_s, Verdict(h->build_s <= 300));
  }
}

std::vector<size_t> ParseSizes(const std::string& list) {
  std::vector<size_t> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) out.push_back(std::stoull(list.substr(start, comma - start)));
    start = comma + 1;
  }
  return out;
}

// The rows as JSON, keyed by row id (rows without one only carry a note): the printed numbers,
// those that do not apply left out.
nlohmann::json RowsJson(const std::vector<Row>& rows, int k) {
  nlohmann::json out = nlohmann::json::object();
  for (const Row& r : rows) {
    if (r.id.empty()) continue;
    nlohmann::json j = {{"engine", r.engine}, {"what", r.what}, {"note", r.note}};
    if (r.build_s >= 0) j["build_s"] = r.build_s;
    if (r.file_mb >= 0) j["file_mb"] = r.file_mb;
    if (r.reopen_ms >= 0) j["reopen_ms"] = r.reopen_ms;
    if (r.latency.queries > 0) {
      j["queries"] = r.latency.queries;
      j["p50_ms"] = r.latency.p50_ms;
      j["p95_ms"] = r.latency.p95_ms;
    }
    if (r.recall >= 0) j["recall_at_" + std::to_string(k)] = r.recall;
    if (r.faults_per_query >= 0) j["minor_faults_per_query"] = r.faults_per_query;
    out[r.id] = std::move(j);
  }
  return out;
}

int Usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--sizes 10000,100000,1000000] [--queries 1000] [--exact-queries N]\n"
               "       [--threads 2] [--work DIR] [--keep] [--engines kebab,usearch,faiss]\n"
               "       [--faiss-hnsw-max 10000] [--clusters N/500] [--rank 16] [--spread 0.6]\n"
               "       [--noise 0.25] [--seed 42] [--json-out PATH]\n"
               "       [--connectivity 16] [--expansion-add 128] [--expansion-search 64]\n"
               "       [--scalar f16|f32|i8]\n"
               "  The last four shape the index of every engine (kebab's index.* settings).\n",
               argv0);
  return 2;
}

}  // namespace

Dataset MakeDataset(const DataShape& shape, size_t n, size_t queries, int threads) {
  const Clusters clusters = MakeClusters(shape);
  Dataset d;
  Draw(shape, clusters, /*stream=*/1, n, threads, &d.base);
  Draw(shape, clusters, /*stream=*/2, queries, threads, &d.queries);
  return d;
}

Neighbors TrueNeighbors(const Dataset& d, size_t queries, int k, int threads) {
  const auto ip = us::metric_punned_t::builtin(static_cast<size_t>(d.base.dims),
                                               us::metric_kind_t::ip_k, us::scalar_kind_t::f32_k);
  const size_t wanted = static_cast<size_t>(k);
  Neighbors out(queries);
  // Each thread owns a slice of queries and walks the base in cache-sized blocks.
  constexpr size_t kRows = 2048;
  ParallelFor(static_cast<size_t>(threads), threads, [&](size_t t) {
    const size_t begin = queries * t / static_cast<size_t>(threads);
    const size_t end = queries * (t + 1) / static_cast<size_t>(threads);
    using Entry = std::pair<float, uint32_t>;  // (distance, id); max-heap top = worst kept
    std::vector<std::vector<Entry>> heaps(end - begin);
    for (size_t first = 0; first < d.base.count; first += kRows) {
      const size_t last = std::min(d.base.count, first + kRows);
      for (size_t q = begin; q < end; ++q) {
        const auto* query = reinterpret_cast<const us::byte_t*>(d.queries.row(q));
        auto& heap = heaps[q - begin];
        for (size_t i = first; i < last; ++i) {
          const Entry e{
              static_cast<float>(ip(query, reinterpret_cast<const us::byte_t*>(d.base.row(i)))),
              static_cast<uint32_t>(i)};
          if (heap.size() < wanted) {
            heap.push_back(e);
            std::push_heap(heap.begin(), heap.end());
          } else if (e < heap.front()) {
            std::pop_heap(heap.begin(), heap.end());
            heap.back() = e;
            std::push_heap(heap.begin(), heap.end());
          }
        }
      }
    }
    for (size_t q = begin; q < end; ++q) {
      auto& heap = heaps[q - begin];
      std::sort_heap(heap.begin(), heap.end());
      for (const Entry& e : heap) out[q].push_back(e.second);
    }
  });
  return out;
}

double RecallAtK(const Neighbors& truth, const Neighbors& got, int k) {
  double sum = 0;
  size_t counted = 0;
  for (size_t q = 0; q < got.size() && q < truth.size(); ++q) {
    const size_t depth = std::min(truth[q].size(), static_cast<size_t>(k));
    if (depth == 0) continue;
    size_t found = 0;
    for (size_t i = 0; i < depth; ++i) {
      const size_t upto = std::min(got[q].size(), static_cast<size_t>(k));
      found += std::find(got[q].begin(), got[q].begin() + static_cast<std::ptrdiff_t>(upto),
                         truth[q][i]) != got[q].begin() + static_cast<std::ptrdiff_t>(upto);
    }
    sum += static_cast<double>(found) / static_cast<double>(depth);
    ++counted;
  }
  return counted == 0 ? 0 : sum / static_cast<double>(counted);
}

Latency Summarize(std::vector<double> ms) {
  Latency l;
  l.queries = ms.size();
  if (ms.empty()) return l;
  std::sort(ms.begin(), ms.end());
  auto pick = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<size_t>(std::lround(q * (ms.size() - 1))))];
  };
  l.p50_ms = pick(0.5);
  l.p95_ms = pick(0.95);
  return l;
}

namespace {

// Minor page faults of the calling thread so far: a query's first touches of mapped pages.
long MinorFaults() {
  struct rusage usage;
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

}  // namespace

void TimeInterleaved(std::vector<Row>& rows, const Neighbors& truth, int k) {
  std::vector<std::vector<double>> ms(rows.size());
  std::vector<long> faults(rows.size(), 0);
  std::vector<Neighbors> found(rows.size());
  std::set<int> passes;
  for (const Row& r : rows) {
    if (r.search) passes.insert(r.pass);
  }
  for (const int pass : passes) {
    std::vector<size_t> order;
    size_t most = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!rows[i].search || rows[i].pass != pass) continue;
      order.push_back(i);
      most = std::max(most, rows[i].queries);
    }
    for (size_t q = 0; q < std::min(kWarmup, most); ++q) {
      for (size_t i : order) {
        if (q < rows[i].queries) rows[i].search(q);
      }
    }
    std::mt19937 rng(7);
    const auto started = Clock::now();
    for (size_t first = 0; first < most; first += kSlice) {
      std::shuffle(order.begin(), order.end(), rng);
      for (size_t i : order) {
        for (size_t q = first; q < std::min(first + kSlice, rows[i].queries); ++q) {
          const long faults_before = MinorFaults();
          const auto t = Clock::now();
          std::vector<uint32_t> ids = rows[i].search(q);
          ms[i].push_back(MsSince(t));
          faults[i] += MinorFaults() - faults_before;
          found[i].push_back(std::move(ids));
        }
      }
    }
    if (SecondsSince(started) > 10) {
      Progress("timed pass %d (%zu rows, %zu queries) in %.0f s", pass, order.size(), most,
               SecondsSince(started));
    }
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].search) continue;
    rows[i].faults_per_query =
        ms[i].empty() ? 0 : static_cast<double>(faults[i]) / static_cast<double>(ms[i].size());
    rows[i].latency = Summarize(std::move(ms[i]));
    rows[i].recall = RecallAtK(truth, found[i], k);
  }
}

void Progress(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::fputs("  .. ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

}  // namespace kebab::bench

int main(int argc, char** argv) {
  using namespace kebab::bench;
  std::vector<size_t> sizes = {10000, 100000, 1000000};
  RunOptions o;
  // Per process, so two runs never share a store.
  o.work_dir = (std::filesystem::temp_directory_path() /
                ("kebab-vector-bench-" + std::to_string(::getpid())))
                   .string();
  size_t exact_queries = 0;  // 0: all queries up to 100k vectors, 200 above
  int clusters = 0;          // 0: one per kPointsPerCluster vectors
  std::string engines = ",kebab,usearch,faiss,";
  std::string json_out;  // empty: print only
  DataShape shape;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--keep") {
      o.keep = true;
      continue;
    }
    if (flag == "--help" || flag == "-h" || i + 1 >= argc) return Usage(argv[0]);
    const std::string value = argv[++i];
    if (flag == "--sizes") {
      sizes = ParseSizes(value);
    } else if (flag == "--queries") {
      o.queries = std::stoull(value);
    } else if (flag == "--exact-queries") {
      exact_queries = std::stoull(value);
    } else if (flag == "--threads") {
      o.threads = std::max(1, std::stoi(value));
    } else if (flag == "--work") {
      o.work_dir = value;
    } else if (flag == "--clusters") {
      clusters = std::max(1, std::stoi(value));
    } else if (flag == "--engines") {
      engines = "," + value + ",";
    } else if (flag == "--spread") {
      shape.spread = std::stof(value);
    } else if (flag == "--noise") {
      shape.noise = std::stof(value);
    } else if (flag == "--rank") {
      shape.rank = std::max(0, std::stoi(value));
    } else if (flag == "--seed") {
      shape.seed = static_cast<uint32_t>(std::stoul(value));
    } else if (flag == "--faiss-hnsw-max") {
      o.faiss_hnsw_max = std::stoull(value);
    } else if (flag == "--json-out") {
      json_out = value;
    } else if (flag == "--connectivity") {
      o.index.connectivity = std::max(2, std::stoi(value));
    } else if (flag == "--expansion-add") {
      o.index.expansion_add = std::max(1, std::stoi(value));
    } else if (flag == "--expansion-search") {
      o.index.expansion_search = std::max(1, std::stoi(value));
    } else if (flag == "--scalar" && (value == "f16" || value == "f32" || value == "i8")) {
      o.index.scalar = value;
    } else {
      return Usage(argv[0]);
    }
  }
  std::printf(
      "kebab_vector_bench: %s, %u hardware threads; builds on %d threads, every search "
      "on 1 thread (one query at a time)\n",
      CpuModel().c_str(), std::thread::hardware_concurrency(), o.threads);
  std::printf(
      "index: cos, %s, connectivity %d, expansion_add %d, expansion_search %d (kebab's "
      "defaults)\n",
      o.index.scalar.c_str(), o.index.connectivity, o.index.expansion_add,
      o.index.expansion_search);
  nlohmann::json report = {{"cpu", CpuModel()},
                           {"hardware_threads", std::thread::hardware_concurrency()},
                           {"build_threads", o.threads},
                           {"index",
                            {{"scalar", o.index.scalar},
                             {"connectivity", o.index.connectivity},
                             {"expansion_add", o.index.expansion_add},
                             {"expansion_search", o.index.expansion_search}}},
                           {"sizes", nlohmann::json::object()}};
  for (size_t n : sizes) {
    shape.clusters =
        clusters > 0 ? clusters : static_cast<int>(std::max<size_t>(1, n / kPointsPerCluster));
    RunOptions run = o;
    run.exact_queries =
        std::min(o.queries, exact_queries > 0 ? exact_queries : (n > 100000 ? 200 : o.queries));
    const auto t0 = Clock::now();
    const std::string load = LoadAverage();
    Progress("N=%s: drawing vectors", Grouped(n).c_str());
    const Dataset d = MakeDataset(shape, n, o.queries, o.threads);
    Progress("N=%s: exact neighbours of %zu queries (f32 brute force)", Grouped(n).c_str(),
             o.queries);
    const Neighbors truth = TrueNeighbors(d, o.queries, o.k, o.threads);
    const auto [nn1, nnk] = NeighbourCosines(d, truth);
    std::printf(
        "\n== N = %s x %d: %zu queries (full scans: %zu), k = %d\n"
        "data: %d clusters (centre + %.2f along %d directions of its own + %.2f isotropic "
        "noise, normalized), seed %u; mean cosine of the true 1st / %dth neighbour "
        "%.3f / %.3f\n",
        Grouped(n).c_str(), shape.dims, o.queries, run.exact_queries, o.k, shape.clusters,
        shape.spread, shape.rank, shape.noise, shape.seed, o.k, nn1, nnk);
    std::fflush(stdout);
    std::vector<Row> rows;
    auto add = [&](const char* engine, auto make) {
      if (engines.find(std::string(",") + engine + ",") == std::string::npos) return;
      for (Row& r : make(d, run)) rows.push_back(std::move(r));
    };
    add("kebab", KebabRows);
    add("usearch", UsearchRows);
    add("faiss", FaissRows);
    Progress("timing single queries, interleaved");
    TimeInterleaved(rows, truth, o.k);
    PrintTable(rows, o.k);
    PrintVerdicts(rows, n);
    const double took_s = SecondsSince(t0);
    std::printf("(N = %s took %.0f s in all; load average %s at the start, %s at the end)\n",
                Grouped(n).c_str(), took_s, load.c_str(), LoadAverage().c_str());
    std::fflush(stdout);
    report["sizes"][std::to_string(n)] = {{"dims", shape.dims},
                                          {"clusters", shape.clusters},
                                          {"queries", o.queries},
                                          {"exact_queries", run.exact_queries},
                                          {"k", o.k},
                                          {"seconds", took_s},
                                          {"load_average_start", load},
                                          {"load_average_end", LoadAverage()},
                                          {"rows", RowsJson(rows, o.k)}};
  }
  if (!o.keep) std::filesystem::remove_all(o.work_dir);
  if (!json_out.empty()) {
    std::ofstream f(json_out);
    f << report.dump(1) << "\n";
    if (!f) {
      std::fprintf(stderr, "kebab_vector_bench: cannot write %s\n", json_out.c_str());
      return 1;
    }
  }
  return 0;
}
