#include "app/embed_stage.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include "app/internal_store.h"
#include "store/testing.h"

namespace kebab::app {
namespace {

const std::string kModels = KEBAB_TINY_MODEL_DIR;
constexpr int kBatch = 4;

// The stage against a real SQLite file and the tiny random-weight BERT model; the test plays
// the ingest writer (write documents, commit, tell the stage).
class EmbedStageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kebab-embed-stage-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    config_.storage.sqlite = (dir_ / "kebab.sqlite").string();
    config_.embedding.provider = "llama";
    config_.embedding.model = kModels + "/bge-tiny.gguf";
    config_.embedding.threads = 1;
    config_.embedding.batch_size = kBatch;
    auto opened = OpenStore(config_, /*readonly=*/false);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    writer_ = std::move(opened).value();
  }
  void TearDown() override {
    session_.reset();
    writer_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Writes `docs` documents of two distinct texts each in one committed batch.
  void CommitDocuments(int first, int docs) {
    ASSERT_TRUE(writer_->BeginBatch().ok());
    for (int i = first; i < first + docs; ++i) {
      store::DocumentWrite w = store::MakeTestDocument(
          "doc" + std::to_string(i) + ".md",
          {"first text of " + std::to_string(i), "second text of " + std::to_string(i)});
      store::EncodeRows(&w);
      ASSERT_TRUE(writer_->WriteDocument(w).ok());
    }
    ASSERT_TRUE(writer_->CommitBatch().ok());
  }

  IngestEventSink Recorder() {
    return [this](const IngestEvent& e) {
      std::lock_guard lock(events_mu_);
      events_.push_back(e.kind);
    };
  }

  // Polls until `stage` has embedded at least `n` texts (or a generous deadline passes).
  static bool EmbeddedAtLeast(const EmbedStage& stage, int64_t n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (stage.embedded() < n && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return stage.embedded() >= n;
  }

  int64_t TextsWithoutVectors() {
    auto spaces = writer_->ListSpaces();
    EXPECT_TRUE(spaces.ok());
    EXPECT_EQ(spaces->size(), 1u);
    if (!spaces.ok() || spaces->empty()) return -1;
    auto missing = writer_->CountTextsWithoutVectors(spaces->front().space_id);
    return missing.ok() ? *missing : -1;
  }

  // The session of config_ as it is at the first call (a test may change config_ before).
  Session& session() {
    if (session_ == nullptr) session_ = std::make_unique<Session>(config_);
    return *session_;
  }

  std::filesystem::path dir_;
  config::Config config_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<store::Store> writer_;
  std::mutex events_mu_;
  std::vector<IngestEvent::Kind> events_;
};

TEST_F(EmbedStageTest, EmbedsEachCommitWhileTheWriterIsStillWriting) {
  EmbedStage stage(session(), Recorder(), nullptr);
  stage.Start();
  CommitDocuments(0, 4);  // 8 texts: two full batches
  stage.NoteCommit();
  ASSERT_TRUE(EmbeddedAtLeast(stage, 8)) << "embedded " << stage.embedded();
  CommitDocuments(4, 3);  // 6 more: one full batch and a remainder left for Finish
  stage.NoteCommit();
  ASSERT_TRUE(EmbeddedAtLeast(stage, 12));
  ASSERT_TRUE(stage.Finish().ok());
  EXPECT_EQ(stage.embedded(), 14);
  EXPECT_EQ(TextsWithoutVectors(), 0);
  std::lock_guard lock(events_mu_);
  EXPECT_EQ(std::count(events_.begin(), events_.end(), IngestEvent::Kind::kEmbedBatchFinished), 4);
}

TEST_F(EmbedStageTest, FinishEmbedsWhatAnEarlierRunLeftAndNothingTwice) {
  CommitDocuments(0, 3);
  {
    EmbedStage earlier(session(), nullptr, nullptr);
    earlier.Start();
    ASSERT_TRUE(earlier.Finish().ok());
    EXPECT_EQ(earlier.embedded(), 6);
  }
  // Same texts under new paths need no vector; two new texts do.
  ASSERT_TRUE(writer_->BeginBatch().ok());
  store::DocumentWrite moved =
      store::MakeTestDocument("moved.md", {"first text of 0", "brand new text"}, "v2");
  store::EncodeRows(&moved);
  ASSERT_TRUE(writer_->WriteDocument(moved).ok());
  ASSERT_TRUE(writer_->CommitBatch().ok());
  EmbedStage stage(session(), nullptr, nullptr);
  stage.Start();
  ASSERT_TRUE(stage.Finish().ok());
  EXPECT_EQ(stage.embedded(), 1);
  EXPECT_EQ(TextsWithoutVectors(), 0);
}

TEST_F(EmbedStageTest, CancelStopsBetweenBatchesAndKeepsWhatWasStored) {
  CommitDocuments(0, 20);
  std::atomic<bool> cancel{false};
  EmbedStage stage(
      session(),
      [&](const IngestEvent& e) {
        if (e.kind == IngestEvent::Kind::kEmbedBatchFinished) cancel = true;
      },
      &cancel);
  stage.Start();
  ASSERT_TRUE(stage.Finish().ok());
  EXPECT_EQ(stage.embedded(), kBatch);
  EXPECT_EQ(TextsWithoutVectors(), 40 - kBatch);
}

TEST_F(EmbedStageTest, AModelThatCannotLoadIsTheStagesErrorAndTheDocumentsStay) {
  config_.embedding.model = (dir_ / "missing.gguf").string();
  CommitDocuments(0, 2);
  EmbedStage stage(session(), nullptr, nullptr);
  stage.Start();
  const Status status = stage.Finish();
  EXPECT_EQ(status.code(), ErrorCode::kModelNotPulled) << status.message();
  EXPECT_EQ(stage.embedded(), 0);
  auto docs = writer_->LoadDocStates();
  ASSERT_TRUE(docs.ok());
  EXPECT_EQ(docs->size(), 2u);
}

TEST_F(EmbedStageTest, DestroyingAStartedStageStopsItAndReleasesTheStore) {
  CommitDocuments(0, 2);
  {
    EmbedStage stage(session(), nullptr, nullptr);
    stage.Start();
    stage.NoteCommit();
  }                       // an ingest that fails on the writer side returns without Finish
  CommitDocuments(2, 2);  // no lock left behind
  EmbedStage stage(session(), nullptr, nullptr);
  stage.Start();
  ASSERT_TRUE(stage.Finish().ok());
  EXPECT_EQ(TextsWithoutVectors(), 0);
}

// Decided from the config alone: provider, model (a llama model's file stem) and version must
// match; dimensions and document prefix only where the config fixes them.
TEST(SpaceMatchesConfigTest, SpacesMatchTheConfigWhereItIsSpecific) {
  config::Config config;
  config.embedding.provider = "llama";
  config.embedding.model = "/models/e5.gguf";
  config.embedding.version = "v1";
  EXPECT_TRUE(SpaceMatchesConfig({"llama", "e5", "v1", 384, "passage: "}, config));
  EXPECT_TRUE(SpaceMatchesConfig({"llama", "e5", "v1", 768, ""}, config));
  EXPECT_FALSE(SpaceMatchesConfig({"llama", "e5", "v2", 384, "passage: "}, config));
  EXPECT_FALSE(SpaceMatchesConfig({"ollama", "e5", "v1", 384, "passage: "}, config));
  EXPECT_FALSE(SpaceMatchesConfig({"llama", "bge", "v1", 384, ""}, config));
  config.embedding.dimensions = 384;
  config.embedding.document_prefix = "passage: ";
  EXPECT_TRUE(SpaceMatchesConfig({"llama", "e5", "v1", 384, "passage: "}, config));
  EXPECT_FALSE(SpaceMatchesConfig({"llama", "e5", "v1", 768, "passage: "}, config));
  EXPECT_FALSE(SpaceMatchesConfig({"llama", "e5", "v1", 384, ""}, config));
  config.embedding.provider = "ollama";
  config.embedding.model = "nomic-embed-text";
  EXPECT_TRUE(SpaceMatchesConfig({"ollama", "nomic-embed-text", "v1", 384, "passage: "}, config));
}

}  // namespace
}  // namespace kebab::app
