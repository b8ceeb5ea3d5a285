#include "app/session.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "app/admin.h"
#include "app/ingest.h"
#include "app/internal/session_state.h"
#include "app/internal_store.h"
#include "app/queries.h"

namespace kebab::app {
namespace {

const std::string kModels = KEBAB_TINY_MODEL_DIR;

// A real workspace, SQLite file and the tiny random-weight BERT model, shared through one
// Session the way `kebab mcp` shares it between concurrent tool calls.
class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kebab-session-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "ws");
    for (int i = 0; i < 6; ++i) Write("note" + std::to_string(i) + ".md", i);
    const std::string config_path = (dir_ / "config.toml").string();
    std::ofstream(config_path) << "[workspace]\nroot = \"" << (dir_ / "ws").string()
                               << "\"\n[storage]\ndata_dir = \"" << (dir_ / "data").string()
                               << "\"\n[models.embedding]\nprovider = \"llama\"\nmodel = \""
                               << kModels << "/bge-tiny.gguf\"\nthreads = 1\n";
    auto config =
        config::LoadConfig({.explicit_path = config_path, .env = {{"HOME", dir_.string()}}});
    ASSERT_TRUE(config.ok()) << config.status().message();
    config_ = *config;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Write(const std::string& name, int n) {
    std::ofstream(dir_ / "ws" / name) << "# Note " << n << "\n\nThe write-ahead log keeps page "
                                      << n << " until a checkpoint copies it back.\n";
  }

  static Result<search::SearchResponse> Find(Session& session, SearchMode mode) {
    search::SearchRequest request;
    request.query = "checkpoint copies the page";
    request.mode = mode;
    request.k = 3;
    return Search(session, request);
  }

  std::filesystem::path dir_;
  config::Config config_;
};

TEST_F(SessionTest, AReadOnlySessionRefusesWritesAndSaysWhich) {
  Session session(config_, {.readonly = true});
  EXPECT_TRUE(session.readonly());
  const Status refused = session.CheckWritable("ingest");
  EXPECT_EQ(refused.code(), ErrorCode::kReadonlyMode);
  EXPECT_NE(refused.message().find("kebab ingest"), std::string::npos);
  auto report = Ingest(session, {}, nullptr, nullptr);
  EXPECT_EQ(report.status().code(), ErrorCode::kReadonlyMode);
  EXPECT_FALSE(std::filesystem::exists(config_.storage.sqlite));  // nothing was written
  EXPECT_TRUE(Session(config_).CheckWritable("ingest").ok());
}

TEST_F(SessionTest, ConcurrentSearchesShareOneModelAndIndex) {
  Session session(config_);
  ASSERT_TRUE(Ingest(session, {}, nullptr, nullptr).ok());
  std::vector<std::thread> threads;
  std::atomic<int> failures{0}, hits{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        auto r = Find(session, t % 2 == 0 ? SearchMode::kHybrid : SearchMode::kVector);
        if (!r.ok()) {
          ++failures;
          continue;
        }
        hits += static_cast<int>(r->hits.size());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(hits.load(), 4 * 10 * 3);
}

TEST_F(SessionTest, AnIndexInUseSurvivesItsReplacementAfterAnIngest) {
  Session session(config_);
  ASSERT_TRUE(Ingest(session, {}, nullptr, nullptr).ok());
  auto store = OpenStore(config_, /*readonly=*/true);
  ASSERT_TRUE(store.ok());
  auto spaces = (*store)->ListSpaces();
  ASSERT_TRUE(spaces.ok());
  ASSERT_EQ(spaces->size(), 1u);
  const store::StoredSpace space = spaces->front();
  auto first = session.state().VectorIndex(config_, **store, space.space_id, space.key.dimensions);
  ASSERT_TRUE(first.ok());
  auto again = session.state().VectorIndex(config_, **store, space.space_id, space.key.dimensions);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(first->get(), again->get());  // unchanged store: the kept index
  const int64_t before = (*first)->size();

  // Another process (here: the same session) adds documents: the next call opens a new index,
  // and the caller still holding the old one can go on using it.
  Write("later.md", 99);
  ASSERT_TRUE(Ingest(session, {}, nullptr, nullptr).ok());
  auto fresh = OpenStore(config_, /*readonly=*/true);
  ASSERT_TRUE(fresh.ok());
  auto replaced =
      session.state().VectorIndex(config_, **fresh, space.space_id, space.key.dimensions);
  ASSERT_TRUE(replaced.ok());
  EXPECT_NE(first->get(), replaced->get());
  EXPECT_GT((*replaced)->size(), before);
  EXPECT_EQ((*first)->size(), before);
  auto found = Find(session, SearchMode::kVector);
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->hits.size(), 3u);
}

TEST_F(SessionTest, ReadHandlesServeOneCallerAtATimeAndAreKeptWarm) {
  Session session(config_);
  ASSERT_TRUE(Ingest(session, {}, nullptr, nullptr).ok());
  const store::Store* first = nullptr;
  const store::Store* second = nullptr;
  {
    auto a = session.state().ReadStore(config_);
    auto b = session.state().ReadStore(config_);
    ASSERT_TRUE(a.ok() && b.ok());
    first = &**a;
    second = &**b;
    EXPECT_NE(first, second);  // two callers at once never share a connection
  }
  {
    auto again = session.state().ReadStore(config_);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(&**again == first || &**again == second);  // a kept one, not a new one
  }
  // A kept handle sees what a later ingest wrote.
  std::ofstream(dir_ / "ws" / "later.md")
      << "# Later\n\nA quokka arrived after the first ingest.\n";
  ASSERT_TRUE(Ingest(session, {}, nullptr, nullptr).ok());
  search::SearchRequest request;
  request.query = "quokka";
  request.k = 3;
  auto found = Search(session, request);
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->hits.size(), 1u);
  EXPECT_EQ(found->hits[0].citation.path, "later.md");
}

TEST_F(SessionTest, AResetIndexIsNeverReadThroughAKeptHandle) {
  Session session(config_);
  ASSERT_TRUE(Ingest(session, {}, nullptr, nullptr).ok());
  ASSERT_TRUE(Find(session, SearchMode::kLexical).ok());  // leaves a handle on the old file

  ASSERT_TRUE(Reset(session, ResetScope::kDataOnly).ok());
  EXPECT_EQ(Find(session, SearchMode::kLexical).status().code(), ErrorCode::kNotIndexed);

  // The index is built anew from other notes: the old file's chunks are gone for good.
  for (int i = 0; i < 6; ++i)
    std::filesystem::remove(dir_ / "ws" / ("note" + std::to_string(i) + ".md"));
  std::ofstream(dir_ / "ws" / "fresh.md") << "# Fresh\n\nThe checkpoint copies every page back.\n";
  ASSERT_TRUE(Ingest(session, {}, nullptr, nullptr).ok());
  auto found = Find(session, SearchMode::kLexical);
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->hits.size(), 1u);
  EXPECT_EQ(found->hits[0].citation.path, "fresh.md");
}

TEST_F(SessionTest, AModelThatFailsToOpenIsRetriedByTheNextCall) {
  Session session(config_);
  ASSERT_TRUE(Ingest(session, {}, nullptr, nullptr).ok());
  config::Config broken = config_;
  broken.embedding.model = (dir_ / "missing.gguf").string();
  Session missing(broken);
  EXPECT_EQ(missing.state().Embedder(broken).status().code(), ErrorCode::kModelNotPulled);
  EXPECT_EQ(missing.state().Embedder(broken).status().code(), ErrorCode::kModelNotPulled);
  EXPECT_TRUE(session.state().Embedder(config_).ok());
}

}  // namespace
}  // namespace kebab::app
