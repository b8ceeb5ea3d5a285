#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "config/config.h"

namespace kebab::config {
namespace {

using ::testing::HasSubstr;

Config ValidConfig() {
  Config c;
  c.workspace.root = "/kb";
  return c;
}

struct Case {
  const char* name;
  std::function<void(Config&)> mutate;
  const char* expected;  // substring of the error; nullptr = must be valid
};

class ValidateTest : public ::testing::TestWithParam<Case> {};

TEST_P(ValidateTest, Rule) {
  Config c = ValidConfig();
  GetParam().mutate(c);
  Status s = Validate(c);
  if (GetParam().expected == nullptr) {
    EXPECT_TRUE(s.ok()) << s.ToString();
  } else {
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), ErrorCode::kConfigInvalid);
    EXPECT_THAT(s.message(), HasSubstr(GetParam().expected));
    EXPECT_FALSE(s.hint().empty());
  }
}

const Case kCases[] = {
    {"Defaults", [](Config&) {}, nullptr},
    {"SchemaVersion", [](Config& c) { c.schema_version = 2; },
     "schema_version = 2 is not supported"},
    {"EmptyRoot", [](Config& c) { c.workspace.root.clear(); }, "workspace.root must not be empty"},
    {"TargetFloor",
     [](Config& c) {
       c.chunking.target_tokens = 16;
       c.chunking.overlap_tokens = 0;
     },
     nullptr},
    {"TargetTooSmall",
     [](Config& c) {
       c.chunking.target_tokens = 15;
       c.chunking.overlap_tokens = 0;
     },
     "chunking.target_tokens = 15 must be at least 16"},
    {"NegativeOverlap", [](Config& c) { c.chunking.overlap_tokens = -1; },
     "chunking.overlap_tokens = -1 must be at least 0"},
    {"OverlapTooLarge", [](Config& c) { c.chunking.overlap_tokens = 600; },
     "chunking.overlap_tokens = 600 must be smaller than chunking.target_tokens = 500"},
    {"OverlapEqualsTarget", [](Config& c) { c.chunking.overlap_tokens = 500; },
     "must be smaller than chunking.target_tokens"},
    {"OverlapJustBelow", [](Config& c) { c.chunking.overlap_tokens = 499; }, nullptr},
    {"MaxChunkBelowTarget", [](Config& c) { c.chunking.max_chunk_tokens = 499; },
     "chunking.max_chunk_tokens = 499 must be at least chunking.target_tokens = 500"},
    {"MaxChunkEqualsTarget", [](Config& c) { c.chunking.max_chunk_tokens = 500; }, nullptr},
    {"ChunkerVersion", [](Config& c) { c.chunking.chunker_version = "md-heading-v1"; },
     "chunking.chunker_version = \"md-heading-v1\" must be one of: md-heading-v2"},
    {"DefaultKZero", [](Config& c) { c.search.default_k = 0; },
     "search.default_k = 0 must be between 1 and 1000"},
    {"DefaultKMax", [](Config& c) { c.search.default_k = 1000; }, nullptr},
    {"DefaultKTooLarge", [](Config& c) { c.search.default_k = 1001; },
     "search.default_k = 1001 must be between 1 and 1000"},
    {"RrfK", [](Config& c) { c.search.rrf_k = 0; }, "search.rrf_k = 0 must be at least 1"},
    {"SnippetTooShort", [](Config& c) { c.search.snippet_chars = 19; },
     "search.snippet_chars = 19 must be between 20 and 4000"},
    {"SnippetTooLong", [](Config& c) { c.search.snippet_chars = 4001; },
     "search.snippet_chars = 4001 must be between 20 and 4000"},
    {"SnippetBounds", [](Config& c) { c.search.snippet_chars = 4000; }, nullptr},
    {"HybridFusion", [](Config& c) { c.search.hybrid_fusion = "linear"; },
     "search.hybrid_fusion = \"linear\" must be one of: rrf"},
    {"StemmerNone", [](Config& c) { c.search.stemmer = "none"; }, nullptr},
    {"StemmerPorter", [](Config& c) { c.search.stemmer = "porter"; }, nullptr},
    {"StemmerUnknown", [](Config& c) { c.search.stemmer = "klingon"; },
     "search.stemmer = \"klingon\" must be one of: none, "},
    {"ExactMaxNegative", [](Config& c) { c.index.exact_max = -1; },
     "index.exact_max = -1 must be at least 0"},
    {"ExactMaxZero", [](Config& c) { c.index.exact_max = 0; }, nullptr},
    {"IndexScalar", [](Config& c) { c.index.scalar = "bf16"; },
     "index.scalar = \"bf16\" must be one of: f16, f32, i8"},
    {"IndexScalarI8", [](Config& c) { c.index.scalar = "i8"; }, nullptr},
    {"Connectivity", [](Config& c) { c.index.connectivity = 3; },
     "index.connectivity = 3 must be between 4 and 64"},
    {"ExpansionAdd", [](Config& c) { c.index.expansion_add = 2000; },
     "index.expansion_add = 2000 must be between 16 and 1024"},
    {"ExpansionSearch", [](Config& c) { c.index.expansion_search = 8; },
     "index.expansion_search = 8 must be between 16 and 4096"},
    {"CopyThreshold", [](Config& c) { c.storage.copy_threshold_mb = -1; },
     "storage.copy_threshold_mb = -1 must be at least 0"},
    {"CopyThresholdZero", [](Config& c) { c.storage.copy_threshold_mb = 0; }, nullptr},
    {"ExtractorsNegative", [](Config& c) { c.ingest.max_parallel_extractors = -1; },
     "ingest.max_parallel_extractors = -1 must be between 0 and 256"},
    {"ExtractorsTooMany", [](Config& c) { c.ingest.max_parallel_extractors = 257; },
     "ingest.max_parallel_extractors = 257 must be between 0 and 256"},
    {"ExtractorsMax", [](Config& c) { c.ingest.max_parallel_extractors = 256; }, nullptr},
    {"MaxFileBytes", [](Config& c) { c.ingest.max_file_bytes = 1023; },
     "ingest.max_file_bytes = 1023 must be at least 1024"},
    {"CodeMaxFileBytes", [](Config& c) { c.ingest.code_max_file_bytes = 100; },
     "ingest.code.max_file_bytes = 100 must be at least 1024"},
    {"CodeMaxFileLines", [](Config& c) { c.ingest.code_max_file_lines = 9; },
     "ingest.code.max_file_lines = 9 must be at least 10"},
    {"CodeSkipDirsPath", [](Config& c) { c.ingest.code_skip_dirs = {"third_party/x"}; },
     "ingest.code.skip_dirs: 'third_party/x' is not a folder name"},
    {"CodeSkipDirsNone", [](Config& c) { c.ingest.code_skip_dirs.clear(); }, nullptr},
    {"PsmTooHigh",
     [](Config& c) {
       c.ingest.ocr_page_segmentation_mode = {OcrPageSegmentation::Kind::kFixed, 14};
     },
     "ingest.ocr.page_segmentation_mode = 14 must be \"auto\" or between 0 and 13"},
    {"PsmFixed",
     [](Config& c) {
       c.ingest.ocr_page_segmentation_mode = {OcrPageSegmentation::Kind::kFixed, 0};
     },
     nullptr},
    {"PsmAutoIgnoresTheNumber", [](Config& c) { c.ingest.ocr_page_segmentation_mode.psm = 99; },
     nullptr},
    {"AudioEngine", [](Config& c) { c.ingest.audio_engine = "vosk"; },
     "ingest.audio.engine = \"vosk\" must be one of: auto, whisper, pocketsphinx"},
    {"AudioEngineWhisper", [](Config& c) { c.ingest.audio_engine = "whisper"; }, nullptr},
    {"AudioLanguageName", [](Config& c) { c.ingest.audio_language = "Korean"; },
     "ingest.audio.language = \"Korean\" must be \"auto\" or a language code"},
    {"AudioLanguageCode", [](Config& c) { c.ingest.audio_language = "ko"; }, nullptr},
    {"AudioThreads", [](Config& c) { c.ingest.audio_threads = -1; },
     "ingest.audio.threads = -1 must be between 0 and 256"},
    {"EmbeddingProvider", [](Config& c) { c.embedding.provider = "fastembed"; },
     "models.embedding.provider = \"fastembed\" must be one of: none, llama, ollama, openai"},
    {"LlmProvider", [](Config& c) { c.llm.provider = "Ollama"; },
     "models.llm.provider = \"Ollama\" must be one of"},
    {"ProvidersAccepted",
     [](Config& c) {
       c.embedding.provider = "openai";
       c.llm.provider = "llama";
     },
     nullptr},
    {"Dimensions", [](Config& c) { c.embedding.dimensions = -1; },
     "models.embedding.dimensions = -1 must be at least 0"},
    {"BatchSize", [](Config& c) { c.embedding.batch_size = 0; },
     "models.embedding.batch_size = 0 must be at least 1"},
    {"ContextTokens", [](Config& c) { c.llm.context_tokens = 0; },
     "models.llm.context_tokens = 0 must be at least 1"},
    {"Temperature", [](Config& c) { c.llm.temperature = 2.5; },
     "models.llm.temperature = 2.5 must be between 0 and 2"},
    {"Timeout", [](Config& c) { c.llm.request_timeout_secs = 0; },
     "models.llm.request_timeout_secs = 0 must be at least 1"},
    {"ScoreGateHigh", [](Config& c) { c.rag.score_gate = 1.5; },
     "rag.score_gate = 1.5 must be between 0 and 1"},
    {"ScoreGateNegative", [](Config& c) { c.rag.score_gate = -0.1; },
     "rag.score_gate = -0.1 must be between 0 and 1"},
    {"ScoreGateBounds", [](Config& c) { c.rag.score_gate = 1.0; }, nullptr},
    {"MaxContextTokens", [](Config& c) { c.rag.max_context_tokens = 0; },
     "rag.max_context_tokens = 0 must be at least 1"},
};

INSTANTIATE_TEST_SUITE_P(Rules, ValidateTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.name);
                         });

TEST(ValidateAllTest, ReportsEveryProblemAtOnce) {
  Config c = ValidConfig();
  c.config_path = "/etc/kebab.toml";
  c.search.default_k = 0;
  c.rag.score_gate = 2;
  Status s = Validate(c);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("2 configuration problems"));
  EXPECT_THAT(s.message(), HasSubstr("search.default_k = 0"));
  EXPECT_THAT(s.message(), HasSubstr("rag.score_gate = 2"));
  EXPECT_THAT(s.hint(), HasSubstr("/etc/kebab.toml"));
}

}  // namespace
}  // namespace kebab::config
