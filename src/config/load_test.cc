#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "config/config.h"
#include "config/test_util.h"

namespace kebab::config {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class LoadConfigTest : public ::testing::Test {
 protected:
  // HOME=/home/u, and XDG_CONFIG_HOME pointing into the temp dir so no real user file is read.
  Environment Env() const {
    return {{"HOME", "/home/u"}, {"XDG_CONFIG_HOME", dir_.path() + "/xdg-config"}};
  }

  Result<Config> LoadFile(const std::string& toml, Environment env = {}) {
    if (env.empty()) env = Env();
    return LoadConfig({.explicit_path = dir_.Write("cfg/config.toml", toml), .env = env});
  }

  Status LoadError(const std::string& toml) {
    Result<Config> r = LoadFile(toml);
    EXPECT_FALSE(r.ok());
    return r.status();
  }

  std::string ConfigPath() const { return dir_.path() + "/cfg/config.toml"; }

  testing::TempDir dir_;
};

TEST_F(LoadConfigTest, DefaultsWithOnlyHome) {
  Result<Config> r = LoadConfig({.explicit_path = {}, .env = {{"HOME", "/home/u"}}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Config& c = *r;
  EXPECT_EQ(c.config_path, "/home/u/.config/kebab/config.toml");
  EXPECT_FALSE(c.loaded_from_file);
  EXPECT_EQ(c.workspace.root, "/home/u/KnowledgeBase");
  EXPECT_EQ(c.workspace.exclude, (std::vector<std::string>{".git/**", ".obsidian/**"}));
  EXPECT_EQ(c.storage.data_dir, "/home/u/.local/share/kebab");
  EXPECT_EQ(c.storage.sqlite, "/home/u/.local/share/kebab/kebab.sqlite");
  EXPECT_EQ(c.storage.asset_dir, "/home/u/.local/share/kebab/assets");
  EXPECT_EQ(c.storage.artifact_dir, "/home/u/.local/share/kebab/artifacts");
  EXPECT_EQ(c.storage.model_dir, "/home/u/.local/share/kebab/models");
  EXPECT_EQ(c.storage.runs_dir, "/home/u/.local/share/kebab/runs");
  EXPECT_EQ(c.storage.cache_dir, "/home/u/.cache/kebab");
  EXPECT_EQ(c.storage.state_dir, "/home/u/.local/state/kebab");

  // Everything that is not a path keeps the defaults declared in config.h.
  Config expected;
  expected.config_path = c.config_path;
  expected.workspace = c.workspace;
  expected.storage = c.storage;
  EXPECT_EQ(c, expected);
  EXPECT_EQ(c.search.stemmer, "english");
  EXPECT_EQ(c.chunking.chunker_version, "md-heading-v2");
}

TEST_F(LoadConfigTest, XdgVariablesAreHonoured) {
  Result<Config> r = LoadConfig({.explicit_path = {},
                                 .env = {{"HOME", "/home/u"},
                                         {"XDG_CONFIG_HOME", "/xdg/config"},
                                         {"XDG_DATA_HOME", "/xdg/data"},
                                         {"XDG_CACHE_HOME", "/xdg/cache"},
                                         {"XDG_STATE_HOME", "/xdg/state"}}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->config_path, "/xdg/config/kebab/config.toml");
  EXPECT_EQ(r->storage.data_dir, "/xdg/data/kebab");
  EXPECT_EQ(r->storage.sqlite, "/xdg/data/kebab/kebab.sqlite");
  EXPECT_EQ(r->storage.cache_dir, "/xdg/cache/kebab");
  EXPECT_EQ(r->storage.state_dir, "/xdg/state/kebab");
  EXPECT_EQ(r->workspace.root, "/home/u/KnowledgeBase");
}

TEST_F(LoadConfigTest, DefaultPathFileIsLoadedWhenPresent) {
  dir_.Write("xdg-config/kebab/config.toml", "[search]\ndefault_k = 7\n");
  Result<Config> r = LoadConfig({.explicit_path = {}, .env = Env()});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->loaded_from_file);
  EXPECT_EQ(r->config_path, dir_.path() + "/xdg-config/kebab/config.toml");
  EXPECT_EQ(r->search.default_k, 7);
}

TEST_F(LoadConfigTest, FileOverridesDefaults) {
  Result<Config> r = LoadFile(R"(
schema_version = 1
[workspace]
root = "/srv/notes"
exclude = ["drafts/**"]
[ingest]
max_parallel_extractors = 4
max_file_bytes = 1048576
skip_generated = false
follow_symlinks = false
[chunking]
target_tokens = 300
overlap_tokens = 30
max_chunk_tokens = 1200
respect_markdown_headings = false
[models.embedding]
provider = "llama"
model = "bge-small"
dimensions = 384
batch_size = 16
[models.llm]
provider = "openai"
model = "qwen"
endpoint = "http://localhost:8080"
context_tokens = 4096
temperature = 0.2
seed = -42
request_timeout_secs = 30
[search]
default_k = 20
rrf_k = 30
snippet_chars = 100
stemmer = "none"
[rag]
prompt_template_version = "rag-v3"
score_gate = 1
max_context_tokens = 2000
)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Config& c = *r;
  EXPECT_TRUE(c.loaded_from_file);
  EXPECT_EQ(c.config_path, ConfigPath());
  EXPECT_EQ(c.workspace.root, "/srv/notes");
  EXPECT_EQ(c.workspace.exclude, std::vector<std::string>{"drafts/**"});
  EXPECT_EQ(c.ingest.max_parallel_extractors, 4);
  EXPECT_EQ(c.ingest.max_file_bytes, 1048576);
  EXPECT_FALSE(c.ingest.skip_generated);
  EXPECT_FALSE(c.ingest.follow_symlinks);
  EXPECT_EQ(c.chunking.target_tokens, 300);
  EXPECT_EQ(c.chunking.overlap_tokens, 30);
  EXPECT_EQ(c.chunking.max_chunk_tokens, 1200);
  EXPECT_FALSE(c.chunking.respect_markdown_headings);
  EXPECT_EQ(c.embedding.provider, "llama");
  EXPECT_EQ(c.embedding.model, "bge-small");
  EXPECT_EQ(c.embedding.dimensions, 384);
  EXPECT_EQ(c.embedding.batch_size, 16);
  EXPECT_EQ(c.llm.provider, "openai");
  EXPECT_EQ(c.llm.endpoint, "http://localhost:8080");
  EXPECT_EQ(c.llm.context_tokens, 4096);
  EXPECT_DOUBLE_EQ(c.llm.temperature, 0.2);
  EXPECT_EQ(c.llm.seed, -42);
  EXPECT_EQ(c.llm.request_timeout_secs, 30);
  EXPECT_EQ(c.search.default_k, 20);
  EXPECT_EQ(c.search.rrf_k, 30);
  EXPECT_EQ(c.search.snippet_chars, 100);
  EXPECT_EQ(c.search.stemmer, "none");
  EXPECT_EQ(c.rag.prompt_template_version, "rag-v3");
  EXPECT_DOUBLE_EQ(c.rag.score_gate, 1.0);  // an integer is accepted where a number is expected
  EXPECT_EQ(c.rag.max_context_tokens, 2000);
}

TEST_F(LoadConfigTest, DottedKeysAtTopLevel) {
  Result<Config> r = LoadFile("models.llm.model = \"m\"\nsearch.default_k = 3\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->llm.model, "m");
  EXPECT_EQ(r->search.default_k, 3);
}

TEST_F(LoadConfigTest, DataDirChainsIntoStoragePaths) {
  Result<Config> r = LoadFile(R"([storage]
data_dir = "/srv/kebab"
runs_dir = "{data_dir}/eval/runs"
model_dir = "/models"
)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->storage.data_dir, "/srv/kebab");
  EXPECT_EQ(r->storage.sqlite, "/srv/kebab/kebab.sqlite");
  EXPECT_EQ(r->storage.asset_dir, "/srv/kebab/assets");
  EXPECT_EQ(r->storage.artifact_dir, "/srv/kebab/artifacts");
  EXPECT_EQ(r->storage.runs_dir, "/srv/kebab/eval/runs");
  EXPECT_EQ(r->storage.model_dir, "/models");
  EXPECT_EQ(r->storage.cache_dir, "/home/u/.cache/kebab");  // not under data_dir
}

TEST_F(LoadConfigTest, RelativePathsResolveAgainstTheConfigFileDirectory) {
  Result<Config> r = LoadFile(R"([workspace]
root = "notes"
[storage]
data_dir = "../data"
)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->workspace.root, dir_.path() + "/cfg/notes");
  EXPECT_EQ(r->storage.data_dir, dir_.path() + "/data");
  EXPECT_EQ(r->storage.sqlite, dir_.path() + "/data/kebab.sqlite");
}

TEST_F(LoadConfigTest, LegacyIndexingSectionAndWorkspaceInclude) {
  Result<Config> r = LoadFile(R"([workspace]
include = ["**/*.md"]
[indexing]
max_parallel_extractors = 2
follow_symlinks = false
)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.max_parallel_extractors, 2);
  EXPECT_FALSE(r->ingest.follow_symlinks);
}

TEST_F(LoadConfigTest, SubsectionInsideItsSection) {
  Result<Config> r = LoadFile(
      "[ingest]\nfollow_symlinks = false\n[ingest.pdf]\n"
      "max_seconds_per_file = 5\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.pdf_max_seconds_per_file, 5);
  EXPECT_FALSE(r->ingest.follow_symlinks);
  r = LoadFile("[ingest]\npdf = { max_seconds_per_file = 7 }\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.pdf_max_seconds_per_file, 7);
  Status s = LoadError("[ingest.pdf]\nmax_second = 5\n");
  EXPECT_THAT(s.message(), HasSubstr("unknown key 'max_second' in [ingest.pdf]"));
}

TEST_F(LoadConfigTest, KeyInBothIngestAndIndexingIsAnError) {
  Status s = LoadError("[indexing]\nmax_file_bytes = 2048\n[ingest]\nmax_file_bytes = 4096\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), HasSubstr("both [ingest] and [indexing]"));
}

TEST_F(LoadConfigTest, UnknownKeyNamesKeyFileLineAndValidKeys) {
  Status s = LoadError("schema_version = 1\n[search]\ndefualt_k = 5\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), AllOf(HasSubstr(ConfigPath() + ":3:1"), HasSubstr("'defualt_k'"),
                                 HasSubstr("[search]"), HasSubstr("default_k, hybrid_fusion")));
  EXPECT_FALSE(s.hint().empty());
}

TEST_F(LoadConfigTest, UnknownKeyInLegacySectionListsIngestKeys) {
  Status s = LoadError("[indexing]\nmax_parallel_embeddings = 1\n");
  EXPECT_THAT(s.message(), AllOf(HasSubstr("max_parallel_embeddings"), HasSubstr("[indexing]"),
                                 HasSubstr("max_parallel_extractors, max_file_bytes")));
}

TEST_F(LoadConfigTest, UnknownSectionsAndTopLevelKeys) {
  Status s = LoadError("\n[serch]\ndefault_k = 5\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), AllOf(HasSubstr(":2:"), HasSubstr("unknown section [serch]"),
                                 HasSubstr("workspace, storage, ingest")));

  s = LoadError("[models.embeding]\nmodel = \"x\"\n");
  EXPECT_THAT(s.message(), HasSubstr("unknown section [models.embeding]"));

  s = LoadError("root = \"/x\"\n");
  EXPECT_THAT(s.message(), AllOf(HasSubstr(":1:1"), HasSubstr("unknown top-level key 'root'")));
}

TEST_F(LoadConfigTest, SyntaxErrorHasLineAndColumn) {
  Status s = LoadError("[search]\ndefault_k = 5\nrrf_k = = 3\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), HasSubstr(ConfigPath() + ":3:"));
  EXPECT_THAT(s.hint(), HasSubstr("TOML"));

  s = LoadError("[search\n");
  EXPECT_THAT(s.message(), HasSubstr(ConfigPath() + ":1:"));
}

TEST_F(LoadConfigTest, WrongTypesNameKeyAndExpectedType) {
  Status s = LoadError("[search]\ndefault_k = \"ten\"\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), AllOf(HasSubstr(":2:"), HasSubstr("search.default_k"),
                                 HasSubstr("must be an integer"), HasSubstr("got a string")));

  s = LoadError("[workspace]\nexclude = [\"a\", 1]\n");
  EXPECT_THAT(s.message(), AllOf(HasSubstr("workspace.exclude"), HasSubstr("a string")));

  s = LoadError("[workspace]\nexclude = \"a\"\n");
  EXPECT_THAT(s.message(), HasSubstr("a list of strings"));

  s = LoadError("[ingest]\nfollow_symlinks = \"yes\"\n");
  EXPECT_THAT(s.message(), HasSubstr("a boolean"));

  s = LoadError("[chunking]\ntarget_tokens = 1.5\n");
  EXPECT_THAT(s.message(), AllOf(HasSubstr("chunking.target_tokens"), HasSubstr("got a float")));

  s = LoadError("[chunking]\ntarget_tokens = 99999999999\n");
  EXPECT_THAT(s.message(), HasSubstr("out of range"));

  s = LoadError("[rag]\nscore_gate = nan\n");
  EXPECT_THAT(s.message(), HasSubstr("finite"));

  s = LoadError("search = 3\n");
  EXPECT_THAT(s.message(), AllOf(HasSubstr("[search] must be a table"), HasSubstr("integer")));

  s = LoadError("schema_version = \"1\"\n");
  EXPECT_THAT(s.message(), HasSubstr("schema_version must be an integer"));
}

TEST_F(LoadConfigTest, EmptyPathIsAnError) {
  Status s = LoadError("[workspace]\nroot = \"\"\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), AllOf(HasSubstr(":2:"), HasSubstr("workspace.root must not be empty")));
}

TEST_F(LoadConfigTest, DataDirCannotReferToItself) {
  Status s = LoadError("[storage]\ndata_dir = \"{data_dir}/x\"\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), HasSubstr("storage.data_dir"));
}

TEST_F(LoadConfigTest, ValidationRunsOnLoad) {
  Status s = LoadError("[chunking]\ntarget_tokens = 500\noverlap_tokens = 600\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), HasSubstr("chunking.overlap_tokens = 600 must be smaller than "
                                     "chunking.target_tokens = 500"));
  EXPECT_THAT(s.message(), HasSubstr(ConfigPath() + ": invalid configuration"));
  EXPECT_THAT(s.hint(), HasSubstr(ConfigPath()));

  s = LoadError("schema_version = 2\n");
  EXPECT_THAT(s.message(), HasSubstr("schema_version = 2"));
}

TEST_F(LoadConfigTest, MissingExplicitPathIsConfigNotFound) {
  const std::string missing = dir_.path() + "/nope/config.toml";
  Result<Config> r = LoadConfig({.explicit_path = missing, .env = Env()});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kConfigNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr(missing));
  EXPECT_THAT(r.status().hint(), HasSubstr("kebab init --config " + missing));
}

TEST_F(LoadConfigTest, ExplicitPathThatIsADirectory) {
  Result<Config> r = LoadConfig({.explicit_path = dir_.path(), .env = Env()});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(r.status().message(), HasSubstr("is a directory"));
}

TEST_F(LoadConfigTest, MissingHomeIsReported) {
  Result<Config> r = LoadConfig({.explicit_path = {}, .env = {}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(r.status().message(), HasSubstr("HOME is not set"));
}

TEST_F(LoadConfigTest, HomeNotNeededWhenEverythingIsExplicit) {
  Result<Config> r = LoadFile(R"([workspace]
root = "/kb"
[storage]
data_dir = "/data"
cache_dir = "/cache"
state_dir = "/state"
)",
                              {{"XDG_CONFIG_HOME", "/unused"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->storage.sqlite, "/data/kebab.sqlite");
}

TEST_F(LoadConfigTest, NonUtf8FileIsAnErrorNotACrash) {
  Status s = LoadError("[search]\nstemmer = \"\xff\xfe\"\n");
  EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
  EXPECT_THAT(s.message(), HasSubstr(ConfigPath()));
}

TEST_F(LoadConfigTest, PageSegmentationModeIsAutoOrANumber) {
  using Kind = OcrPageSegmentation::Kind;
  Result<Config> r = LoadFile("");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.ocr_page_segmentation_mode.kind, Kind::kAuto);
  EXPECT_EQ(ToJson(*r)["ingest"]["ocr"]["page_segmentation_mode"], "auto");
  r = LoadFile("[ingest.ocr]\npage_segmentation_mode = 6\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.ocr_page_segmentation_mode, (OcrPageSegmentation{Kind::kFixed, 6}));
  EXPECT_EQ(ToJson(*r)["ingest"]["ocr"]["page_segmentation_mode"], 6);
  r = LoadFile("[ingest.ocr]\npage_segmentation_mode = \"auto\"\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ingest.ocr_page_segmentation_mode.kind, Kind::kAuto);

  Status s = LoadError("[ingest.ocr]\npage_segmentation_mode = \"six\"\n");
  EXPECT_THAT(s.message(), AllOf(HasSubstr("ingest.ocr.page_segmentation_mode"),
                                 HasSubstr("\"auto\" or an integer"), HasSubstr("got a string")));
  s = LoadError("[ingest.ocr]\npage_segmentation_mode = 6.0\n");
  EXPECT_THAT(s.message(), HasSubstr("got a float"));
  s = LoadError("[ingest.ocr]\npage_segmentation_mode = 14\n");
  EXPECT_THAT(
      s.message(),
      HasSubstr("ingest.ocr.page_segmentation_mode = 14 must be \"auto\" or between 0 and 13"));
}

TEST_F(LoadConfigTest, ToJsonHoldsEveryKeyNestedBySection) {
  Result<Config> r = LoadFile(
      "[models.llm]\nprovider = \"ollama\"\nmodel = \"qwen2.5:7b\"\n"
      "[search]\nrrf_k = 30\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const nlohmann::json j = ToJson(*r);
  EXPECT_EQ(j["models"]["llm"]["model"], "qwen2.5:7b");
  EXPECT_EQ(j["search"]["rrf_k"], 30);
  EXPECT_EQ(j["storage"]["runs_dir"], "/home/u/.local/share/kebab/runs");
  EXPECT_EQ(j["rag"]["score_gate"], 0.30);
  EXPECT_TRUE(j["workspace"]["exclude"].is_array());
}

}  // namespace
}  // namespace kebab::config
