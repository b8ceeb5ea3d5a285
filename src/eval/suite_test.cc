#include "eval/suite.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace kebab::eval {
namespace {

TEST(SuiteTest, ReadsEveryFieldAndEveryWayOfNamingRelevantResults) {
  const char* yaml = R"(name: notes
queries:
  - id: q1
    query: how do I extract a tar archive
    lang: en
    difficulty: easy
    group: tar
    expected_paths:
      - notes/tar.md#L3-L9
      - ./notes/zip.md#L4
      - {path: notes/gzip.md, grade: 2}
      - {path: notes/xz.md, lines: 5-7, grade: 3}
    expected_doc_ids: [doc_a, {id: doc_b, grade: 4}]
    expected_chunk_ids: [chk_1]
    must_contain: [tar -x]
    forbidden: rm -rf
  - id: "2"
    query: 화성의 수도는?
    unanswerable: yes
)";
  auto suite = ParseSuite(yaml, "golden.yaml");
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  EXPECT_EQ(suite->name, "notes");
  ASSERT_EQ(suite->queries.size(), 2u);
  const GoldenQuery& q = suite->queries[0];
  EXPECT_EQ(q.id, "q1");
  EXPECT_EQ(q.line, 3);
  EXPECT_EQ(q.lang, "en");
  EXPECT_EQ(q.difficulty, "easy");
  EXPECT_EQ(q.group, "tar");
  ASSERT_EQ(q.expected_paths.size(), 4u);
  EXPECT_EQ(q.expected_paths[0].path, "notes/tar.md");
  EXPECT_EQ(q.expected_paths[0].line_start, 3);
  EXPECT_EQ(q.expected_paths[0].line_end, 9);
  EXPECT_EQ(q.expected_paths[0].line, 9);
  EXPECT_EQ(q.expected_paths[1].path, "notes/zip.md");
  EXPECT_EQ(q.expected_paths[1].line_start, 4);
  EXPECT_EQ(q.expected_paths[1].line_end, 4);
  EXPECT_EQ(q.expected_paths[2].path, "notes/gzip.md");
  EXPECT_EQ(q.expected_paths[2].line_start, 0);
  EXPECT_EQ(q.expected_paths[2].grade, 2);
  EXPECT_EQ(q.expected_paths[3].line_start, 5);
  EXPECT_EQ(q.expected_paths[3].line_end, 7);
  EXPECT_EQ(q.expected_paths[3].grade, 3);
  ASSERT_EQ(q.expected_doc_ids.size(), 2u);
  EXPECT_EQ(q.expected_doc_ids[1].id, "doc_b");
  EXPECT_EQ(q.expected_doc_ids[1].grade, 4);
  EXPECT_EQ(q.expected_doc_ids[0].grade, 1);
  EXPECT_EQ(q.expected_chunk_ids.at(0).id, "chk_1");
  EXPECT_EQ(q.must_contain, std::vector<std::string>{"tar -x"});
  EXPECT_EQ(q.forbidden, std::vector<std::string>{"rm -rf"});
  EXPECT_TRUE(suite->queries[1].unanswerable);
  EXPECT_EQ(suite->queries[1].query, "화성의 수도는?");
  EXPECT_FALSE(suite->queries[1].has_judgements());
}

TEST(SuiteTest, ABareListIsASuiteNamedAfterItsFile) {
  const auto dir = std::filesystem::temp_directory_path() / "kebab_suite_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "golden_queries.yaml";
  std::ofstream(path) << "- id: g1\n  query: hello\n";
  auto suite = LoadSuite(path.string());
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  EXPECT_EQ(suite->name, "golden_queries");
  EXPECT_EQ(suite->path, path.string());
  EXPECT_EQ(suite->queries.size(), 1u);
  std::filesystem::remove_all(dir);

  auto missing = LoadSuite((dir / "nope.yaml").string());
  EXPECT_EQ(missing.status().code(), ErrorCode::kIoError);
}

struct BadSuite {
  const char* yaml;
  const char* message;  // the start of the error, file and line included
};

class SuiteErrorTest : public testing::TestWithParam<BadSuite> {};

TEST_P(SuiteErrorTest, NamesTheFileAndLine) {
  auto suite = ParseSuite(GetParam().yaml, "golden.yaml");
  ASSERT_FALSE(suite.ok());
  EXPECT_EQ(suite.status().code(), ErrorCode::kInvalidInput);
  EXPECT_TRUE(suite.status().message().starts_with(GetParam().message))
      << suite.status().ToString();
}

INSTANTIATE_TEST_SUITE_P(
    Errors, SuiteErrorTest,
    testing::Values(BadSuite{"- id: a\n  query: x\n  expeted_doc_ids: [d]\n",
                             "golden.yaml:3: unknown field `expeted_doc_ids`"},
                    BadSuite{"- id: a\n  query: x\n- id: a\n  query: y\n",
                             "golden.yaml:3: duplicate query id `a` (first on line 1)"},
                    BadSuite{"- id: a\n", "golden.yaml:1: query `a` needs a `query`"},
                    BadSuite{"- query: x\n", "golden.yaml:1: a query needs an `id`"},
                    BadSuite{
                        "- id: a\n  query: x\n  expected_paths:\n    - {path: a.md, grade: high}\n",
                        "golden.yaml:4: grade must be a whole number"},
                    BadSuite{"- id: a\n  query: x\n  expected_paths: [a.md#L9-L3]\n",
                             "golden.yaml:3: lines must look like"},
                    BadSuite{"- id: a\n  query: x\n  unanswerable: true\n  expected_doc_ids: [d]\n",
                             "golden.yaml:1: query `a` is unanswerable but names expected results"},
                    BadSuite{"- id: a\n  query: x\n  group: g\n  expected_doc_ids: [d1]\n"
                             "- id: b\n  query: y\n  group: g\n  expected_doc_ids: [d2]\n",
                             "golden.yaml:5: query `b` expects other results than `a`"},
                    BadSuite{"- id: a\n  query: [x\n", "golden.yaml:3: not valid YAML"},
                    BadSuite{"title: x\n", "golden.yaml:1: unknown top-level field `title`"},
                    BadSuite{"name: x\n", "golden.yaml: a suite is a list of queries"},
                    BadSuite{"- id: a\n  query: x\n  unanswerable: maybe\n",
                             "golden.yaml:3: unanswerable must be true or false"}));

}  // namespace
}  // namespace kebab::eval
