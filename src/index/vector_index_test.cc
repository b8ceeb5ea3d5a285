#include "index/vector_index.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "store/testing.h"

namespace kebab::index {
namespace {

namespace fs = std::filesystem;

constexpr int kDims = 32;

// Unit vectors scattered around a few random centres, so nearest neighbours are meaningful
// (uniformly random vectors make every approximate index look broken).
class ClusteredVectors {
 public:
  explicit ClusteredVectors(uint32_t seed) : rng_(seed) {
    std::normal_distribution<float> n(0, 1);
    for (int c = 0; c < 8; ++c) {
      std::vector<float> centre(kDims);
      for (float& x : centre) x = n(rng_);
      centres_.push_back(centre);
    }
  }
  std::vector<float> Next() {
    std::normal_distribution<float> n(0, 0.35f);
    std::vector<float> v = centres_[rng_() % centres_.size()];
    for (float& x : v) x += n(rng_);
    float norm = 0;
    for (float x : v) norm += x * x;
    for (float& x : v) x /= std::sqrt(norm);
    return v;
  }

 private:
  std::mt19937 rng_;
  std::vector<std::vector<float>> centres_;
};

class VectorIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kebab-index-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto s = store::Store::Open((dir_ / "kebab.sqlite").string(), {});
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    auto space = store_->EnsureSpace({"llama", "tiny", "v1", kDims, ""});
    ASSERT_TRUE(space.ok());
    space_ = *space;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes documents of `per_doc` chunks until `total` chunks exist, and embeds them.
  void AddDocuments(const std::string& prefix, int docs, int per_doc) {
    for (int d = 0; d < docs; ++d) {
      std::vector<std::string> texts;
      for (int c = 0; c < per_doc; ++c)
        texts.push_back(prefix + " doc " + std::to_string(d) + " chunk " + std::to_string(c));
      ASSERT_TRUE(store_
                      ->WriteDocument(
                          store::MakeTestDocument(prefix + "/" + std::to_string(d) + ".md", texts))
                      .ok());
    }
    EmbedPending();
  }

  void EmbedPending() {
    ASSERT_TRUE(store::EmbedPendingTexts(*store_, space_, [&] { return vectors_.Next(); }).ok());
  }

  IndexOptions Options(long long exact_max, const std::string& scalar = "f16") {
    IndexOptions o;
    o.cache_dir = (dir_ / "cache").string();
    o.config.exact_max = exact_max;
    o.config.scalar = scalar;
    o.threads = 2;
    return o;
  }

  std::unique_ptr<VectorIndex> Open(const IndexOptions& options, OpenReport* report) {
    auto index = OpenIndex(*store_, space_, kDims, options, report);
    EXPECT_TRUE(index.ok()) << index.status().ToString();
    return index.ok() ? std::move(index).value() : nullptr;
  }

  // The true top `k` by exact f32 cosine over every stored vector.
  std::vector<int64_t> TrueTop(const std::vector<float>& query, int k) {
    auto all = store_->FilteredChunkRowids({});
    EXPECT_TRUE(all.ok());
    auto scored = store_->ScoreChunks(space_, query, *all);
    EXPECT_TRUE(scored.ok());
    std::vector<int64_t> out;
    for (int i = 0; i < k && i < static_cast<int>(scored->size()); ++i) {
      out.push_back((*scored)[i].chunk_rowid);
    }
    return out;
  }

  static std::vector<int64_t> Rowids(const std::vector<Neighbor>& hits) {
    std::vector<int64_t> out;
    for (const Neighbor& n : hits) out.push_back(n.chunk_rowid);
    return out;
  }

  // The chunk ids the store has for `hits`, in the same order.
  std::vector<std::string> StoreIds(const std::vector<Neighbor>& hits) {
    auto rows = store_->ChunksByRowid(Rowids(hits));
    EXPECT_TRUE(rows.ok());
    std::map<int64_t, std::string> by_rowid;
    for (const auto& r : *rows) by_rowid[r.chunk_rowid] = r.chunk.chunk.chunk_id;
    std::vector<std::string> out;
    for (const Neighbor& n : hits) out.push_back(by_rowid.at(n.chunk_rowid));
    return out;
  }

  fs::path dir_;
  std::unique_ptr<store::Store> store_;
  int64_t space_ = 0;
  ClusteredVectors vectors_{7};
};

TEST_F(VectorIndexTest, ExactIndexWithF32MatchesBruteForceAndIsReusedFromTheCache) {
  AddDocuments("a", 20, 10);
  OpenReport first;
  auto index = Open(Options(1000, "f32"), &first);
  ASSERT_TRUE(index);
  EXPECT_EQ(first.kind, IndexKind::kExact);
  EXPECT_TRUE(first.rebuilt);
  EXPECT_EQ(index->size(), 200);
  ASSERT_FALSE(first.path.empty());
  EXPECT_TRUE(fs::exists(first.path));

  for (int q = 0; q < 5; ++q) {
    const std::vector<float> query = vectors_.Next();
    const auto hits = index->Search(query.data(), 10, nullptr);
    ASSERT_EQ(hits.size(), 10u);
    EXPECT_EQ(Rowids(hits), TrueTop(query, 10));
    for (size_t i = 1; i < hits.size(); ++i) EXPECT_GE(hits[i - 1].similarity, hits[i].similarity);
  }

  OpenReport second;
  auto again = Open(Options(1000, "f32"), &second);
  ASSERT_TRUE(again);
  EXPECT_FALSE(second.rebuilt);
  EXPECT_TRUE(second.memory_mapped);
  EXPECT_EQ(second.path, first.path);
  const std::vector<float> query = vectors_.Next();
  EXPECT_EQ(Rowids(again->Search(query.data(), 10, nullptr)),
            Rowids(index->Search(query.data(), 10, nullptr)));
}

TEST_F(VectorIndexTest, StaleCacheIsRebuiltAndOldGenerationsRetired) {
  AddDocuments("a", 5, 4);
  OpenReport first;
  ASSERT_TRUE(Open(Options(1000), &first));
  AddDocuments("b", 1, 3);
  OpenReport second;
  auto index = Open(Options(1000), &second);
  ASSERT_TRUE(index);
  EXPECT_TRUE(second.rebuilt);
  EXPECT_EQ(index->size(), 23);
  EXPECT_NE(second.path, first.path);
  EXPECT_FALSE(fs::exists(first.path));
}

TEST_F(VectorIndexTest, FilterKeepsOnlyAcceptedChunksAndStillReturnsK) {
  AddDocuments("a", 10, 10);
  for (long long exact_max : {1000LL, 0LL}) {
    auto index = Open(Options(exact_max), nullptr);
    ASSERT_TRUE(index);
    const ChunkFilter even = [](int64_t rowid) { return rowid % 2 == 0; };
    const std::vector<float> query = vectors_.Next();
    const auto hits = index->Search(query.data(), 10, &even);
    ASSERT_EQ(hits.size(), 10u) << IndexKindName(index->kind());
    for (const Neighbor& n : hits) EXPECT_EQ(n.chunk_rowid % 2, 0);
  }
}

TEST_F(VectorIndexTest, HnswAboveExactMaxHasHighRecallAndRefreshesOnlyWhatChanged) {
  AddDocuments("a", 100, 20);
  OpenReport built;
  auto index = Open(Options(100), &built);
  ASSERT_TRUE(index);
  EXPECT_EQ(built.kind, IndexKind::kHnsw);
  EXPECT_TRUE(built.rebuilt);
  EXPECT_EQ(index->size(), 2000);

  int found = 0;
  for (int q = 0; q < 20; ++q) {
    const std::vector<float> query = vectors_.Next();
    const auto truth = TrueTop(query, 10);
    const std::set<int64_t> want(truth.begin(), truth.end());
    for (int64_t r : Rowids(index->Search(query.data(), 10, nullptr))) found += want.count(r);
  }
  EXPECT_GE(found, 190) << "recall@10 below 0.95";

  OpenReport cached;
  ASSERT_TRUE(Open(Options(100), &cached));
  EXPECT_FALSE(cached.rebuilt);
  EXPECT_FALSE(cached.refreshed);

  // One document replaced (5 chunks gone, 5 new) and one added (3 chunks).
  ASSERT_TRUE(store_->PurgePath("a/0.md").ok());
  AddDocuments("c", 1, 5);
  AddDocuments("d", 1, 3);
  OpenReport refreshed;
  auto updated = Open(Options(100), &refreshed);
  ASSERT_TRUE(updated);
  EXPECT_TRUE(refreshed.refreshed);
  EXPECT_EQ(refreshed.removed, 20);
  EXPECT_EQ(refreshed.added, 8);
  EXPECT_EQ(updated->size(), 1988);
  // The refreshed graph finds the chunks added to it: each one's own vector ranks it first.
  std::vector<std::pair<int64_t, std::vector<float>>> added;
  ASSERT_TRUE(
      store_
          ->ScanSpaceVectors(space_,
                             [&](const store::ChunkVector& cv) {
                               added.push_back({cv.chunk_rowid, {cv.vector, cv.vector + kDims}});
                               return Status::OK();
                             })
          .ok());
  added.erase(added.begin(), added.end() - 8);
  for (const auto& [rowid, vector] : added) {
    const auto hits = updated->Search(vector.data(), 1, nullptr);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].chunk_rowid, rowid);
  }
}

TEST_F(VectorIndexTest, HnswRescoresWithExactFloat32VectorsLikeTheStore) {
  AddDocuments("a", 50, 10);
  const std::vector<float> query = vectors_.Next();
  auto expected = [&](std::vector<Neighbor> hits) {
    std::vector<int64_t> rowids = Rowids(hits);
    auto scored = store_->ScoreChunks(space_, query, rowids);
    EXPECT_TRUE(scored.ok());
    std::map<int64_t, float> by_rowid;
    for (const auto& h : *scored) by_rowid[h.chunk_rowid] = h.similarity;
    return by_rowid;
  };
  for (bool reopened : {false, true}) {
    auto index = Open(Options(100), nullptr);  // built, then read back from the cache
    ASSERT_TRUE(index);
    ASSERT_EQ(index->kind(), IndexKind::kHnsw);
    std::vector<Neighbor> hits = index->Search(query.data(), 20, nullptr);
    ASSERT_EQ(hits.size(), 20u);
    const auto want = expected(hits);
    ASSERT_TRUE(index->Rescore(query.data(), &hits)) << "reopened " << reopened;
    for (const Neighbor& n : hits) EXPECT_EQ(n.similarity, want.at(n.chunk_rowid));
  }
  // A neighbour the index does not hold leaves the hits untouched.
  auto index = Open(Options(100), nullptr);
  std::vector<Neighbor> unknown = {{999999, 0.5f}};
  EXPECT_FALSE(index->Rescore(query.data(), &unknown));
  EXPECT_EQ(unknown[0].similarity, 0.5f);
  // An f16 exact index keeps no float32 vectors: the caller re-scores from the store.
  auto flat = Open(Options(100000), nullptr);
  ASSERT_EQ(flat->kind(), IndexKind::kExact);
  std::vector<Neighbor> flat_hits = flat->Search(query.data(), 5, nullptr);
  EXPECT_FALSE(flat->Rescore(query.data(), &flat_hits));
  auto flat32 = Open(Options(100000, "f32"), nullptr);
  std::vector<Neighbor> hits32 = flat32->Search(query.data(), 5, nullptr);
  const auto want32 = expected(hits32);
  ASSERT_TRUE(flat32->Rescore(query.data(), &hits32));
  for (const Neighbor& n : hits32) EXPECT_EQ(n.similarity, want32.at(n.chunk_rowid));
}

TEST_F(VectorIndexTest, BothKindsNameTheirHitsWithTheStoresChunkIds) {
  AddDocuments("a", 30, 10);
  auto stamp = store_->IndexStamp();
  ASSERT_TRUE(stamp.ok());
  const std::vector<float> query = vectors_.Next();
  for (long long exact_max : {100000LL, 100LL}) {
    for (bool reopened : {false, true}) {
      OpenReport report;
      auto index = Open(Options(exact_max), &report);  // built, then read back from the cache
      ASSERT_TRUE(index);
      EXPECT_EQ(report.rebuilt, !reopened);
      EXPECT_EQ(index->stamp(), *stamp);
      const std::vector<Neighbor> hits = index->Search(query.data(), 15, nullptr);
      ASSERT_EQ(hits.size(), 15u);
      std::vector<std::string> ids;
      ASSERT_TRUE(index->ChunkIds(hits, &ids)) << report.path;
      EXPECT_EQ(ids, StoreIds(hits)) << report.path;
      std::vector<Neighbor> unknown = {{999999, 0.5f}};
      EXPECT_FALSE(index->ChunkIds(unknown, &ids));
      EXPECT_EQ(ids.size(), 15u);
    }
  }
}

TEST_F(VectorIndexTest, HitsAreFoundAmongRowidsWithUnevenGaps) {
  // Rowids 1..600, then a run of 200 and every seventh document deleted, then 601..700.
  AddDocuments("a", 60, 10);
  for (int d = 0; d < 60; ++d) {
    if ((d >= 5 && d < 25) || d % 7 == 0) {
      ASSERT_TRUE(store_->PurgePath("a/" + std::to_string(d) + ".md").ok());
    }
  }
  AddDocuments("b", 10, 10);
  auto stored = store_->FilteredChunkRowids({});
  ASSERT_TRUE(stored.ok());
  std::sort(stored->begin(), stored->end());
  std::vector<Neighbor> all;
  for (int64_t rowid : *stored) all.push_back({rowid, 0});
  const std::vector<float> query = vectors_.Next();
  for (const std::string& scalar : {std::string("f16"), std::string("f32")}) {
    auto index = Open(Options(scalar == "f32" ? 100000 : 100, scalar), nullptr);
    ASSERT_TRUE(index);
    std::vector<std::string> ids;
    ASSERT_TRUE(index->ChunkIds(all, &ids)) << scalar;
    EXPECT_EQ(ids, StoreIds(all)) << scalar;
    std::vector<Neighbor> scored = all;
    ASSERT_TRUE(index->Rescore(query.data(), &scored)) << scalar;
    for (int64_t gone : {0, 1, 51, 150, 250, 701, 100000}) {
      if (std::binary_search(stored->begin(), stored->end(), gone)) continue;
      std::vector<Neighbor> missing = {{gone, 0.5f}};
      EXPECT_FALSE(index->ChunkIds(missing, &ids)) << scalar << " rowid " << gone;
      EXPECT_FALSE(index->Rescore(query.data(), &missing)) << scalar << " rowid " << gone;
    }
  }
}

TEST_F(VectorIndexTest, CacheWithoutIdsStillSearchesAndLeavesNamingToTheStore) {
  AddDocuments("a", 10, 10);
  for (long long exact_max : {100000LL, 50LL}) {
    OpenReport first;
    ASSERT_TRUE(Open(Options(exact_max), &first));
    const std::string flat = exact_max == 50 ? first.path + ".f32" : first.path;
    ASSERT_TRUE(fs::remove(flat + ".ids")) << flat;
    OpenReport second;
    auto index = Open(Options(exact_max), &second);
    ASSERT_TRUE(index);
    EXPECT_FALSE(second.rebuilt);
    const std::vector<float> query = vectors_.Next();
    const std::vector<Neighbor> hits = index->Search(query.data(), 5, nullptr);
    EXPECT_EQ(hits.size(), 5u);
    std::vector<std::string> ids;
    EXPECT_FALSE(index->ChunkIds(hits, &ids));
    EXPECT_TRUE(ids.empty());
  }
}

TEST_F(VectorIndexTest, ChangingExactMaxSwitchesKind) {
  AddDocuments("a", 10, 10);
  OpenReport exact, hnsw;
  ASSERT_TRUE(Open(Options(1000), &exact));
  EXPECT_EQ(exact.kind, IndexKind::kExact);
  ASSERT_TRUE(Open(Options(50), &hnsw));
  EXPECT_EQ(hnsw.kind, IndexKind::kHnsw);
}

TEST_F(VectorIndexTest, CorruptCacheFileIsRebuilt) {
  AddDocuments("a", 5, 5);
  OpenReport first;
  ASSERT_TRUE(Open(Options(1000), &first));
  fs::resize_file(first.path, 100);
  OpenReport second;
  auto index = Open(Options(1000), &second);
  ASSERT_TRUE(index);
  EXPECT_TRUE(second.rebuilt);
  EXPECT_EQ(index->size(), 25);
  EXPECT_GT(fs::file_size(second.path), 100u);
}

TEST_F(VectorIndexTest, UnwritableCacheIsAWarningAndTheIndexStillWorks) {
  AddDocuments("a", 5, 5);
  IndexOptions options = Options(1000);
  std::ofstream(dir_ / "not-a-dir") << "x";
  options.cache_dir = (dir_ / "not-a-dir").string();
  OpenReport report;
  auto index = Open(options, &report);
  ASSERT_TRUE(index);
  EXPECT_FALSE(report.warning.empty());
  EXPECT_TRUE(report.path.empty());
  const std::vector<float> query = vectors_.Next();
  EXPECT_EQ(index->Search(query.data(), 5, nullptr).size(), 5u);
}

}  // namespace
}  // namespace kebab::index
