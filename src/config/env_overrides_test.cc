#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "config/config.h"
#include "config/test_util.h"

namespace kebab::config {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class EnvOverridesTest : public ::testing::Test {
 protected:
  Result<Config> Load(Environment extra, const std::string& toml = "") {
    Environment env = {{"HOME", "/home/u"}, {"XDG_CONFIG_HOME", dir_.path() + "/xdg"}};
    env.merge(extra);
    LoadOptions options{.explicit_path = {}, .env = env};
    if (!toml.empty()) options.explicit_path = dir_.Write("config.toml", toml);
    return LoadConfig(options);
  }

  Status LoadError(Environment extra) {
    Result<Config> r = Load(std::move(extra));
    EXPECT_FALSE(r.ok());
    return r.status();
  }

  testing::TempDir dir_;
};

TEST_F(EnvOverridesTest, ScalarsOverrideDefaults) {
  Result<Config> r = Load({{"KEBAB_WORKSPACE_ROOT", "/env/kb"},
                           {"KEBAB_SEARCH_DEFAULT_K", "25"},
                           {"KEBAB_MODELS_EMBEDDING_PROVIDER", "ollama"},
                           {"KEBAB_MODELS_LLM_REQUEST_TIMEOUT_SECS", " 60 "},
                           {"KEBAB_INGEST_MAX_FILE_BYTES", "4096"},
                           {"KEBAB_SEARCH_STEMMER", "french"},
                           {"KEBAB_CHUNKING_TARGET_TOKENS", "+300"},
                           {"KEBAB_MODELS_LLM_SEED", "-7"},
                           {"KEBAB_MODELS_LLM_TEMPERATURE", "0.5"},
                           {"KEBAB_RAG_SCORE_GATE", "1e-1"},
                           {"KEBAB_MODELS_EMBEDDING_ENDPOINT", ""}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->loaded_from_file);
  EXPECT_EQ(r->workspace.root, "/env/kb");
  EXPECT_EQ(r->search.default_k, 25);
  EXPECT_EQ(r->embedding.provider, "ollama");
  EXPECT_EQ(r->llm.request_timeout_secs, 60);
  EXPECT_EQ(r->ingest.max_file_bytes, 4096);
  EXPECT_EQ(r->search.stemmer, "french");
  EXPECT_EQ(r->chunking.target_tokens, 300);
  EXPECT_EQ(r->llm.seed, -7);
  EXPECT_DOUBLE_EQ(r->llm.temperature, 0.5);
  EXPECT_DOUBLE_EQ(r->rag.score_gate, 0.1);
  EXPECT_EQ(r->embedding.endpoint, "");
}

TEST_F(EnvOverridesTest, EnvironmentBeatsFile) {
  Result<Config> r =
      Load({{"KEBAB_SEARCH_DEFAULT_K", "9"}}, "[search]\ndefault_k = 5\nrrf_k = 40\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->loaded_from_file);
  EXPECT_EQ(r->search.default_k, 9);
  EXPECT_EQ(r->search.rrf_k, 40);
}

TEST_F(EnvOverridesTest, ListsAreCommaSeparated) {
  Result<Config> r = Load({{"KEBAB_WORKSPACE_EXCLUDE", "drafts/**, *.tmp ,,archive/**"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->workspace.exclude, (std::vector<std::string>{"drafts/**", "*.tmp", "archive/**"}));

  r = Load({{"KEBAB_WORKSPACE_EXCLUDE", ""}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->workspace.exclude.empty());
}

TEST_F(EnvOverridesTest, BooleanSpellings) {
  for (const char* yes : {"1", "true", "TRUE", "yes", "On"}) {
    Result<Config> r = Load(
        {{"KEBAB_INGEST_FOLLOW_SYMLINKS", "0"}, {"KEBAB_CHUNKING_RESPECT_MARKDOWN_HEADINGS", yes}});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE(r->chunking.respect_markdown_headings) << yes;
  }
  for (const char* no : {"0", "false", "No", "off"}) {
    Result<Config> r = Load({{"KEBAB_INGEST_SKIP_GENERATED", no}});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_FALSE(r->ingest.skip_generated) << no;
  }
}

TEST_F(EnvOverridesTest, UnparsableValuesNameTheVariable) {
  Status s = LoadError({{"KEBAB_SEARCH_DEFAULT_K", "ten"}});
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), AllOf(HasSubstr("KEBAB_SEARCH_DEFAULT_K"), HasSubstr("\"ten\""),
                                 HasSubstr("an integer"), HasSubstr("search.default_k")));
  EXPECT_THAT(s.hint(), HasSubstr("KEBAB_SEARCH_DEFAULT_K"));

  for (const char* bad : {"12abc", "", "99999999999", "1.5"}) {
    s = LoadError({{"KEBAB_CHUNKING_TARGET_TOKENS", bad}});
    EXPECT_THAT(s.message(), HasSubstr("KEBAB_CHUNKING_TARGET_TOKENS")) << bad;
  }
  s = LoadError({{"KEBAB_INGEST_FOLLOW_SYMLINKS", "maybe"}});
  EXPECT_THAT(s.message(), AllOf(HasSubstr("KEBAB_INGEST_FOLLOW_SYMLINKS"), HasSubstr("boolean")));
  s = LoadError({{"KEBAB_RAG_SCORE_GATE", "inf"}});
  EXPECT_THAT(s.message(), HasSubstr("KEBAB_RAG_SCORE_GATE"));
  s = LoadError({{"KEBAB_STORAGE_DATA_DIR", ""}});
  EXPECT_THAT(s.message(), AllOf(HasSubstr("KEBAB_STORAGE_DATA_DIR"), HasSubstr("empty")));
}

TEST_F(EnvOverridesTest, PageSegmentationModeIsAutoOrANumber) {
  const std::string var = "KEBAB_INGEST_OCR_PAGE_SEGMENTATION_MODE";
  Result<Config> r = Load({{var, " 4 "}}, "[ingest.ocr]\npage_segmentation_mode = \"auto\"\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.ocr_page_segmentation_mode,
            (OcrPageSegmentation{OcrPageSegmentation::Kind::kFixed, 4}));
  r = Load({{var, "auto"}}, "[ingest.ocr]\npage_segmentation_mode = 6\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.ocr_page_segmentation_mode.kind, OcrPageSegmentation::Kind::kAuto);
  Status s = LoadError({{var, "single block"}});
  EXPECT_THAT(s.message(), AllOf(HasSubstr(var), HasSubstr("\"auto\" or an integer")));
}

TEST_F(EnvOverridesTest, ParsedButInvalidValuesFailValidation) {
  Status s = LoadError({{"KEBAB_SEARCH_DEFAULT_K", "0"}});
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), HasSubstr("search.default_k = 0"));
}

TEST_F(EnvOverridesTest, DataDirOverrideChainsIntoStoragePaths) {
  Result<Config> r =
      Load({{"KEBAB_STORAGE_DATA_DIR", "/env/data"}}, "[storage]\ndata_dir = \"/file/data\"\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->storage.data_dir, "/env/data");
  EXPECT_EQ(r->storage.sqlite, "/env/data/kebab.sqlite");
  EXPECT_EQ(r->storage.asset_dir, "/env/data/assets");
}

TEST_F(EnvOverridesTest, PathsAreExpandedAndRelativeOnesResolveAgainstCwd) {
  Result<Config> r = Load({{"KEBAB_WORKSPACE_ROOT", "rel/notes"},
                           {"KEBAB_STORAGE_CACHE_DIR", "~/c"},
                           {"KEBAB_STORAGE_RUNS_DIR", "{data_dir}/r"}},
                          "[workspace]\nroot = \"file-notes\"\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->workspace.root, (std::filesystem::current_path() / "rel/notes").string());
  EXPECT_EQ(r->storage.cache_dir, "/home/u/c");
  EXPECT_EQ(r->storage.runs_dir, "/home/u/.local/share/kebab/r");
}

TEST_F(EnvOverridesTest, OtherKebabVariablesAreIgnored) {
  Result<Config> r = Load({{"KEBAB_READONLY", "1"},
                           {"KEBAB_PROGRESS", "plain"},
                           {"KEBAB_EVAL_GOLDEN", "x.yaml"},
                           {"KEBAB_SEARCH", "x"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->search.default_k, 10);
}

TEST_F(EnvOverridesTest, LegacyIndexingSpelling) {
  Result<Config> r = Load({{"KEBAB_INDEXING_MAX_PARALLEL_EXTRACTORS", "3"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.max_parallel_extractors, 3);

  r = Load({{"KEBAB_INDEXING_MAX_PARALLEL_EXTRACTORS", "3"},
            {"KEBAB_INGEST_MAX_PARALLEL_EXTRACTORS", "5"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.max_parallel_extractors, 5);
}

TEST(ProcessEnvironmentTest, CopiesEnviron) {
  ASSERT_EQ(setenv("KEBAB_CONFIG_TEST_VAR", "a=b", 1), 0);
  Environment env = ProcessEnvironment();
  EXPECT_EQ(env["KEBAB_CONFIG_TEST_VAR"], "a=b");
  unsetenv("KEBAB_CONFIG_TEST_VAR");
}

}  // namespace
}  // namespace kebab::config
