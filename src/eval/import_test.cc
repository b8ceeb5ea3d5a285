#include "eval/import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "eval/internal/workspace_files.h"
#include "source/ignore.h"
#include "tests/support/sanitizers.h"

namespace kebab::eval {
namespace {

namespace fs = std::filesystem;
using internal::DocFileName;
using internal::DocMarkdown;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::StartsWith;

const fs::path kFixtures = fs::path(KEBAB_TESTDATA_DIR) / "eval";

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void WriteText(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// (query id, [(path, grade)]) in file order, as the suite says.
using SuiteEntries = std::vector<std::pair<std::string, std::vector<std::pair<std::string, int>>>>;

SuiteEntries LoadSuite(const fs::path& path, std::string* name,
                       std::map<std::string, std::string>* queries) {
  const YAML::Node suite = YAML::LoadFile(path.string());
  *name = suite["name"].as<std::string>();
  SuiteEntries entries;
  for (const YAML::Node& q : suite["queries"]) {
    const std::string id = q["id"].as<std::string>();
    (*queries)[id] = q["query"].as<std::string>();
    auto& expected = entries.emplace_back(id, std::vector<std::pair<std::string, int>>{}).second;
    for (const YAML::Node& e : q["expected_paths"]) {
      expected.emplace_back(e["path"].as<std::string>(), e["grade"].as<int>());
    }
  }
  return entries;
}

class ImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::path(testing::TempDir()) / "kebab_eval_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    tmp_ = tmpl;
    out_ = tmp_ / "out";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }

  // A writable copy of a fixture collection.
  fs::path CopyFixture(const std::string& name) {
    const fs::path dest = tmp_ / ("src-" + name);
    fs::copy(kFixtures / name, dest, fs::copy_options::recursive);
    return dest;
  }

  Result<ImportReport> Import(CollectionFormat format, const fs::path& source,
                              const std::string& split = "test") {
    return ImportCollection(
        {.format = format, .source = source.string(), .out_dir = out_.string(), .split = split});
  }

  fs::path tmp_, out_;
};

TEST(ParseCollectionFormatTest, KnowsBeirAndTrec) {
  EXPECT_EQ(ParseCollectionFormat("beir"), CollectionFormat::kBeir);
  EXPECT_EQ(ParseCollectionFormat("trec"), CollectionFormat::kTrec);
  EXPECT_EQ(ParseCollectionFormat("BEIR"), std::nullopt);
  EXPECT_EQ(ParseCollectionFormat(""), std::nullopt);
}

TEST(DocFileNameTest, EscapesEverythingButSafeBytes) {
  EXPECT_EQ(DocFileName("184"), "184.md");
  EXPECT_EQ(DocFileName("LA010189-0001_v2.x"), "LA010189-0001_v2.x.md");
  EXPECT_EQ(DocFileName("a/b c"), "a%2Fb%20c.md");
  EXPECT_EQ(DocFileName("100%"), "100%25.md");
  EXPECT_EQ(DocFileName("한"), "%ED%95%9C.md");
  EXPECT_EQ(DocFileName(".hidden"), "%2Ehidden.md");
  EXPECT_EQ(DocFileName(".."), "%2E..md");
  EXPECT_EQ(DocFileName("a.b"), "a.b.md");
}

TEST(DocFileNameTest, LongIdsStayWithinTheFileNameLimitAndDistinct) {
  const std::string a(300, 'x'), b = std::string(299, 'x') + "y";
  EXPECT_LE(DocFileName(a).size(), 255u);
  EXPECT_NE(DocFileName(a), DocFileName(b));
  EXPECT_THAT(DocFileName(a), StartsWith(std::string(200, 'x') + "~"));
  EXPECT_EQ(DocFileName(std::string(252, 'x')), std::string(252, 'x') + ".md");
}

TEST(DocMarkdownTest, TitleBecomesHeadingWithCollapsedWhitespace) {
  EXPECT_EQ(DocMarkdown("  Aeroelastic \t models\nof aircraft ", "Body text."),
            "# Aeroelastic models of aircraft\n\nBody text.\n");
  EXPECT_EQ(DocMarkdown("", "Body text."), "Body text.\n");
  EXPECT_EQ(DocMarkdown(" \n", "Body text."), "Body text.\n");
  EXPECT_EQ(DocMarkdown("Title only", " \n "), "# Title only\n");
  EXPECT_EQ(DocMarkdown("", ""), "");
}

TEST(DocMarkdownTest, LinesAreTrimmedAndBlankRunsCollapsed) {
  EXPECT_EQ(DocMarkdown("", "\n\n    indented  code?\r\n\n\n\n\tsecond   para  \n\n"),
            "indented code?\n\nsecond para\n");
}

TEST(DocMarkdownTest, NeverStartsWithFrontMatterOrHidesLinkDefinitions) {
  EXPECT_EQ(DocMarkdown("", "---\ntitle: x\n---\nbody"), "\\---\ntitle: x\n---\nbody\n");
  EXPECT_EQ(DocMarkdown("", "\xEF\xBB\xBF+++\na = 1\n+++"), "\\+++\na = 1\n+++\n");
  EXPECT_EQ(DocMarkdown("", "\n  --- x"), "\\--- x\n");
  // With a heading first, a later fence line is a thematic break, not front matter.
  EXPECT_EQ(DocMarkdown("T", "---\nbody"), "# T\n\n---\nbody\n");
  EXPECT_EQ(DocMarkdown("", "intro\n[1]: http://example.com \"words\""),
            "intro\n\\[1]: http://example.com \"words\"\n");
}

TEST_F(ImportTest, BeirFixtureBecomesCorpusAndSuite) {
  std::vector<std::pair<int, int>> calls;
  Result<ImportReport> report = ImportCollection(
      {.source = (kFixtures / "beir-mini").string(), .out_dir = out_.string(), .name = "mini"},
      [&](int done, int total) { calls.emplace_back(done, total); });
  ASSERT_TRUE(report.ok()) << report.status().ToString();

  EXPECT_EQ(report->name, "mini");
  EXPECT_EQ(report->documents, 6);
  EXPECT_EQ(report->queries, 3);
  EXPECT_EQ(report->judgements, 5);
  EXPECT_EQ(report->queries_without_judgements, 1);
  EXPECT_EQ(report->files_written, 6);
  EXPECT_EQ(report->files_unchanged, 0);
  EXPECT_EQ(report->corpus_dir, (out_ / "corpus").string());
  EXPECT_EQ(report->suite_path, (out_ / "suite.yaml").string());
  EXPECT_EQ(calls.size(), 6u);
  EXPECT_EQ(calls.back(), std::make_pair(6, 6));
  EXPECT_THAT(report->warnings,
              ElementsAre("corpus.jsonl:7: duplicate document id d1 (first kept)",
                          "qrels/test.tsv:6: unknown document id 9999 (skipped)",
                          "qrels/test.tsv:10: unknown query id q5 (its judgements skipped)"));

  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(out_ / "corpus")) {
    files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_THAT(files,
              ElementsAre("%2Ehidden.md", "42.md", "a%2Fb%20c.md", "d1.md", "fm.md", "k1.md"));
  EXPECT_EQ(ReadText(out_ / "corpus/d1.md"),
            "# Aeroelastic models of heated aircraft\n\n"
            "Similarity laws for aeroelastic models of heated high speed aircraft.\n");
  EXPECT_EQ(ReadText(out_ / "corpus/k1.md"),
            "# 한국어 문서 제목\n\n형태소 분석과 검색 품질에 관한 문서입니다.\n");
  EXPECT_EQ(ReadText(out_ / "corpus/fm.md"),
            "\\--- not front matter\n\nindented line stays prose\n\\[ref]: kept as words\n");
  EXPECT_EQ(ReadText(out_ / "corpus/42.md"), "A document with a numeric id.\n");

  std::string name;
  std::map<std::string, std::string> queries;
  const SuiteEntries suite = LoadSuite(out_ / "suite.yaml", &name, &queries);
  EXPECT_EQ(name, "mini");
  using E = std::vector<std::pair<std::string, int>>;
  EXPECT_THAT(suite, ElementsAre(Pair("q1", E{{"corpus/d1.md", 2}, {"corpus/a%2Fb%20c.md", 1}}),
                                 Pair("q2", E{{"corpus/a%2Fb%20c.md", 3}}),
                                 Pair("q3", E{{"corpus/k1.md", 4}, {"corpus/%2Ehidden.md", 1}})));
  EXPECT_EQ(queries["q1"], "what similarity laws must be obeyed by aeroelastic models");
  EXPECT_EQ(queries["q3"], "한국어 검색 품질");
  EXPECT_THAT(ReadText(out_ / "suite.yaml"),
              StartsWith("# kebab golden suite imported from BEIR collection " +
                         (kFixtures / "beir-mini").lexically_normal().string() +
                         " (split test): 3 queries, 5 judgements\nname: mini\n"));
}

TEST_F(ImportTest, SuiteIsHiddenFromIngest) {
  const fs::path source = CopyFixture("beir-mini");
  ASSERT_TRUE(Import(CollectionFormat::kBeir, source).ok());
  const source::IgnoreList ignore("", ReadText(out_ / ".kebabignore"));
  EXPECT_EQ(ignore.Match("suite.yaml", false), source::IgnoreList::Verdict::kIgnored);
  EXPECT_EQ(ignore.Match("corpus/d1.md", false), source::IgnoreList::Verdict::kNone);

  // A user's own .kebabignore keeps its lines and gains ours once.
  WriteText(out_ / ".kebabignore", "drafts/");
  ASSERT_TRUE(Import(CollectionFormat::kBeir, source).ok());
  ASSERT_TRUE(Import(CollectionFormat::kBeir, source).ok());
  EXPECT_EQ(ReadText(out_ / ".kebabignore"), "drafts/\n/suite.yaml\n");
}

TEST_F(ImportTest, NameDefaultsToTheSourceDirectory) {
  Result<ImportReport> report = Import(CollectionFormat::kBeir, kFixtures / "beir-mini/");
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->name, "beir-mini");
  EXPECT_EQ(YAML::LoadFile(report->suite_path)["name"].as<std::string>(), "beir-mini");
}

TEST_F(ImportTest, BeirSplitPicksTheQrelsFile) {
  Result<ImportReport> dev = Import(CollectionFormat::kBeir, kFixtures / "beir-mini", "dev");
  ASSERT_TRUE(dev.ok()) << dev.status().ToString();
  EXPECT_EQ(dev->queries, 1);
  EXPECT_EQ(dev->queries_without_judgements, 3);
  std::string name;
  std::map<std::string, std::string> queries;
  using E = std::vector<std::pair<std::string, int>>;
  EXPECT_THAT(LoadSuite(dev->suite_path, &name, &queries),
              ElementsAre(Pair("q4", E{{"corpus/42.md", 1}})));

  Result<ImportReport> missing = Import(CollectionFormat::kBeir, kFixtures / "beir-mini", "train");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kInvalidInput);
  EXPECT_THAT(missing.status().message(), HasSubstr("has no qrels/train.tsv"));
  EXPECT_THAT(missing.status().hint(), HasSubstr("splits here: dev test"));
}

TEST_F(ImportTest, BeirErrorsNameFileAndLine) {
  const fs::path source = CopyFixture("beir-mini");
  const std::string corpus = ReadText(source / "corpus.jsonl");
  const auto expect_error = [&](const std::string& message) {
    Result<ImportReport> report = Import(CollectionFormat::kBeir, source);
    ASSERT_FALSE(report.ok()) << message;
    EXPECT_EQ(report.status().code(), ErrorCode::kInvalidInput);
    EXPECT_THAT(report.status().message(), StartsWith(message));
  };

  WriteText(source / "corpus.jsonl", corpus + "{\"_id\": \"x\", \"text\": \"unterminated}\n");
  expect_error("corpus.jsonl:9: not JSON: parse error");
  WriteText(source / "corpus.jsonl", "{\"title\": \"t\", \"text\": \"no id\"}\n");
  expect_error("corpus.jsonl:1: missing \"_id\"");
  WriteText(source / "corpus.jsonl", "{\"_id\": \"a\"}\n");
  expect_error("corpus.jsonl:1: missing \"text\"");
  WriteText(source / "corpus.jsonl", "[1, 2]\n");
  expect_error("corpus.jsonl:1: not a JSON object");
  WriteText(source / "corpus.jsonl", "{\"_id\": \"\", \"text\": \"x\"}\n");
  expect_error("corpus.jsonl:1: empty document id");
  WriteText(source / "corpus.jsonl", corpus);

  WriteText(source / "qrels/test.tsv", "query-id\tcorpus-id\tscore\nq1\td1\thigh\n");
  expect_error("qrels/test.tsv:2: score \"high\" is not an integer");
  WriteText(source / "qrels/test.tsv", "q1\td1\n");
  expect_error("qrels/test.tsv:1: expected 3 tab-separated fields");

  fs::remove(source / "qrels/test.tsv");
  expect_error("BEIR collection " + source.string() + " has no qrels/test.tsv");
  fs::remove(source / "queries.jsonl");
  expect_error("BEIR collection " + source.string() + " has no queries.jsonl");

  out_ = source / "out";
  Result<ImportReport> inside = Import(CollectionFormat::kBeir, source);
  ASSERT_FALSE(inside.ok());
  EXPECT_EQ(inside.status().code(), ErrorCode::kInvalidInput);
  EXPECT_THAT(inside.status().message(), HasSubstr("is inside the collection"));
  EXPECT_FALSE(fs::exists(out_));

  Result<ImportReport> absent = Import(CollectionFormat::kBeir, tmp_ / "nowhere");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.status().code(), ErrorCode::kInvalidInput);
  EXPECT_THAT(absent.status().message(), HasSubstr("nowhere does not exist"));
}

TEST_F(ImportTest, WarningsAreCapped) {
  const fs::path source = CopyFixture("beir-mini");
  std::string qrels = "query-id\tcorpus-id\tscore\n";
  for (int i = 0; i < 60; ++i) qrels += "q1\tmissing-" + std::to_string(i) + "\t1\n";
  WriteText(source / "qrels/test.tsv", qrels);
  Result<ImportReport> report = Import(CollectionFormat::kBeir, source);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  // The duplicate-id warning from the corpus comes first, then 49 of the 60 judgements.
  ASSERT_EQ(report->warnings.size(), 51u);
  EXPECT_EQ(report->warnings[1], "qrels/test.tsv:2: unknown document id missing-0 (skipped)");
  EXPECT_EQ(report->warnings.back(), "... and 11 more warnings");
  EXPECT_EQ(report->queries, 0);
  EXPECT_EQ(report->queries_without_judgements, 4);
}

TEST_F(ImportTest, InvalidUtf8IsReplacedWithOneWarning) {
  const fs::path source = CopyFixture("beir-mini");
  WriteText(source / "corpus.jsonl",
            "{\"_id\": \"ok\", \"text\": \"fine\"}\n"
            "{\"_id\": \"bad\", \"title\": \"caf\xE9\", \"text\": \"na\xEFve \xFF\"}\n"
            "{\"_id\": \"worse\", \"text\": \"\xC3\"}\n");
  Result<ImportReport> report = Import(CollectionFormat::kBeir, source);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_THAT(report->warnings,
              Contains("corpus.jsonl:2: invalid UTF-8 replaced with U+FFFD (this line and maybe "
                       "later ones)"));
  int utf8_warnings = 0;
  for (const std::string& w : report->warnings) utf8_warnings += w.find("UTF-8") != w.npos;
  EXPECT_EQ(utf8_warnings, 1);
  EXPECT_EQ(ReadText(out_ / "corpus/bad.md"), "# caf\uFFFD\n\nna\uFFFDve \uFFFD\n");
}

TEST_F(ImportTest, ReimportKeepsUnchangedFilesAndRemovesDroppedOnes) {
  const fs::path source = CopyFixture("beir-mini");
  ASSERT_TRUE(Import(CollectionFormat::kBeir, source).ok());
  // Backdate every file: a rewrite, even with equal bytes, would show as a new mtime.
  const auto past = fs::file_time_type::clock::now() - std::chrono::hours(24);
  std::vector<fs::path> files = {out_ / "suite.yaml", out_ / ".kebabignore"};
  for (const auto& entry : fs::directory_iterator(out_ / "corpus")) files.push_back(entry.path());
  for (const fs::path& file : files) fs::last_write_time(file, past);
  WriteText(out_ / "corpus/notes.txt", "not ours");

  Result<ImportReport> again = Import(CollectionFormat::kBeir, source);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->files_written, 0);
  EXPECT_EQ(again->files_unchanged, 6);
  EXPECT_EQ(again->files_removed, 0);
  for (const fs::path& file : files) EXPECT_EQ(fs::last_write_time(file), past) << file;

  // Drop fm and 42 (lines 4-5) and edit k1's text.
  std::istringstream corpus(ReadText(source / "corpus.jsonl"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(corpus, line);) lines.push_back(line);
  lines.erase(lines.begin() + 3, lines.begin() + 5);
  lines[2] = R"({"_id": "k1", "title": "한국어 문서 제목", "text": "바뀐 본문"})";
  std::string edited;
  for (const std::string& line : lines) edited += line + "\n";
  WriteText(source / "corpus.jsonl", edited);

  Result<ImportReport> edited_report = Import(CollectionFormat::kBeir, source);
  ASSERT_TRUE(edited_report.ok()) << edited_report.status().ToString();
  EXPECT_EQ(edited_report->documents, 4);
  EXPECT_EQ(edited_report->files_written, 1);
  EXPECT_EQ(edited_report->files_unchanged, 3);
  EXPECT_EQ(edited_report->files_removed, 2);
  EXPECT_FALSE(fs::exists(out_ / "corpus/fm.md"));
  EXPECT_FALSE(fs::exists(out_ / "corpus/42.md"));
  EXPECT_TRUE(fs::exists(out_ / "corpus/notes.txt"));
  EXPECT_EQ(ReadText(out_ / "corpus/k1.md"), "# 한국어 문서 제목\n\n바뀐 본문\n");
  EXPECT_NE(fs::last_write_time(out_ / "corpus/k1.md"), past);
  EXPECT_EQ(fs::last_write_time(out_ / "corpus/d1.md"), past);
  EXPECT_EQ(fs::last_write_time(out_ / "suite.yaml"), past);  // no judgement touched them
}

TEST_F(ImportTest, TrecFixtureBecomesCorpusAndSuite) {
  Result<ImportReport> report = Import(CollectionFormat::kTrec, kFixtures / "trec-mini");
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->documents, 3);
  EXPECT_EQ(report->queries, 2);
  EXPECT_EQ(report->judgements, 3);
  EXPECT_EQ(report->queries_without_judgements, 1);
  EXPECT_THAT(report->warnings,
              ElementsAre("ignored 1 file(s) that are neither documents (<DOC>), topics (<top>) "
                          "nor qrels (named qrels*): README; compressed files must be unpacked "
                          "first",
                          "qrels.401-403.txt:5: unknown document id NOSUCHDOC (skipped)"));

  EXPECT_EQ(ReadText(out_ / "corpus/LA010189-0001.md"),
            "# Germany's foreign minorities\n\n"
            "Foreign minorities in Germany &amp; their rights were debated.\n\n"
            "The Kurds &#38; the Turks asked for &lt;dual&gt; citizenship.\n");
  EXPECT_EQ(ReadText(out_ / "corpus/LA010189-0002.md"),
            "Hydroelectric projects along the river were halted.\n\n"
            "A second text section about dams.\n");
  EXPECT_EQ(ReadText(out_ / "corpus/FR%2F940104-0-00001.md"),
            "# 한국어 제목\n\nFR940104-0-00001\n"
            "Body without a TEXT tag: Department of Energy hydroelectric licensing.\n");

  std::string name;
  std::map<std::string, std::string> queries;
  using E = std::vector<std::pair<std::string, int>>;
  EXPECT_THAT(LoadSuite(report->suite_path, &name, &queries),
              ElementsAre(Pair("401", E{{"corpus/LA010189-0001.md", 1},
                                        {"corpus/FR%2F940104-0-00001.md", 1}}),
                          Pair("402", E{{"corpus/LA010189-0002.md", 2}})));
  EXPECT_EQ(name, "trec-mini");
  EXPECT_EQ(queries["401"], "foreign minorities, Germany");
  EXPECT_EQ(queries["402"], "hydroelectric projects");
}

TEST_F(ImportTest, TrecErrorsNameFileAndLine) {
  const fs::path source = CopyFixture("trec-mini");
  const auto expect_error = [&](const std::string& message) {
    Result<ImportReport> report = Import(CollectionFormat::kTrec, source);
    ASSERT_FALSE(report.ok()) << message;
    EXPECT_EQ(report.status().code(), ErrorCode::kInvalidInput);
    EXPECT_THAT(report.status().message(), StartsWith(message));
  };

  WriteText(source / "docs/broken.sgml", "\n\n<DOC>\n<TEXT>no number</TEXT>\n</DOC>\n");
  expect_error("docs/broken.sgml:3: <DOC> without <DOCNO>");
  WriteText(source / "docs/broken.sgml", "<DOC><DOCNO>x</DOCNO><TEXT>never closed\n");
  expect_error("docs/broken.sgml:1: <DOC> without </DOC>");
  fs::remove(source / "docs/broken.sgml");

  const std::string qrels = ReadText(source / "qrels.401-403.txt");
  WriteText(source / "qrels.401-403.txt", qrels + "401 0 LA010189-0001\n");
  expect_error("qrels.401-403.txt:7: expected 4 fields (query iteration docno relevance), got 3");
  WriteText(source / "qrels.401-403.txt", "401 0 LA010189-0001 yes\n");
  expect_error("qrels.401-403.txt:1: relevance \"yes\" is not an integer");
  WriteText(source / "qrels.401-403.txt", qrels);

  WriteText(source / "topics.401-403", "<top>\n<num> Number: 401\n<desc> no title\n</top>\n");
  expect_error("topics.401-403:1: topic 401 has no <title> text");

  fs::remove(source / "qrels.401-403.txt");
  Result<ImportReport> report = Import(CollectionFormat::kTrec, source);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), ErrorCode::kInvalidInput);
  EXPECT_THAT(report.status().message(), HasSubstr("has no qrels file"));
  EXPECT_THAT(report.status().hint(), HasSubstr("qrels file named qrels*"));
}

TEST_F(ImportTest, TrecNeedsDocumentsAndTopics) {
  const fs::path source = tmp_ / "trec";
  WriteText(source / "qrels", "1 0 d 1\n");
  WriteText(source / "topics", "<top><num>1<title>q</top>\n");
  Result<ImportReport> report = Import(CollectionFormat::kTrec, source);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr("has no document file (none contains <DOC>)"));

  WriteText(source / "docs", "<doc><docno>d</docno><text>words</text></doc>\n");
  WriteText(source / ".hidden/more", "<DOC><DOCNO>h</DOCNO></DOC>\n");  // hidden: not read
  fs::remove(source / "topics");
  report = Import(CollectionFormat::kTrec, source);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr("has no topics file (none contains <top>)"));

  WriteText(source / "topics", "<top><num>1<title>q</top>\n");
  report = Import(CollectionFormat::kTrec, source);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->documents, 1);
  EXPECT_EQ(report->judgements, 1);
}

// The real collection: /work/shared/data/ir/cranfield beside the repository, never copied in.
TEST_F(ImportTest, CranfieldImportsFast) {
  const fs::path source = fs::path(KEBAB_SOURCE_DIR) / "../shared/data/ir/cranfield";
  if (!fs::exists(source / "corpus.jsonl")) {
    GTEST_SKIP() << "Cranfield (BEIR layout) not found at " << source.string();
  }
  const auto start = std::chrono::steady_clock::now();
  Result<ImportReport> report =
      ImportCollection({.source = source.string(), .out_dir = out_.string(), .name = "cranfield"});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  RecordProperty("import_seconds", std::to_string(seconds));
  std::cout << "Cranfield import: " << seconds << " s\n";

  EXPECT_EQ(report->documents, 1400);
  EXPECT_EQ(report->queries, 225);
  EXPECT_EQ(report->queries_without_judgements, 0);
  EXPECT_EQ(report->judgements, 1612);
  // Two records are empty ({"_id": "471", "title": "", "text": ""}); 995 is even judged relevant.
  EXPECT_THAT(report->warnings, ElementsAre("corpus.jsonl:471: document 471 is empty",
                                            "corpus.jsonl:995: document 995 is empty"));
  EXPECT_EQ(ReadText(out_ / "corpus/995.md"), "");
  EXPECT_EQ(std::distance(fs::directory_iterator(out_ / "corpus"), fs::directory_iterator()), 1400);

  std::string name;
  std::map<std::string, std::string> queries;
  const SuiteEntries suite = LoadSuite(report->suite_path, &name, &queries);
  ASSERT_EQ(suite.size(), 225u);
  std::map<int, int> grades;
  for (const auto& [id, expected] : suite) {
    for (const auto& [path, grade] : expected) ++grades[grade];
  }
  EXPECT_THAT(grades, ElementsAre(Pair(1, 363), Pair(2, 734), Pair(3, 387), Pair(4, 128)));
  EXPECT_EQ(suite.front().first, "1");
  EXPECT_EQ(suite.front().second.front(), std::make_pair(std::string("corpus/184.md"), 3));
  EXPECT_EQ(queries["1"],
            "what similarity laws must be obeyed when constructing aeroelastic models of heated "
            "high speed aircraft .");
  EXPECT_THAT(ReadText(out_ / "corpus/1.md"),
              StartsWith("# experimental investigation of the aerodynamics of a wing in a "
                         "slipstream .\n\nexperimental investigation"));

  // A re-import parses everything and compares every file but writes none: what it costs is
  // the importer's own work. The first import adds 1,400 file creations, which on a busy disk
  // take what they take, so only its figure is printed.
  const auto again_start = std::chrono::steady_clock::now();
  Result<ImportReport> again =
      ImportCollection({.source = source.string(), .out_dir = out_.string(), .name = "cranfield"});
  const double again_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - again_start).count();
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  std::cout << "Cranfield re-import: " << again_seconds << " s\n";
  EXPECT_EQ(again->files_written, 0);
  EXPECT_EQ(again->files_unchanged, 1400);
  EXPECT_LT(again_seconds, 1.0 * sanitizer::kTimeBoundScale);
}

}  // namespace
}  // namespace kebab::eval
