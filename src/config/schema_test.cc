#include "config/schema.h"

#include <gtest/gtest.h>

#include <set>

#include "config/env_overrides.h"

namespace kebab::config::internal {
namespace {

TEST(SchemaTest, EveryKeyHasItsOwnField) {
  Config config;
  std::set<const void*> addresses;
  const auto* begin = reinterpret_cast<const char*>(&config);
  for (const KeySpec& key : Keys()) {
    const void* address = std::visit([](auto* p) -> const void* { return p; }, key.field(config));
    const auto* byte = static_cast<const char*>(address);
    EXPECT_TRUE(byte >= begin && byte < begin + sizeof(Config)) << QualifiedName(key);
    EXPECT_TRUE(addresses.insert(address).second) << QualifiedName(key) << " shares a field";
  }
  // workspace 2, storage 9, ingest 5 (with [ingest.pdf]), ingest.code 3, ingest.audio 7, ingest.ocr
  // 7, ingest.pdf.ocr 2, ingest.image.caption 7, chunking 5, embedding 10, llm 10, search 5,
  // watch 4, index 5, rag 9.
  EXPECT_EQ(Keys().size(), 91u);
}

TEST(SchemaTest, SectionsAndKeysAgree) {
  for (const KeySpec& key : Keys()) {
    EXPECT_TRUE(IsSection(key.section)) << QualifiedName(key);
    EXPECT_FALSE(key.doc.empty()) << QualifiedName(key);
    EXPECT_EQ(FindKey(key.section, key.name), &key);
  }
  for (const SectionSpec& section : Sections()) {
    EXPECT_FALSE(ValidKeysOf(section.name).empty()) << section.name;
    EXPECT_FALSE(section.doc.empty()) << section.name;
  }
  EXPECT_EQ(FindKey("search", "defualt_k"), nullptr);
  EXPECT_EQ(ValidKeysOf("search"), "default_k, hybrid_fusion, rrf_k, snippet_chars, stemmer");
  EXPECT_EQ(ValidKeysOf("indexing"), ValidKeysOf("ingest"));
}

TEST(SchemaTest, EnvVarNames) {
  EXPECT_EQ(EnvVarName("workspace", "root"), "KEBAB_WORKSPACE_ROOT");
  EXPECT_EQ(EnvVarName("models.llm", "request_timeout_secs"),
            "KEBAB_MODELS_LLM_REQUEST_TIMEOUT_SECS");
  EXPECT_EQ(EnvVarName("models.embedding", "provider"), "KEBAB_MODELS_EMBEDDING_PROVIDER");
}

// A value for `field` that differs from every default, so an override is visible.
std::string NonDefaultValue(const FieldRef& field) {
  struct Visitor {
    std::string operator()(std::string*) const { return "/x-test"; }
    std::string operator()(std::vector<std::string>*) const { return "a,b"; }
    std::string operator()(int* v) const { return std::to_string(*v + 1); }
    std::string operator()(long long* v) const { return std::to_string(*v + 1); }
    std::string operator()(bool* v) const { return *v ? "false" : "true"; }
    std::string operator()(double*) const { return "0.75"; }
    std::string operator()(OcrPageSegmentation*) const { return "6"; }  // the default is auto
  };
  return std::visit(Visitor{}, field);
}

TEST(SchemaTest, EveryKeyHasAnEnvOverrideThatTouchesOnlyIt) {
  const Config defaults = RawDefaultConfig();
  for (const KeySpec& key : Keys()) {
    Config config = defaults;
    Environment env = {{EnvVarName(key.section, key.name), NonDefaultValue(key.field(config))}};
    PathBases bases;
    ASSERT_TRUE(ApplyEnvOverrides(env, "/cwd", &config, &bases).ok()) << QualifiedName(key);
    int changed = 0;
    Config before = defaults;
    for (const KeySpec& other : Keys()) {
      const bool same = std::visit(
          [](auto* a, auto* b) -> bool {
            if constexpr (std::is_same_v<decltype(a), decltype(b)>) {
              return *a == *b;
            } else {
              return false;
            }
          },
          other.field(before), other.field(config));
      if (!same) {
        ++changed;
        EXPECT_EQ(&other, &key) << "setting " << QualifiedName(key) << " changed "
                                << QualifiedName(other);
      }
    }
    EXPECT_EQ(changed, 1) << QualifiedName(key);
    EXPECT_EQ(bases.count(QualifiedName(key)), key.is_path ? 1u : 0u) << QualifiedName(key);
  }
}

}  // namespace
}  // namespace kebab::config::internal
