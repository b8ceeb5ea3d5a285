#include "search/internal/vector_channel.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "store/testing.h"

namespace kebab::search::internal {
namespace {

namespace fs = std::filesystem;

constexpr int kDims = 16;

class VectorChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kebab-vector-channel-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto s = store::Store::Open((dir_ / "kebab.sqlite").string(), {});
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    auto space = store_->EnsureSpace({"llama", "tiny", "v1", kDims, ""});
    ASSERT_TRUE(space.ok());
    space_ = *space;
    for (int d = 0; d < 40; ++d) {
      std::vector<std::string> texts;
      for (int c = 0; c < 5; ++c)
        texts.push_back("doc " + std::to_string(d) + " chunk " + std::to_string(c));
      ASSERT_TRUE(store_->WriteDocument(store::MakeTestDocument(Path(d), texts)).ok());
    }
    ASSERT_TRUE(store::EmbedPendingTexts(*store_, space_, [&] { return RandomUnit(); }).ok());
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string Path(int doc) { return "notes/" + std::to_string(doc) + ".md"; }

  std::vector<float> RandomUnit() {
    std::normal_distribution<float> n(0, 1);
    std::vector<float> v(kDims);
    float norm = 0;
    for (float& x : v) {
      x = n(rng_);
      norm += x * x;
    }
    for (float& x : v) x /= std::sqrt(norm);
    return v;
  }

  // An f32 index (re-scored and named without the store) of either kind, built and cached.
  std::unique_ptr<index::VectorIndex> OpenIndex(long long exact_max) {
    index::IndexOptions o;
    o.cache_dir = (dir_ / "cache").string();
    o.config.exact_max = exact_max;
    o.config.scalar = "f32";
    auto index = index::OpenIndex(*store_, space_, kDims, o);
    EXPECT_TRUE(index.ok()) << index.status().ToString();
    return index.ok() ? std::move(index).value() : nullptr;
  }

  fs::path dir_;
  std::unique_ptr<store::Store> store_;
  int64_t space_ = 0;
  std::mt19937 rng_{11};
};

TEST_F(VectorChannelTest, HitsNamedByTheIndexAreTheHitsNamedByTheStore) {
  for (long long exact_max : {100000LL, 50LL}) {
    auto index = OpenIndex(exact_max);
    ASSERT_TRUE(index);
    std::vector<std::vector<float>> queries;
    std::vector<std::vector<store::VectorHit>> named_by_index;
    for (int q = 0; q < 5; ++q) {
      queries.push_back(RandomUnit());
      auto hits = NearestChunks(*store_, index.get(), space_, queries.back(), {}, 12);
      ASSERT_TRUE(hits.ok());
      ASSERT_EQ(hits->size(), 12u);
      named_by_index.push_back(std::move(hits).value());
    }
    // The same index without its ids names its hits from the store.
    for (const auto& f : fs::recursive_directory_iterator(dir_ / "cache")) {
      if (f.path().extension() == ".ids") fs::remove(f.path());
    }
    auto without_ids = OpenIndex(exact_max);
    ASSERT_TRUE(without_ids);
    for (size_t q = 0; q < queries.size(); ++q) {
      auto hits = NearestChunks(*store_, without_ids.get(), space_, queries[q], {}, 12);
      ASSERT_TRUE(hits.ok());
      ASSERT_EQ(hits->size(), 12u);
      for (size_t i = 0; i < 12; ++i) {
        EXPECT_EQ((*hits)[i].chunk_id, named_by_index[q][i].chunk_id) << exact_max << " " << i;
        EXPECT_EQ((*hits)[i].chunk_rowid, named_by_index[q][i].chunk_rowid);
        EXPECT_EQ((*hits)[i].similarity, named_by_index[q][i].similarity);
      }
    }
    fs::remove_all(dir_ / "cache");
  }
}

// A search that opened its index just before an ingest committed must not name chunks the
// commit deleted: the index's ids are trusted only while the store is at the index's stamp.
TEST_F(VectorChannelTest, IndexOlderThanTheStoreNeverReturnsDeletedChunks) {
  for (long long exact_max : {100000LL, 50LL}) {
    auto index = OpenIndex(exact_max);
    ASSERT_TRUE(index);
    const std::vector<float> query = RandomUnit();
    auto before = NearestChunks(*store_, index.get(), space_, query, {}, 10);
    ASSERT_TRUE(before.ok());
    ASSERT_FALSE(before->empty());
    const std::string doc_of_best = [&] {
      auto rows = store_->ChunksByRowid({before->front().chunk_rowid});
      EXPECT_TRUE(rows.ok() && rows->size() == 1);
      return rows->front().chunk.chunk.doc_id;
    }();
    // What an ingest does: remove the document and bump the corpus revision.
    for (int d = 0; d < 40; ++d) {
      auto doc = store_->DocIdOfPath(Path(d));
      ASSERT_TRUE(doc.ok());
      if (*doc == doc_of_best) {
        ASSERT_TRUE(store_->PurgePath(Path(d)).ok());
      }
    }
    ASSERT_TRUE(store_->BumpCorpusRevision().ok());
    auto after = NearestChunks(*store_, index.get(), space_, query, {}, 10);
    ASSERT_TRUE(after.ok());
    for (const store::VectorHit& h : *after) EXPECT_NE(h.chunk_rowid, before->front().chunk_rowid);
  }
}

}  // namespace
}  // namespace kebab::search::internal
