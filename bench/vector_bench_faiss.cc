// FAISS in kebab_vector_bench (Debian's libfaiss-dev 1.7.3, a generic build): IndexFlatIP, an
// exact f32 scan, and IndexHNSWFlat of kebab's HNSW settings up to faiss_hnsw_max vectors (its
// build is slow). Builds use OpenMP on the bench's build threads; searches run one query at a
// time on one OpenMP thread, as kebab's do. Compiled in only when the library was found.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "vector_bench.h"

#ifdef KEBAB_BENCH_HAVE_FAISS
#include <faiss/IndexFlat.h>
#include <faiss/IndexHNSW.h>
#include <omp.h>
#endif

namespace kebab::bench {

#ifndef KEBAB_BENCH_HAVE_FAISS

std::vector<Row> FaissRows(const Dataset&, const RunOptions&) {
  return {{.engine = "faiss", .note = "FAISS not installed (apt-get install libfaiss-dev)"}};
}

#else

namespace {

// The top `k` ids of one query.
std::vector<uint32_t> Search(const faiss::Index& index, const float* query, int k) {
  std::vector<float> distances(static_cast<size_t>(k));
  std::vector<faiss::Index::idx_t> labels(static_cast<size_t>(k));
  index.search(1, query, k, distances.data(), labels.data());
  std::vector<uint32_t> ids;
  for (faiss::Index::idx_t label : labels) {
    if (label >= 0) ids.push_back(static_cast<uint32_t>(label));
  }
  return ids;
}

}  // namespace

std::vector<Row> FaissRows(const Dataset& d, const RunOptions& o) {
  const size_t n = d.base.count;
  const auto count = static_cast<faiss::Index::idx_t>(n);
  const Vectors* queries = &d.queries;
  const int k = o.k;
  const std::string threads = "OpenMP threads: build " + std::to_string(o.threads) + ", search 1";
  std::vector<Row> rows;

  omp_set_num_threads(o.threads);
  auto flat = std::make_shared<faiss::IndexFlatIP>(d.base.dims);
  auto started = Clock::now();
  flat->add(count, d.base.data.data());
  rows.push_back(
      {.id = "faiss.flat",
       .engine = "faiss flat-ip",
       .what = "IndexFlatIP::search k=10 (f32)",
       .build_s = SecondsSince(started),
       .note = threads,
       .search = [flat, queries, k](size_t q) { return Search(*flat, queries->row(q), k); },
       .queries = o.exact_queries,
       .pass = 3});

  if (n > o.faiss_hnsw_max) {
    rows.push_back({.engine = "faiss hnsw",
                    .note = "skipped above --faiss-hnsw-max " + std::to_string(o.faiss_hnsw_max) +
                            " vectors (slow build)"});
  } else {
    auto hnsw = std::make_shared<faiss::IndexHNSWFlat>(d.base.dims, o.index.connectivity,
                                                       faiss::METRIC_INNER_PRODUCT);
    hnsw->hnsw.efConstruction = o.index.expansion_add;
    Progress("faiss: building IndexHNSWFlat of %zu on %d threads", n, o.threads);
    started = Clock::now();
    hnsw->add(count, d.base.data.data());
    hnsw->hnsw.efSearch = o.index.expansion_search;
    rows.push_back(
        {.id = "faiss.hnsw",
         .engine = "faiss hnsw",
         .what = "IndexHNSWFlat::search k=10 (f32)",
         .build_s = SecondsSince(started),
         .note = threads,
         .search = [hnsw, queries, k](size_t q) { return Search(*hnsw, queries->row(q), k); },
         .queries = o.queries});
  }
  // Searches run one query at a time on the calling thread, as kebab's do.
  omp_set_num_threads(1);
  return rows;
}

#endif  // KEBAB_BENCH_HAVE_FAISS

}  // namespace kebab::bench
