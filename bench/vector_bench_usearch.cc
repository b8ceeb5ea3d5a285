// The floor of kebab_vector_bench: a bare USearch index_dense_t with kebab's metric (cos),
// stored scalar and HNSW settings, built in memory on the same threads, searched for k = 10;
// and the same index saved and memory-mapped back (view), as a process that opens an index
// from disk, such as `kebab search`, has it.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <usearch/index_dense.hpp>
#include <vector>

#include "index/internal/usearch_types.h"
#include "vector_bench.h"

namespace kebab::bench {
namespace {

namespace us = unum::usearch;

// The top `k` ids of query `q`, by the index's walk or (exact) a full scan.
std::vector<uint32_t> Search(const us::index_dense_t& index, const float* query, int k,
                             bool exact) {
  const size_t wanted = static_cast<size_t>(k);
  std::vector<us::default_key_t> keys(wanted);
  std::vector<us::default_distance_t> distances(wanted);
  auto result = index.search(query, wanted, us::index_dense_t::any_thread(), exact);
  if (!result) {
    std::fprintf(stderr, "usearch search failed: %s\n",
                 index::internal::TakeError(result.error).c_str());
    return {};
  }
  const size_t n = result.dump_to(keys.data(), distances.data());
  return std::vector<uint32_t>(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace

std::vector<Row> UsearchRows(const Dataset& d, const RunOptions& o) {
  const size_t n = d.base.count;
  const int threads = o.threads;
  const auto metric =
      us::metric_punned_t::builtin(static_cast<size_t>(d.base.dims), us::metric_kind_t::cos_k,
                                   index::internal::ScalarKind(o.index.scalar));
  us::index_dense_config_t config(static_cast<size_t>(o.index.connectivity),
                                  static_cast<size_t>(o.index.expansion_add),
                                  static_cast<size_t>(o.index.expansion_search));
  auto made = us::index_dense_t::make(metric, config);
  if (!made) return {{.engine = "usearch", .note = index::internal::TakeError(made.error)}};
  auto index = std::make_shared<us::index_dense_t>(std::move(made.index));
  if (!index->try_reserve(us::index_limits_t(n, static_cast<size_t>(threads)))) {
    return {{.engine = "usearch", .note = "out of memory reserving the index"}};
  }

  Progress("usearch: building the HNSW index of %zu on %d threads", n, threads);
  std::atomic<size_t> added{0};
  const auto started = Clock::now();
  auto work = [&](size_t thread) {
    for (size_t i = thread; i < n; i += static_cast<size_t>(threads)) {
      auto result = index->add(static_cast<us::default_key_t>(i), d.base.row(i), thread);
      if (!result) {
        std::fprintf(stderr, "usearch add failed: %s\n",
                     index::internal::TakeError(result.error).c_str());
        return;
      }
      const size_t done = ++added;
      if (n >= 100000 && done % (n / 10) == 0) Progress("usearch: %zu / %zu added", done, n);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, static_cast<size_t>(t));
  work(0);
  for (std::thread& t : pool) t.join();
  const double build_s = SecondsSince(started);

  char note[96];
  std::snprintf(note, sizeof(note), "in memory, %.1f MB; %d build threads",
                static_cast<double>(index->memory_usage()) / 1e6, threads);
  const Vectors* queries = &d.queries;
  const int k = o.k;
  std::vector<Row> rows = {
      {.id = "usearch.hnsw",
       .engine = "usearch hnsw",
       .what = "index_dense_t::search k=10",
       .build_s = build_s,
       .note = note,
       .search = [index, queries,
                  k](size_t q) { return Search(*index, queries->row(q), k, /*exact=*/false); },
       .queries = o.queries},
      {.id = "usearch.exact",
       .engine = "usearch exact",
       .what = "index_dense_t::search k=10, exact=true",
       .note = "full scan of the same index",
       .search = [index, queries,
                  k](size_t q) { return Search(*index, queries->row(q), k, /*exact=*/true); },
       .queries = o.exact_queries,
       .pass = 3}};
  std::filesystem::create_directories(o.work_dir);
  const std::string path = o.work_dir + "/usearch-" + std::to_string(n) + ".usearch";
  auto saved = index->save(path.c_str());
  auto viewed = saved ? us::index_dense_t::make(path.c_str(), /*view=*/true)
                      : us::index_dense_t::state_result_t{};
  if (!saved || !viewed) {
    rows.push_back({.engine = "usearch hnsw mapped",
                    .note = "could not save and map the index: " +
                            index::internal::TakeError(saved ? viewed.error : saved.error)});
  } else {
    viewed.index.change_expansion_search(static_cast<size_t>(o.index.expansion_search));
    auto mapped = std::make_shared<us::index_dense_t>(std::move(viewed.index));
    rows.push_back(
        {.id = "usearch.hnsw_mapped",
         .engine = "usearch hnsw mapped",
         .what = "the same index saved, then view()",
         .note = "memory-mapped from its file, as a CLI opens an index",
         .search = [mapped, queries,
                    k](size_t q) { return Search(*mapped, queries->row(q), k, /*exact=*/false); },
         .queries = o.queries});
  }
  return rows;
}

}  // namespace kebab::bench
