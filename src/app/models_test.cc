// The models facade: the read-only policy of each call, and gc of embedding spaces.
#include "app/models.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/internal_store.h"
#include "core/hash.h"

namespace kebab::app {
namespace {

namespace fs = std::filesystem;

class ModelsFacadeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            ("kebab-app-models-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "data" / "models");
    config_.config_path = (root_ / "config.toml").string();
    config_.storage.data_dir = (root_ / "data").string();
    config_.storage.model_dir = (root_ / "data" / "models").string();
    config_.storage.sqlite = (root_ / "data" / "kebab.sqlite").string();
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string ModelFile(const std::string& name) const {
    return config_.storage.model_dir + "/" + name;
  }
  void UseLlama(const std::string& model) {
    config_.embedding.provider = "llama";
    config_.embedding.model = model;
  }
  int64_t AddSpace(store::Store& s, const store::SpaceKey& key, int vectors) {
    auto id = s.EnsureSpace(key);
    EXPECT_TRUE(id.ok());
    std::vector<std::string> hashes;
    std::vector<std::vector<float>> values;
    for (int i = 0; i < vectors; ++i) {
      hashes.push_back(Blake3Key16(key.model + std::to_string(i)));
      values.push_back(std::vector<float>(static_cast<size_t>(key.dimensions), 0.5f));
    }
    EXPECT_TRUE(s.PutVectors(*id, hashes, values).ok());
    return *id;
  }

  fs::path root_;
  config::Config config_;
};

TEST_F(ModelsFacadeTest, AReadOnlySessionListsButChangesNothing) {
  std::ofstream(ModelFile("bge-m3.gguf")) << "gguf";
  UseLlama("bge-m3");
  {
    auto s = OpenStore(config_, /*readonly=*/false);
    ASSERT_TRUE(s.ok());
    AddSpace(**s, {"llama", "old-model", "v1", 4, ""}, 3);
  }
  Session session(config_, {.readonly = true});

  models::PullOptions pull;
  pull.name = "bge-m3";
  pull.force = true;
  // HF_ENDPOINT points nowhere: a refusal must come before any network access.
  const Status pulled = PullModel(session, {{"HF_ENDPOINT", "http://127.0.0.1:1"}}, pull).status();
  EXPECT_EQ(pulled.code(), ErrorCode::kReadonlyMode);
  EXPECT_NE(pulled.message().find("kebab models pull"), std::string::npos);
  EXPECT_EQ(RemoveModel(session, "bge-m3").status().code(), ErrorCode::kReadonlyMode);
  EXPECT_TRUE(fs::exists(ModelFile("bge-m3.gguf")));
  EXPECT_EQ(GcSpaces(session, /*dry_run=*/false).status().code(), ErrorCode::kReadonlyMode);

  // Reading is allowed: the listing, a path, and gc's dry run.
  EXPECT_TRUE(ListModels(session, {}).models.front().catalog != nullptr);
  auto path = ModelPath(session, {{"HF_ENDPOINT", "http://mirror"}}, "bge-m3");
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_EQ(path->model.path, ModelFile("bge-m3.gguf"));
  EXPECT_TRUE(path->model.in_use);
  EXPECT_EQ(path->hub, "http://mirror");
  auto dry = GcSpaces(session, /*dry_run=*/true);
  ASSERT_TRUE(dry.ok()) << dry.status().ToString();
  EXPECT_EQ(dry->removed.size(), 1u);
  EXPECT_EQ(dry->vectors_removed, 3);
  auto s = OpenStore(config_, /*readonly=*/true);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->ListSpaces()->size(), 1u);  // still there
}

TEST_F(ModelsFacadeTest, PathAndRemoveOfAModelNotPulled) {
  Session session(config_);
  EXPECT_EQ(ModelPath(session, {}, "bge-m3").status().code(), ErrorCode::kModelNotPulled);
  EXPECT_EQ(ModelPath(session, {}, "../x").status().code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(RemoveModel(session, "bge-m3").status().code(), ErrorCode::kModelNotPulled);
}

TEST_F(ModelsFacadeTest, GcRemovesOnlyTheSpacesTheConfigDoesNotUse) {
  {
    auto s = OpenStore(config_, /*readonly=*/false);
    ASSERT_TRUE(s.ok());
    AddSpace(**s, {"llama", "old-model", "v1", 4, ""}, 3);
    AddSpace(**s, {"llama", "current", "v1", 4, ""}, 2);
    AddSpace(**s, {"llama", "current", "v0", 4, ""}, 5);
  }
  UseLlama("current");
  Session session(config_);
  auto dry = GcSpaces(session, /*dry_run=*/true);
  ASSERT_TRUE(dry.ok()) << dry.status().ToString();
  EXPECT_TRUE(dry->dry_run);
  EXPECT_EQ(dry->removed.size(), 2u);
  EXPECT_EQ(dry->vectors_removed, 8);
  ASSERT_EQ(dry->kept.size(), 1u);
  EXPECT_EQ(dry->kept[0].key.model, "current");

  auto done = GcSpaces(session, /*dry_run=*/false);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(done->vectors_removed, 8);
  auto s = OpenStore(config_, /*readonly=*/false);
  ASSERT_TRUE(s.ok());
  auto spaces = (*s)->ListSpaces();
  ASSERT_TRUE(spaces.ok());
  ASSERT_EQ(spaces->size(), 1u);
  EXPECT_EQ((*spaces)[0].key.model, "current");
  EXPECT_EQ((*spaces)[0].vector_count, 2);
  // Idempotent.
  auto again = GcSpaces(session, false);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->removed.empty());
}

// What gc relies on for a session's cached vector index: it is keyed by the corpus revision.
TEST_F(ModelsFacadeTest, DeleteSpaceBumpsTheCorpusRevisionOnlyWhenSomethingWent) {
  auto s = OpenStore(config_, /*readonly=*/false);
  ASSERT_TRUE(s.ok());
  const int64_t id = AddSpace(**s, {"llama", "m", "v1", 4, ""}, 3);
  const int64_t before = *(*s)->CorpusRevision();
  auto removed = (*s)->DeleteSpace(id);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 3);
  EXPECT_GT(*(*s)->CorpusRevision(), before);
  const int64_t after = *(*s)->CorpusRevision();
  EXPECT_EQ(*(*s)->DeleteSpace(id), 0);
  EXPECT_EQ(*(*s)->CorpusRevision(), after);
}

TEST_F(ModelsFacadeTest, GcWithoutAModelOrAnIndex) {
  {
    Session unconfigured(config_);
    EXPECT_EQ(GcSpaces(unconfigured, false).status().code(), ErrorCode::kInvalidInput);
  }
  UseLlama("current");
  Session session(config_);
  auto empty = GcSpaces(session, false);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->kept.empty() && empty->removed.empty());
  EXPECT_FALSE(fs::exists(config_.storage.sqlite));
}

}  // namespace
}  // namespace kebab::app
