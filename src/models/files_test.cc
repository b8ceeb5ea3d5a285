// Model names and the files in model_dir.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
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

TEST_F(ModelFilesTest, SpeechModelNamesAreBinFilesInTheModelDir) {
  EXPECT_EQ(SpeechModelFilePath(config_, "whisper-base"), ModelPath("whisper-base.bin"));
  EXPECT_EQ(SpeechModelFilePath(config_, "my-whisper"), ModelPath("my-whisper.bin"));
  // A ".gguf" suffix is nothing special here: still a NAME.
  EXPECT_EQ(SpeechModelFilePath(config_, "odd.gguf"), ModelPath("odd.gguf.bin"));
  EXPECT_EQ(SpeechModelFilePath(config_, "/abs/ggml-base.bin"), "/abs/ggml-base.bin");
  EXPECT_EQ(SpeechModelFilePath(config_, "ggml-small.bin"), (root_ / "ggml-small.bin").string());
  EXPECT_EQ(SpeechModelFilePath(config_, "models/ggml-small"),
            (root_ / "models/ggml-small").string());
  const std::string home = std::getenv("HOME") != nullptr ? std::getenv("HOME") : "";
  if (!home.empty()) {
    EXPECT_EQ(SpeechModelFilePath(config_, "~/w/ggml-base.bin"), home + "/w/ggml-base.bin");
  }
  EXPECT_EQ(ModelDirFile(config_, "x", ModelKind::kSpeech), ModelPath("x.bin"));
  EXPECT_EQ(ModelDirFile(config_, "x", ModelKind::kChat), ModelPath("x.gguf"));
}

TEST_F(ModelFilesTest, NamesAreSafeFileStems) {
  EXPECT_TRUE(CheckModelName("qwen2.5-1.5b-instruct").ok());
  EXPECT_TRUE(CheckModelName("My_Model-2").ok());
  for (const char* bad : {"", "../etc", "a/b", ".hidden", "x.gguf", "x.bin", "sp ace", "é"}) {
    const Status st = CheckModelName(bad);
    EXPECT_EQ(st.code(), ErrorCode::kInvalidInput) << bad;
    EXPECT_FALSE(st.hint().empty());
  }
}

TEST_F(ModelFilesTest, PullHintNamesThePullCommand) {
  EXPECT_EQ(PullHint("bge-m3"), "download it: `kebab models pull bge-m3`");
  EXPECT_NE(PullHint("my-own").find("kebab models pull my-own --url URL"), std::string::npos);
  EXPECT_EQ(PullHint("whisper-base", ModelKind::kSpeech),
            "download it: `kebab models pull whisper-base`");
  const std::string speech = PullHint("my-whisper", ModelKind::kSpeech);
  EXPECT_NE(speech.find("kebab models pull my-whisper --url URL --kind speech"), std::string::npos);
  EXPECT_NE(speech.find("ingest.audio.whisper_model"), std::string::npos);
}

TEST_F(ModelFilesTest, ListShowsSpeechModelsAsBinFilesAfterTheGgufs) {
  Touch(ModelPath("whisper-base.bin"), 300);
  Touch(ModelPath("whisper-small.bin.part"), 30);
  Touch(ModelPath("whisper-base.gguf"), 1);  // a catalog name with the wrong suffix: not listed
  Touch(ModelPath("my-whisper.bin"), 40);
  Touch(ModelPath("cut.bin.part"), 4);
  Touch(ModelPath("zeta.gguf"), 10);
  const ModelListing l = ListModels(config_, {});
  const auto find = [&](const std::string& name) {
    return *std::find_if(l.models.begin(), l.models.end(),
                         [&](const ModelEntry& e) { return e.name == name; });
  };
  const ModelEntry base = find("whisper-base");
  EXPECT_EQ(base.kind, ModelKind::kSpeech);
  EXPECT_EQ(base.path, ModelPath("whisper-base.bin"));
  EXPECT_TRUE(base.present);
  EXPECT_EQ(base.bytes, 300);
  EXPECT_EQ(find("whisper-small").partial_bytes, 30);
  EXPECT_FALSE(find("whisper-small").present);
  EXPECT_FALSE(find("whisper-large-v3-turbo").present);
  // Other files: GGUFs by name, then speech models by name.
  ASSERT_EQ(l.models.size(), Catalog().size() + 3);
  const ModelEntry& zeta = l.models[Catalog().size()];
  const ModelEntry& cut = l.models[Catalog().size() + 1];
  const ModelEntry& mine = l.models[Catalog().size() + 2];
  EXPECT_EQ(zeta.name, "zeta");
  EXPECT_EQ(zeta.kind, std::nullopt);
  EXPECT_EQ(cut.name, "cut");
  EXPECT_EQ(cut.kind, ModelKind::kSpeech);
  EXPECT_EQ(cut.partial_bytes, 4);
  EXPECT_EQ(mine.name, "my-whisper");
  EXPECT_EQ(mine.kind, ModelKind::kSpeech);
  EXPECT_EQ(mine.path, ModelPath("my-whisper.bin"));
  EXPECT_TRUE(mine.present);
  EXPECT_EQ(mine.catalog, nullptr);
}

TEST_F(ModelFilesTest, SpeechModelsAreFoundAndRemovedAsBinFiles) {
  auto missing = InstalledModel(config_, "whisper-base");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kModelNotPulled);
  EXPECT_NE(missing.status().message().find("whisper-base.bin"), std::string::npos);

  Touch(ModelPath("whisper-base.bin"), 100);
  Touch(ModelPath("whisper-base.bin.part"), 5);
  auto found = InstalledModel(config_, "whisper-base");
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(found->path, ModelPath("whisper-base.bin"));
  EXPECT_EQ(found->kind, ModelKind::kSpeech);
  auto removed = RemoveModel(config_, "whisper-base");
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(removed->removed_paths, (std::vector<std::string>{ModelPath("whisper-base.bin"),
                                                              ModelPath("whisper-base.bin.part")}));
  EXPECT_EQ(removed->freed_bytes, 105);
  EXPECT_FALSE(fs::exists(ModelPath("whisper-base.bin")));

  // A name the catalog does not know: its .bin when there is no .gguf of that name.
  Touch(ModelPath("mine.bin"), 9);
  auto mine = InstalledModel(config_, "mine");
  ASSERT_TRUE(mine.ok()) << mine.status().ToString();
  EXPECT_EQ(mine->path, ModelPath("mine.bin"));
  EXPECT_EQ(mine->kind, ModelKind::kSpeech);
  Touch(ModelPath("mine.gguf"), 8);
  EXPECT_EQ(InstalledModel(config_, "mine")->path, ModelPath("mine.gguf"));
  EXPECT_EQ(RemoveModel(config_, "mine")->removed_paths,
            std::vector<std::string>{ModelPath("mine.gguf")});
  EXPECT_EQ(RemoveModel(config_, "mine")->removed_paths,
            std::vector<std::string>{ModelPath("mine.bin")});
  EXPECT_EQ(RemoveModel(config_, "mine").status().code(), ErrorCode::kModelNotPulled);
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

TEST_F(ModelFilesTest, PullOfASpeechModelIsABinFile) {
  PullOptions o;
  o.name = "whisper-base";
  Touch(ModelPath("whisper-base.bin"), 42);
  // HF_ENDPOINT points nowhere: a present file must not touch the network.
  auto present = PullModel(config_, {{"HF_ENDPOINT", "http://127.0.0.1:1"}}, o);
  ASSERT_TRUE(present.ok()) << present.status().ToString();
  EXPECT_TRUE(present->already_present);
  EXPECT_EQ(present->path, ModelPath("whisper-base.bin"));
  EXPECT_EQ(present->kind, ModelKind::kSpeech);
  EXPECT_EQ(present->bytes, 42);
  EXPECT_EQ(present->url, "http://127.0.0.1:1/ggerganov/whisper.cpp/resolve/main/ggml-base.bin");

  // --kind must fit a catalog name ...
  o.kind = ModelKind::kEmbedding;
  auto wrong = PullModel(config_, {}, o);
  EXPECT_EQ(wrong.status().code(), ErrorCode::kInvalidInput);
  EXPECT_NE(wrong.status().message().find("speech"), std::string::npos);
  // ... and makes another name a .bin (a GGUF without it).
  Touch(ModelPath("mine.bin"), 7);
  o.name = "mine";
  o.url = "http://127.0.0.1:1/mine.bin";
  o.kind = ModelKind::kSpeech;
  auto mine = PullModel(config_, {}, o);
  ASSERT_TRUE(mine.ok()) << mine.status().ToString();
  EXPECT_TRUE(mine->already_present);
  EXPECT_EQ(mine->path, ModelPath("mine.bin"));
  EXPECT_EQ(mine->catalog, nullptr);
  o.kind.reset();
  Touch(ModelPath("mine.gguf"), 8);
  auto gguf = PullModel(config_, {}, o);
  ASSERT_TRUE(gguf.ok()) << gguf.status().ToString();
  EXPECT_EQ(gguf->path, ModelPath("mine.gguf"));
  EXPECT_EQ(gguf->bytes, 8);
}

}  // namespace
}  // namespace kebab::models
