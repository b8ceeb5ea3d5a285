#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "config/config.h"
#include "config/schema.h"
#include "config/test_util.h"

namespace kebab::config {
namespace {

using ::testing::HasSubstr;

TEST(AnnotatedDefaultTest, LoadingItYieldsExactlyTheDefaults) {
  testing::TempDir dir;
  const Environment env = {{"HOME", "/home/u"}, {"XDG_CONFIG_HOME", dir.path() + "/none"}};
  const std::string path = dir.Write("config.toml", AnnotatedDefaultConfig());

  Result<Config> from_file = LoadConfig({.explicit_path = path, .env = env});
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  Result<Config> defaults = LoadConfig({.explicit_path = {}, .env = env});
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();

  EXPECT_TRUE(from_file->loaded_from_file);
  EXPECT_FALSE(defaults->loaded_from_file);
  Config a = *from_file;
  Config b = *defaults;
  a.config_path = b.config_path = "";
  a.loaded_from_file = b.loaded_from_file = false;
  EXPECT_EQ(a, b);
}

TEST(AnnotatedDefaultTest, WritesTemplatesNotExpandedPaths) {
  const std::string text = AnnotatedDefaultConfig();
  EXPECT_THAT(text, HasSubstr("data_dir = \"${XDG_DATA_HOME:-~/.local/share}/kebab\"\n"));
  EXPECT_THAT(text, HasSubstr("sqlite = \"{data_dir}/kebab.sqlite\"\n"));
  EXPECT_THAT(text, HasSubstr("root = \"~/KnowledgeBase\"\n"));
  EXPECT_THAT(text, HasSubstr("exclude = [\".git/**\", \".obsidian/**\"]\n"));
  EXPECT_THAT(text, HasSubstr("score_gate = 0.3\n"));
  EXPECT_THAT(text, HasSubstr("temperature = 0.0\n"));
}

TEST(AnnotatedDefaultTest, PreambleExplainsPrecedence) {
  const std::string text = AnnotatedDefaultConfig();
  const std::string head = text.substr(0, text.find("schema_version"));
  EXPECT_THAT(head, HasSubstr("built-in defaults -> this file -> KEBAB_<SECTION>_<KEY>"));
  EXPECT_THAT(head, HasSubstr("command-line flags"));
  EXPECT_TRUE(text.starts_with("# "));
}

TEST(AnnotatedDefaultTest, EveryKeyAppearsInItsSectionWithACommentAbove) {
  std::istringstream in(AnnotatedDefaultConfig());
  std::string line;
  std::string previous;
  std::string section;
  std::set<std::string> seen;
  while (std::getline(in, line)) {
    if (line.starts_with("[")) {
      section = line.substr(1, line.size() - 2);
      EXPECT_TRUE(previous.starts_with("# ")) << line;
    } else if (!line.empty() && !line.starts_with("#")) {
      const std::string key = line.substr(0, line.find(" = "));
      EXPECT_TRUE(previous.starts_with("# ")) << "no comment above " << key;
      EXPECT_TRUE(seen.insert(section.empty() ? key : section + "." + key).second) << key;
    }
    previous = line;
  }
  std::set<std::string> expected = {"schema_version"};
  for (const internal::KeySpec& key : internal::Keys()) {
    expected.insert(internal::QualifiedName(key));
  }
  EXPECT_EQ(seen, expected);
}

TEST(AnnotatedDefaultTest, CommentsNameTheEnvironmentVariable) {
  const std::string text = AnnotatedDefaultConfig();
  EXPECT_THAT(text, HasSubstr("# env: KEBAB_SEARCH_DEFAULT_K\ndefault_k = 10\n"));
  EXPECT_THAT(text, HasSubstr("# env: KEBAB_MODELS_LLM_REQUEST_TIMEOUT_SECS\n"));
}

}  // namespace
}  // namespace kebab::config
