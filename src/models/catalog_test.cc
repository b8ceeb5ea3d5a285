#include "models/catalog.h"

#include <gtest/gtest.h>

#include <set>

#include "core/sha1.h"
#include "core/sha256.h"
#include "models/models.h"

namespace kebab::models {
namespace {

TEST(CatalogTest, EntriesAreUsableNamesWithPlausibleFacts) {
  std::set<std::string_view> names;
  int previous_kind = 0;
  for (const CatalogModel& m : Catalog()) {
    SCOPED_TRACE(std::string(m.name));
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate name";
    EXPECT_TRUE(CheckModelName(std::string(m.name)).ok());
    EXPECT_EQ(std::count(m.repo.begin(), m.repo.end(), '/'), 1) << m.repo;
    EXPECT_TRUE(m.file.ends_with(ModelFileSuffix(m.kind))) << m.file;
    EXPECT_GT(m.approx_bytes, 10'000'000);
    EXPECT_TRUE(m.sha256.empty() || (IsSha256Hex(m.sha256) && Sha256Hex("") != m.sha256));
    EXPECT_TRUE(m.sha1.empty() || (IsSha1Hex(m.sha1) && Sha1Hex("") != m.sha1));
    for (char c : std::string(m.sha256) + std::string(m.sha1)) {
      EXPECT_FALSE(c >= 'A' && c <= 'F') << "pins are lowercase";
    }
    EXPECT_FALSE(m.license.empty());
    EXPECT_GT(m.context_tokens, 0);
    EXPECT_FALSE(m.summary.empty());
    // Embedding, then chat, then speech models, so `kebab models list` groups them.
    EXPECT_GE(static_cast<int>(m.kind), previous_kind);
    previous_kind = static_cast<int>(m.kind);
    EXPECT_EQ(m.dimensions > 0, m.kind == ModelKind::kEmbedding);
  }
  for (const char* required :
       {"multilingual-e5-small", "multilingual-e5-base", "multilingual-e5-large", "bge-m3",
        "nomic-embed-text-v1.5", "qwen2.5-0.5b-instruct", "qwen2.5-1.5b-instruct",
        "qwen2.5-3b-instruct", "whisper-base", "whisper-small", "whisper-large-v3-turbo"}) {
    EXPECT_NE(FindCatalogModel(required), nullptr) << required;
  }
  EXPECT_EQ(FindCatalogModel("multilingual-e5"), nullptr);
}

// whisper.cpp's ggml files, pinned to the SHA-1s of whisper.cpp 1.9.1's models/README.md.
TEST(CatalogTest, SpeechModelsAreWhisperCppFilesWithTheirPublishedSha1) {
  struct Expected {
    const char *name, *file, *sha1;
  };
  for (const Expected& x : {
           Expected{"whisper-base", "ggml-base.bin", "465707469ff3a37a2b9b8d8f89f2f99de7299dac"},
           Expected{"whisper-small", "ggml-small.bin", "55356645c2b361a969dfd0ef2c5a50d530afd8d5"},
           Expected{"whisper-large-v3-turbo", "ggml-large-v3-turbo.bin",
                    "4af2b29d7ec73d781377bfd1758ca957a807e941"},
       }) {
    SCOPED_TRACE(x.name);
    const CatalogModel* m = FindCatalogModel(x.name);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->kind, ModelKind::kSpeech);
    EXPECT_EQ(m->repo, "ggerganov/whisper.cpp");
    EXPECT_EQ(m->file, x.file);
    EXPECT_EQ(m->sha1, x.sha1);
    EXPECT_EQ(m->license, "MIT");
    EXPECT_EQ(m->dimensions, 0);
    EXPECT_EQ(m->context_tokens, 448);
  }
  const CatalogModel* base = FindCatalogModel("whisper-base");
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(DownloadUrl(*base, HubEndpoint({})),
            "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-base.bin");
  EXPECT_EQ(ModelFileSuffix(ModelKind::kSpeech), ".bin");
  EXPECT_EQ(ModelFileSuffix(ModelKind::kEmbedding), ".gguf");
  EXPECT_EQ(ModelFileSuffix(ModelKind::kChat), ".gguf");
}

TEST(CatalogTest, UrlsFollowTheHubLayoutAndHfEndpoint) {
  const CatalogModel* m = FindCatalogModel("qwen2.5-1.5b-instruct");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(DownloadUrl(*m, HubEndpoint({})),
            "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/"
            "qwen2.5-1.5b-instruct-q4_k_m.gguf");
  EXPECT_EQ(HubEndpoint({{"HF_ENDPOINT", "http://127.0.0.1:8080/"}}), "http://127.0.0.1:8080");
  EXPECT_EQ(HubEndpoint({{"HF_ENDPOINT", ""}}), "https://huggingface.co");
  EXPECT_EQ(ModelKindName(ModelKind::kEmbedding), "embedding");
  EXPECT_EQ(ModelKindName(ModelKind::kChat), "chat");
  EXPECT_EQ(ModelKindName(ModelKind::kSpeech), "speech");
  for (ModelKind kind : {ModelKind::kEmbedding, ModelKind::kChat, ModelKind::kSpeech}) {
    EXPECT_EQ(ParseModelKind(ModelKindName(kind)), kind);
  }
  EXPECT_EQ(ParseModelKind("whisper"), std::nullopt);
}

}  // namespace
}  // namespace kebab::models
