#include "models/catalog.h"

#include <gtest/gtest.h>

#include <set>

#include "core/sha256.h"
#include "models/models.h"

namespace kebab::models {
namespace {

TEST(CatalogTest, EntriesAreUsableNamesWithPlausibleFacts) {
  std::set<std::string_view> names;
  bool seen_chat = false;
  for (const CatalogModel& m : Catalog()) {
    SCOPED_TRACE(std::string(m.name));
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate name";
    EXPECT_TRUE(CheckModelName(std::string(m.name)).ok());
    EXPECT_EQ(std::count(m.repo.begin(), m.repo.end(), '/'), 1) << m.repo;
    EXPECT_TRUE(m.file.ends_with(".gguf")) << m.file;
    EXPECT_GT(m.approx_bytes, 10'000'000);
    EXPECT_TRUE(m.sha256.empty() || (IsSha256Hex(m.sha256) && Sha256Hex("") != m.sha256));
    for (char c : m.sha256) EXPECT_FALSE(c >= 'A' && c <= 'F') << "pins are lowercase";
    EXPECT_FALSE(m.license.empty());
    EXPECT_GT(m.context_tokens, 0);
    EXPECT_FALSE(m.summary.empty());
    // Embedding models first, so `kebab models list` groups them.
    if (m.kind == ModelKind::kChat) seen_chat = true;
    EXPECT_FALSE(seen_chat && m.kind == ModelKind::kEmbedding);
    EXPECT_EQ(m.dimensions > 0, m.kind == ModelKind::kEmbedding);
  }
  for (const char* required :
       {"multilingual-e5-small", "multilingual-e5-base", "multilingual-e5-large", "bge-m3",
        "nomic-embed-text-v1.5", "qwen2.5-0.5b-instruct", "qwen2.5-1.5b-instruct",
        "qwen2.5-3b-instruct"}) {
    EXPECT_NE(FindCatalogModel(required), nullptr) << required;
  }
  EXPECT_EQ(FindCatalogModel("multilingual-e5"), nullptr);
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
}

}  // namespace
}  // namespace kebab::models
