#include "parse/front_matter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kebab::parse {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::StartsWith;

TEST(SplitFrontMatterTest, FindsYamlAndTomlBlocks) {
  FrontMatterSplit yaml = SplitFrontMatter("---\ntitle: x\n---\nbody\n");
  EXPECT_EQ(yaml.format, FrontMatterFormat::kYaml);
  EXPECT_EQ(yaml.content, "title: x\n");
  EXPECT_EQ(yaml.body, "body\n");
  EXPECT_EQ(yaml.lines, 3u);

  FrontMatterSplit dots = SplitFrontMatter("--- \na: 1\nb: 2\n...\n\nbody");
  EXPECT_EQ(dots.format, FrontMatterFormat::kYaml);
  EXPECT_EQ(dots.content, "a: 1\nb: 2\n");
  EXPECT_EQ(dots.body, "\nbody");
  EXPECT_EQ(dots.lines, 4u);

  FrontMatterSplit toml = SplitFrontMatter("+++\r\na = 1\r\n+++\r\nbody");
  EXPECT_EQ(toml.format, FrontMatterFormat::kToml);
  EXPECT_EQ(toml.content, "a = 1\r\n");
  EXPECT_EQ(toml.body, "body");
  EXPECT_EQ(toml.lines, 3u);

  FrontMatterSplit empty = SplitFrontMatter("---\n---");
  EXPECT_EQ(empty.format, FrontMatterFormat::kYaml);
  EXPECT_EQ(empty.content, "");
  EXPECT_EQ(empty.body, "");
  EXPECT_EQ(empty.lines, 2u);
}

TEST(SplitFrontMatterTest, RejectsWhatIsNotFrontMatter) {
  for (std::string_view text :
       {"# Title\n---\na: 1\n---\n", "---\na: 1\n", "---", "", "+++\na = 1\n---\n",
        "---\na: 1\n+++\n", " ---\na: 1\n---\n", "----\na: 1\n----\n"}) {
    FrontMatterSplit split = SplitFrontMatter(text);
    EXPECT_EQ(split.format, FrontMatterFormat::kNone) << text;
    EXPECT_EQ(split.body, text);
    EXPECT_EQ(split.lines, 0u);
  }
}

TEST(ParseFrontMatterTest, YamlScalarsKeepTheirTypes) {
  std::vector<std::string> warnings;
  FrontMatter fm = ParseFrontMatter(FrontMatterFormat::kYaml,
                                    "int: 42\nneg: -7\nhex: 0x1F\nbig: 123456789012345678901\n"
                                    "float: 3.5\nexp: 1e3\nyes_word: yes\nbool: True\n"
                                    "nul: ~\nquoted: 'true'\ntagged: !!str 12\ndate: 2024-01-05\n"
                                    "inf: .inf\nlist: [1, two, 3.0]\n",
                                    &warnings);
  EXPECT_THAT(warnings, IsEmpty());
  EXPECT_EQ(fm.user, json::parse(R"({
    "int": 42, "neg": -7, "hex": 31, "big": 1.2345678901234568e20, "float": 3.5, "exp": 1000.0,
    "yes_word": "yes", "bool": true, "nul": null, "quoted": "true", "tagged": "12",
    "date": "2024-01-05", "inf": ".inf", "list": [1, "two", 3.0]})"));
}

TEST(ParseFrontMatterTest, KnownKeysKeepTheirText) {
  std::vector<std::string> warnings;
  FrontMatter fm = ParseFrontMatter(FrontMatterFormat::kYaml,
                                    "title: 1.10\ntags: [2024, true]\nlang: KO_kr\n", &warnings);
  EXPECT_THAT(warnings, IsEmpty());
  EXPECT_EQ(fm.title, "1.10");
  EXPECT_THAT(fm.tags, ElementsAre("2024", "true"));
  EXPECT_EQ(fm.lang, "ko");
  EXPECT_THAT(fm.user, IsEmpty());
}

TEST(ParseFrontMatterTest, EmptyYamlHasNoKeysAndNoWarning) {
  std::vector<std::string> warnings;
  FrontMatter fm = ParseFrontMatter(FrontMatterFormat::kYaml, "", &warnings);
  EXPECT_THAT(warnings, IsEmpty());
  EXPECT_FALSE(fm.title.has_value());
  fm = ParseFrontMatter(FrontMatterFormat::kYaml, "# only a comment\n", &warnings);
  EXPECT_THAT(warnings, IsEmpty());
}

TEST(ParseFrontMatterTest, MalformedInputIsAWarning) {
  for (std::string_view content : {"title: [oops\n", "- a\n- b\n", "plain text\n", "a: b: c\n",
                                   "a:\n  - b\n c: d\n", "a: &x 1\nb: *y\n", "\t- tab\n"}) {
    std::vector<std::string> warnings;
    FrontMatter fm = ParseFrontMatter(FrontMatterFormat::kYaml, content, &warnings);
    ASSERT_EQ(warnings.size(), 1u) << content;
    EXPECT_THAT(warnings[0], StartsWith("malformed front matter: ")) << content;
    EXPECT_FALSE(fm.title.has_value());
    EXPECT_THAT(fm.user, IsEmpty());
  }
  std::vector<std::string> warnings;
  ParseFrontMatter(FrontMatterFormat::kToml, "a = [1,\n", &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], StartsWith("malformed front matter: line "));
}

TEST(ParseFrontMatterTest, AliasBombIsCutShort) {
  // Nine levels of nine aliases: 387 million values once expanded.
  std::string yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev;
    for (int j = 0; j < 8; ++j) yaml += ", " + prev;
    yaml += "]\n";
  }
  std::vector<std::string> warnings;
  FrontMatter fm = ParseFrontMatter(FrontMatterFormat::kYaml, yaml, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], StartsWith("malformed front matter: more than 100000 values"));
  EXPECT_THAT(fm.user, IsEmpty());
}

TEST(ParseFrontMatterTest, DeepNestingIsMalformedNotACrash) {
  std::string yaml = "deep: " + std::string(200, '[') + std::string(200, ']') + "\n";
  std::vector<std::string> warnings;
  ParseFrontMatter(FrontMatterFormat::kYaml, yaml, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], StartsWith("malformed front matter: "));
}

TEST(ParseFrontMatterTest, TomlValues) {
  std::vector<std::string> warnings;
  FrontMatter fm = ParseFrontMatter(FrontMatterFormat::kToml,
                                    "title = \"T\"\ntags = [\"a\", \"b\", \"a\"]\n"
                                    "created_at = 2024-05-06T07:08:09+02:00\n"
                                    "updated_at = 2024-05-06T07:08:09\n"
                                    "when = 1979-05-27T07:32:00Z\nday = 2020-01-02\nat = 07:32:00\n"
                                    "nan = nan\n[[people]]\nname = \"A\"\n",
                                    &warnings);
  EXPECT_THAT(warnings, IsEmpty());
  EXPECT_EQ(fm.title, "T");
  EXPECT_THAT(fm.tags, ElementsAre("a", "b"));
  EXPECT_EQ(fm.created_at, "2024-05-06T05:08:09Z");
  EXPECT_EQ(fm.updated_at, "2024-05-06T07:08:09Z");  // local date-time read as UTC
  EXPECT_EQ(fm.user, json::parse(R"({
    "when": "1979-05-27T07:32:00Z", "day": "2020-01-02", "at": "07:32:00", "nan": "nan",
    "people": [{"name": "A"}]})"));
}

TEST(NormalizeTimestampTest, AcceptedForms) {
  EXPECT_EQ(NormalizeTimestamp("2024-01-05"), "2024-01-05T00:00:00Z");
  EXPECT_EQ(NormalizeTimestamp(" 2024-01-05T10:00:00Z "), "2024-01-05T10:00:00Z");
  EXPECT_EQ(NormalizeTimestamp("2024-01-05T10:00:00.123-05:00"), "2024-01-05T15:00:00Z");
  EXPECT_EQ(NormalizeTimestamp("2024-01-05 10:00:00"), "2024-01-05T10:00:00Z");
  EXPECT_EQ(NormalizeTimestamp("2024-01-05T10:00:00"), "2024-01-05T10:00:00Z");
  EXPECT_EQ(NormalizeTimestamp("yesterday"), std::nullopt);
  EXPECT_EQ(NormalizeTimestamp("2024-1-5"), std::nullopt);
  EXPECT_EQ(NormalizeTimestamp("2024-01-05T10:00"), std::nullopt);
  EXPECT_EQ(NormalizeTimestamp(""), std::nullopt);
}

}  // namespace
}  // namespace kebab::parse
