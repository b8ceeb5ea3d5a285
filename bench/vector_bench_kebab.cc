// kebab's side of kebab_vector_bench: the vectors in a real store, the index as OpenIndex builds
// and re-opens it, and NearestChunks as `kebab search` runs it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "index/vector_index.h"
#include "search/internal/vector_channel.h"
#include "store/store.h"
#include "store/testing.h"
#include "vector_bench.h"

namespace kebab::bench {
namespace {

namespace fs = std::filesystem;

constexpr int kChunksPerDoc = 100;
constexpr int kDocsPerBatch = 50;  // documents per store batch (one transaction)
constexpr int kVectorPage = 50000;
// The depths semantic.cc passes for k = 10: `--mode vector` asks for k + 1 (is there a next
// page?), hybrid for max(50, 2 (k + 1)); and what the channel then asks the index for
// (vector_channel.cc's Overfetch: depth + max(8, depth / 4)).
constexpr int kVectorDepth = 11;
constexpr int kHybridDepth = 50;
constexpr int kIndexWanted = kVectorDepth + 8;

void Check(const Status& st, const char* what) {
  if (st.ok()) return;
  std::fprintf(stderr, "kebab_vector_bench: %s: %s\n", what, st.ToString().c_str());
  std::exit(1);
}

template <typename T>
T Take(Result<T> r, const char* what) {
  Check(r.ok() ? Status::OK() : r.status(), what);
  return std::move(r).value();
}

// Documents of kChunksPerDoc one-line chunks ("bench chunk <i>", so every text and its hash is
// distinct), written kDocsPerBatch per transaction as bulk ingest does.
void WriteChunks(store::Store& s, size_t n) {
  const size_t per_batch = static_cast<size_t>(kChunksPerDoc) * kDocsPerBatch;
  size_t next_report = n / 10;
  for (size_t first = 0; first < n; first += per_batch) {
    Check(s.BeginBatch(), "begin batch");
    for (size_t doc = first; doc < std::min(n, first + per_batch); doc += kChunksPerDoc) {
      std::vector<std::string> texts;
      for (size_t i = doc; i < std::min(n, doc + kChunksPerDoc); ++i) {
        texts.push_back("bench chunk " + std::to_string(i));
      }
      Check(s.WriteDocument(store::MakeTestDocument(
                "bench/" + std::to_string(doc / kChunksPerDoc) + ".md", texts)),
            "write document");
    }
    Check(s.CommitBatch(), "commit batch");
    if (first + per_batch >= next_report && n >= 100000) {
      Progress("store: %zu / %zu chunks written", std::min(n, first + per_batch), n);
      next_report += n / 10;
    }
  }
}

// Stores each chunk's vector (chunk i gets base row i, in rowid order) keyed by its text hash,
// as the embed stage does; returns rowid -> base row.
std::unordered_map<int64_t, uint32_t> PutVectors(store::Store& s, int64_t space,
                                                 const Vectors& base) {
  std::unordered_map<int64_t, uint32_t> row_of;
  row_of.reserve(base.count);
  int64_t after = 0;
  uint32_t next = 0;
  for (;;) {
    auto page = Take(s.TextsWithoutVectors(space, kVectorPage, after), "texts without vectors");
    if (page.empty()) break;
    std::vector<std::string> hashes;
    std::vector<std::vector<float>> vectors;
    for (const store::PendingText& p : page) {
      if (next >= base.count) break;
      row_of[p.chunk_rowid] = next;
      hashes.push_back(p.text_hash);
      vectors.emplace_back(base.row(next), base.row(next) + base.dims);
      after = p.chunk_rowid;
      ++next;
    }
    Check(s.PutVectors(space, hashes, vectors), "put vectors");
    if (base.count >= 100000) Progress("store: %u / %zu vectors stored", next, base.count);
    if (next >= base.count) break;
  }
  return row_of;
}

std::string Seconds(const char* label, double s) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s%.1f s", label, s);
  return buf;
}

double FileMb(const std::string& path) {
  std::error_code ec;
  double bytes = 0;
  for (const std::string& p : {path, path + ".keys"}) {
    const auto size = fs::file_size(p, ec);
    if (!ec) bytes += static_cast<double>(size);
  }
  return bytes / 1e6;
}

// What kebab's rows search: the store and both indexes, shared by the rows' closures.
struct State {
  std::unique_ptr<store::Store> store;
  int64_t space = 0;
  std::unordered_map<int64_t, uint32_t> row_of;
  std::vector<std::vector<float>> queries;
  std::unique_ptr<index::VectorIndex> exact, hnsw;
  std::vector<std::unique_ptr<index::VectorIndex>> fresh;  // HNSW re-opened, mapped anew
  std::string dir;
  bool keep = false;
  ~State() {
    exact.reset();
    hnsw.reset();
    fresh.clear();
    store.reset();
    if (!keep) fs::remove_all(dir);
  }
  std::vector<uint32_t> Ids(const std::vector<int64_t>& rowids, int k) const {
    std::vector<uint32_t> ids;
    for (size_t j = 0; j < rowids.size() && j < static_cast<size_t>(k); ++j) {
      auto it = row_of.find(rowids[j]);
      ids.push_back(it == row_of.end() ? UINT32_MAX : it->second);
    }
    return ids;
  }
};

// The rowids of an index walk for `query` (kIndexWanted of them), in index order, or re-scored
// with the exact float32 vectors and re-ranked.
std::vector<int64_t> Walk(const index::VectorIndex& ix, const std::vector<float>& query,
                          bool rescore) {
  std::vector<index::Neighbor> found = ix.Search(query.data(), kIndexWanted, nullptr);
  if (rescore) {
    ix.Rescore(query.data(), &found);
    std::sort(found.begin(), found.end(), [](const index::Neighbor& a, const index::Neighbor& b) {
      return a.similarity > b.similarity;
    });
  }
  std::vector<int64_t> rowids;
  for (const index::Neighbor& nb : found) rowids.push_back(nb.chunk_rowid);
  return rowids;
}

}  // namespace

std::vector<Row> KebabRows(const Dataset& d, const RunOptions& o) {
  const size_t n = d.base.count;
  auto st = std::make_shared<State>();
  st->dir = o.work_dir + "/kebab-" + std::to_string(n);
  st->keep = o.keep;
  fs::remove_all(st->dir);
  fs::create_directories(st->dir);
  std::vector<Row> rows;

  auto started = Clock::now();
  const std::string db_path = st->dir + "/kebab.sqlite";
  st->store = Take(store::Store::Open(db_path, {}), "open store");
  store::Store& s = *st->store;
  WriteChunks(s, n);
  const double chunks_s = SecondsSince(started);
  started = Clock::now();
  st->space = Take(s.EnsureSpace({.provider = "bench",
                                  .model = "clustered",
                                  .version = "v1",
                                  .dimensions = d.base.dims,
                                  .document_prefix = ""}),
                   "ensure space");
  st->row_of = PutVectors(s, st->space, d.base);
  Check(s.Checkpoint(), "checkpoint");
  const double vectors_s = SecondsSince(started);
  std::error_code ec;
  const double db_mb = static_cast<double>(fs::file_size(db_path, ec)) / 1e6;
  // Searched the way `kebab search` opens the index: read-only (which maps the file).
  st->store = Take(store::Store::Open(db_path, {.readonly = true}), "re-open store read-only");
  store::Store& reader = *st->store;
  rows.push_back({.id = "kebab.store",
                  .engine = "kebab store",
                  .what = "write chunks + vectors (SQLite)",
                  .build_s = chunks_s + vectors_s,
                  .file_mb = db_mb,
                  .note = Seconds("chunks ", chunks_s) + Seconds(", vectors ", vectors_s)});
  for (size_t i = 0; i < d.queries.count; ++i) {
    st->queries.emplace_back(d.queries.row(i), d.queries.row(i) + d.queries.dims);
  }

  // Exact first: the HNSW build retires its cache file, but the mapping stays valid.
  for (const index::IndexKind kind : {index::IndexKind::kExact, index::IndexKind::kHnsw}) {
    const bool exact = kind == index::IndexKind::kExact;
    const std::string name = index::IndexKindName(kind);
    index::IndexOptions options;
    options.cache_dir = st->dir + "/cache";
    options.config = o.index;
    options.config.exact_max = exact ? static_cast<long long>(n) : 0;
    options.threads = o.threads;

    Progress("kebab: building the %s index of %zu vectors", name.c_str(), n);
    started = Clock::now();
    index::OpenReport built;
    auto idx =
        Take(index::OpenIndex(reader, st->space, d.base.dims, options, &built), "build index");
    const double build_s = SecondsSince(started);
    idx.reset();
    started = Clock::now();
    index::OpenReport reopened;
    idx =
        Take(index::OpenIndex(reader, st->space, d.base.dims, options, &reopened), "re-open index");
    const double reopen_ms = MsSince(started);
    std::string note = std::string("picked ") + index::IndexKindName(reopened.kind) +
                       (reopened.rebuilt ? ", REBUILT on re-open" : "") +
                       (reopened.memory_mapped ? ", re-opened mmapped" : ", re-opened read");
    if (!built.warning.empty()) note += "; " + built.warning;
    const index::VectorIndex* ix = idx.get();
    (exact ? st->exact : st->hnsw) = std::move(idx);

    const size_t count = exact ? o.exact_queries : o.queries;
    // Timing passes (see TimeInterleaved): depth 11 shares pass 0 (index walks) or 3 (full
    // scans) with the other engines; the other rows search the same index, so they get passes
    // of their own.
    const int k = o.k;
    auto nearest = [st, ix, k](int depth) {
      return [st, ix, k, depth](size_t q) {
        auto hits = Take(
            search::internal::NearestChunks(*st->store, ix, st->space, st->queries[q], {}, depth),
            "nearest chunks");
        std::vector<int64_t> rowids;
        for (const store::VectorHit& h : hits) rowids.push_back(h.chunk_rowid);
        return st->Ids(rowids, k);
      };
    };
    rows.push_back({.id = "kebab." + name + ".d11",
                    .engine = "kebab " + name,
                    .what = "NearestChunks depth 11 (--mode vector)",
                    .build_s = build_s,
                    .file_mb = FileMb(built.path),
                    .reopen_ms = reopen_ms,
                    .note = note,
                    .search = nearest(kVectorDepth),
                    .queries = count,
                    .pass = exact ? 3 : 0});
    rows.push_back({.id = "kebab." + name + ".d50",
                    .engine = "kebab " + name,
                    .what = "NearestChunks depth 50 (hybrid)",
                    .search = nearest(kHybridDepth),
                    .queries = count,
                    .pass = exact ? 4 : 1});
    for (const bool rescore : {false, true}) {
      rows.push_back(
          {.id = "kebab." + name + (rescore ? ".rescore" : ".walk"),
           .engine = "kebab " + name,
           .what = rescore ? "walk + re-score (Search 19, no SQLite)"
                           : "index walk only (Search 19, no SQLite)",
           .note = rescore ? "NearestChunks adds the stamp check (SQLite) and naming the hits"
                           : "index order (stored scalar), before re-scoring",
           .search = [st, ix, k,
                      rescore](size_t q) { return st->Ids(Walk(*ix, st->queries[q], rescore), k); },
           .queries = count,
           .pass = exact ? 5 : 2});
    }
    if (exact) continue;
    // The same files mapped afresh, as every `kebab search` process maps them: which part of a
    // query takes the first touches of the mapped pages (faults/q).
    for (const bool rescore : {false, true}) {
      st->fresh.push_back(Take(index::OpenIndex(reader, st->space, d.base.dims, options, nullptr),
                               "re-open index"));
      const index::VectorIndex* fx = st->fresh.back().get();
      rows.push_back(
          {.id = std::string("kebab.hnsw.fresh.") + (rescore ? "rescore" : "walk"),
           .engine = "kebab hnsw",
           .what = rescore ? "walk + re-score, own fresh mapping"
                           : "index walk only, own fresh mapping",
           .note = "first touches of a newly mapped index, as in a new process",
           .search = [st, fx, k,
                      rescore](size_t q) { return st->Ids(Walk(*fx, st->queries[q], rescore), k); },
           .queries = count,
           .pass = 6});
    }
  }
  return rows;
}

}  // namespace kebab::bench
