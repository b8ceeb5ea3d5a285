// Model names and the files in model_dir.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "models/models.h"

namespace kebab::models {
namespace {

namespace fs = std::filesystem;

class ModelFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            ("kebab-models-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "data" / "models");
    config_.config_path = (root_ / "config.toml").string();
    config_.storage.data_dir = (root_ / "data").string();
    config_.storage.model_dir = (root_ / "data" / "models").string();
    config_.storage.sqlite = (root_ / "data" / "kebab.sqlite").string();
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string ModelPath(const std::string& name) const {
    return config_.storage.model_dir + "/" + name;
  }
  void Touch(const std::string& path, size_t bytes) {
    std::ofstream(path, std::ios::binary) << std::string(bytes, 'g');
  }
  void UseLlama(const std::string& model) {
    config_.embedding.provider = "llama";
    config_.embedding.model = model;
  }

  fs::path root_;
  config::Config config_;
};

TEST_F(ModelFilesTest, BareNamesLiveInTheModelDirAndPathsAreExpanded) {
  EXPECT_TRUE(IsBareModelName("multilingual-e5-small"));
  EXPECT_FALSE(IsBareModelName("models/x"));
  EXPECT_FALSE(IsBareModelName("x.gguf"));
  EXPECT_FALSE(IsBareModelName("~/x"));
  EXPECT_EQ(ModelFilePath(config_, "bge-m3"), ModelPath("bge-m3.gguf"));
  EXPECT_EQ(ModelFilePath(config_, "/abs/m.gguf"), "/abs/m.gguf");
  EXPECT_EQ(ModelFilePath(config_, "local.gguf"), (root_ / "local.gguf").string());
}

TEST_F(ModelFilesTest, NamesAreSafeFileStems) {
  EXPECT_TRUE(CheckModelName("qwen2.5-1.5b-instruct").ok());
  EXPECT_TRUE(CheckModelName("My_Model-2").ok());
  for (const char* bad : {"", "../etc", "a/b", ".hidden", "x.gguf", "sp ace", "é"}) {
    const Status st = CheckModelName(bad);
    EXPECT_EQ(st.code(), ErrorCode::kInvalidInput) << bad;
    EXPECT_FALSE(st.hint().empty());
  }
}

TEST_F(ModelFilesTest, PullHintNamesThePullCommand) {
  EXPECT_EQ(PullHint("bge-m3"), "download it: `kebab models pull bge-m3`");
  EXPECT_NE(PullHint("my-own").find("kebab models pull my-own --url URL"), std::string::npos);
}

TEST_F(ModelFilesTest, ListShowsTheCatalogLocalFilesPartialPullsAndTheModelInUse) {
  Touch(ModelPath("bge-m3.gguf"), 1234);
  Touch(ModelPath("multilingual-e5-base.gguf.part"), 99);
  Touch(ModelPath("zeta.gguf"), 10);
  Touch(ModelPath("alpha.gguf"), 20);
  Touch(ModelPath("half.gguf.part"), 5);
  Touch(ModelPath("notes.txt"), 5);
  UseLlama("alpha");
  const ModelListing l = ListModels(config_, {{"HF_ENDPOINT", "http://mirror/"}});
  EXPECT_EQ(l.hub, "http://mirror");
  EXPECT_EQ(l.embedding_path, ModelPath("alpha.gguf"));
  EXPECT_TRUE(l.embedding_present);
  ASSERT_EQ(l.models.size(), Catalog().size() + 3);
  for (size_t i = 0; i < Catalog().size(); ++i) EXPECT_EQ(l.models[i].catalog, &Catalog()[i]);
  const auto find = [&](const std::string& name) {
    return *std::find_if(l.models.begin(), l.models.end(),
                         [&](const ModelEntry& e) { return e.name == name; });
  };
  EXPECT_TRUE(find("bge-m3").present);
  EXPECT_EQ(find("bge-m3").bytes, 1234);
  EXPECT_FALSE(find("multilingual-e5-base").present);
  EXPECT_EQ(find("multilingual-e5-base").partial_bytes, 99);
  // Local files after the catalog, by name.
  EXPECT_EQ(l.models[Catalog().size()].name, "alpha");
  EXPECT_TRUE(l.models[Catalog().size()].in_use);
  EXPECT_EQ(l.models[Catalog().size()].catalog, nullptr);
  EXPECT_EQ(l.models[Catalog().size() + 1].name, "half");
  EXPECT_EQ(l.models[Catalog().size() + 1].partial_bytes, 5);
  EXPECT_EQ(l.models[Catalog().size() + 2].name, "zeta");
  EXPECT_FALSE(l.models[Catalog().size() + 2].in_use);
}

TEST_F(ModelFilesTest, AMissingModelDirListsTheCatalogOnly) {
  config_.storage.model_dir = (root_ / "nowhere").string();
  const ModelListing l = ListModels(config_, {});
  EXPECT_EQ(l.models.size(), Catalog().size());
  EXPECT_TRUE(l.embedding_path.empty());
}

TEST_F(ModelFilesTest, InstalledModelAndRemove) {
  auto missing = InstalledModel(config_, "bge-m3");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kModelNotPulled);
  EXPECT_EQ(missing.status().hint(), PullHint("bge-m3"));

  Touch(ModelPath("bge-m3.gguf"), 100);
  Touch(ModelPath("bge-m3.gguf.part"), 7);
  UseLlama("bge-m3");
  auto found = InstalledModel(config_, "bge-m3");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->path, ModelPath("bge-m3.gguf"));
  EXPECT_TRUE(found->in_use);

  auto removed = RemoveModel(config_, "bge-m3");
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(removed->freed_bytes, 107);
  EXPECT_EQ(removed->removed_paths.size(), 2u);
  EXPECT_TRUE(removed->was_in_use);
  EXPECT_FALSE(fs::exists(ModelPath("bge-m3.gguf")));
  EXPECT_FALSE(fs::exists(ModelPath("bge-m3.gguf.part")));
  EXPECT_EQ(RemoveModel(config_, "bge-m3").status().code(), ErrorCode::kModelNotPulled);
  EXPECT_EQ(RemoveModel(config_, "../x").status().code(), ErrorCode::kInvalidInput);
}

TEST_F(ModelFilesTest, PullChecksItsInputsAndSkipsAPresentFile) {
  PullOptions o;
  o.name = "not-in-catalog";
  auto unknown = PullModel(config_, {}, o);
  EXPECT_EQ(unknown.status().code(), ErrorCode::kInvalidInput);
  EXPECT_NE(unknown.status().hint().find("--url"), std::string::npos);
  o.name = "bge-m3";
  o.sha256 = "abc";
  EXPECT_EQ(PullModel(config_, {}, o).status().code(), ErrorCode::kInvalidInput);
  o.sha256.clear();
  Touch(ModelPath("bge-m3.gguf"), 42);
  // HF_ENDPOINT points nowhere: a present file must not touch the network.
  auto present = PullModel(config_, {{"HF_ENDPOINT", "http://127.0.0.1:1"}}, o);
  ASSERT_TRUE(present.ok()) << present.status().ToString();
  EXPECT_TRUE(present->already_present);
  EXPECT_EQ(present->bytes, 42);
  EXPECT_EQ(present->catalog, FindCatalogModel("bge-m3"));
  EXPECT_EQ(present->url, "http://127.0.0.1:1/rbehzadan/bge-m3-gguf/resolve/main/bge-m3-Q8_0.gguf");
}

}  // namespace
}  // namespace kebab::models
