#include "parse/internal/pdf.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "parse/extractor.h"

namespace kebab::parse {
namespace {

using internal::AppendPageBlocks;
using internal::TitleFromText;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Points KEBAB_PDF_WORKER at `path` for one test.
class WorkerOverride {
 public:
  explicit WorkerOverride(const std::string& path) {
    ::setenv("KEBAB_PDF_WORKER", path.c_str(), 1);
  }
  ~WorkerOverride() { ::unsetenv("KEBAB_PDF_WORKER"); }
};

// A stand-in worker: a shell script, for the failures the real one cannot be made to show.
std::string Script(const std::string& name, const std::string& body) {
  const std::string path = ::testing::TempDir() + "/kebab-pdf-" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

ExtractInput Input(std::string_view bytes, int max_seconds = 30) {
  ExtractInput in{bytes, "papers/x.pdf", "asset1", "2026-01-01T00:00:00Z"};
  in.max_seconds = max_seconds;
  return in;
}

TEST(PdfPageBlocksTest, ParagraphsWithPageSpansAndCharacterRanges) {
  CanonicalDocument doc;
  const std::string text =
      "First para line one\nline two of it.\n\nSecond para here, \xEC\x95\x88.\n\n\f";
  AppendPageBlocks(4, text, &doc);
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].text, "First para line one\nline two of it.");
  EXPECT_EQ(doc.blocks[0].span.kind, SourceSpan::Kind::kPage);
  EXPECT_EQ(doc.blocks[0].span.page, 4u);
  EXPECT_EQ(doc.blocks[0].span.char_start, 0u);
  EXPECT_EQ(doc.blocks[0].span.char_end, 35u);
  EXPECT_EQ(doc.blocks[1].text, "Second para here, \xEC\x95\x88.");
  EXPECT_EQ(doc.blocks[1].span.char_start, 37u);
  EXPECT_EQ(doc.blocks[1].span.char_end, 57u);  // the Hangul syllable counts one
  EXPECT_EQ(doc.blocks[1].ordinal, 1);
  EXPECT_TRUE(doc.warnings.empty());
}

TEST(PdfPageBlocksTest, LineEndHyphenationIsJoinedAndOtherHyphensStay) {
  CanonicalDocument doc;
  AppendPageBlocks(1, "The informa-\ntion age is well-\nknown and self-\nMade: x-\n2 stays.", &doc);
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].text, "The information age is wellknown and self-\nMade: x-\n2 stays.");
}

TEST(PdfPageBlocksTest, APageWithoutUsableTextNeedsOcr) {
  CanonicalDocument doc;
  AppendPageBlocks(7, " \n\f  12 \n", &doc);
  EXPECT_TRUE(doc.blocks.empty());
  EXPECT_EQ(doc.warnings, std::vector<std::string>{"page 7 has no usable text (needs OCR)"});
}

TEST(PdfTitleTest, ARunningHeadLosesItsPageNumberAndLayoutGap) {
  // The first line of an OCR'd page of r-intro.pdf.
  EXPECT_EQ(TitleFromText("Chapter 1: Introduction and preliminaries               5\n"
                          "1.1 The R environment\n"),
            "Chapter 1: Introduction and preliminaries");
  EXPECT_EQ(TitleFromText("12\t  An Introduction to R\nmore"), "An Introduction to R");
  EXPECT_EQ(TitleFromText("xii\n\nPreface   xii"), "Preface");
  // A number that belongs to the title stays.
  EXPECT_EQ(TitleFromText("Windows 10 setup\nnext"), "Windows 10 setup");
  EXPECT_EQ(TitleFromText("Version 4.2.2\n"), "Version 4.2.2");
  EXPECT_EQ(TitleFromText("MPICH User\u2019s Guide*\nVersion 4.0.2"), "MPICH User\u2019s Guide");
}

TEST(PdfTitleTest, ALineThatEndsMidPhraseGoesOn) {
  // refman.pdf of r-doc-pdf opens with its title on two lines and no Title in its info.
  EXPECT_EQ(TitleFromText("R: A Language and Environment for\nStatistical Computing\n"
                          "Reference Index\nThe R Core Team"),
            "R: A Language and Environment for Statistical Computing");
  EXPECT_EQ(TitleFromText("Notes on\nR:\nA Programming Environment"),
            "Notes on R: A Programming Environment");
  EXPECT_EQ(TitleFromText("An Introduction to R\nNotes on R"), "An Introduction to R");
}

TEST(PdfTitleTest, ALongLineIsCutAtAWord) {
  const std::string title = TitleFromText(
      "A very long first line that goes on and on about many things well past the length of "
      "any title\n");
  EXPECT_EQ(title, "A very long first line that goes on and on about many things well past the");
  EXPECT_EQ(TitleFromText("데이터베이스 입문   3\n"), "데이터베이스 입문");
  EXPECT_EQ(TitleFromText("\n\n"), "");
}

TEST(PdfExtractorTest, TheRealWorkerReadsPagesTitleAndLanguage) {
  WorkerOverride worker(KEBAB_PDF_WORKER_PATH);
  const std::string bytes = ReadFile(std::string(KEBAB_TESTDATA_DIR) + "/parse/pdf/two-pages.pdf");
  const Extractor* pdf = ExtractorFor(MediaKind::kPdf);
  ASSERT_NE(pdf, nullptr);
  Result<CanonicalDocument> doc = pdf->Extract(Input(bytes));
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_EQ(doc->title, "Garden findings");
  EXPECT_EQ(doc->lang, "en");
  EXPECT_EQ(doc->parser_version, "pdf-poppler-v3");
  ASSERT_EQ(doc->blocks.size(), 2u);
  EXPECT_EQ(doc->blocks[0].span.page, 1u);
  EXPECT_NE(doc->blocks[0].text.find("zebrafinch"), std::string::npos);
  EXPECT_EQ(doc->blocks[1].span.page, 2u);
  EXPECT_FALSE(doc->blocks[0].block_id.empty());
  EXPECT_NE(doc->blocks[0].block_id, doc->blocks[1].block_id);
  EXPECT_EQ(doc->warnings, std::vector<std::string>{"page 3 has no usable text (needs OCR)"});

  Result<CanonicalDocument> garbage = pdf->Extract(Input("%PDF-1.4 nothing else"));
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(garbage.status().message().rfind("damaged: ", 0), 0u) << garbage.status().message();
}

// outline.pdf (tests/tools/make_pdf.py), five pages: "1 Walrus" at page 2 holding "1.1 Diet"
// at page 3 (through a named destination); an untitled entry at page 4 holding "2 Seals",
// which holds "2.1 Ice", both at page 4.
TEST(PdfExtractorTest, TheOutlineGivesEachPageItsHeadingPath) {
  WorkerOverride worker(KEBAB_PDF_WORKER_PATH);
  const std::string bytes = ReadFile(std::string(KEBAB_TESTDATA_DIR) + "/parse/pdf/outline.pdf");
  Result<CanonicalDocument> doc = ExtractorFor(MediaKind::kPdf)->Extract(Input(bytes));
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  ASSERT_EQ(doc->blocks.size(), 5u);
  for (size_t i = 0; i < doc->blocks.size(); ++i) EXPECT_EQ(doc->blocks[i].span.page, i + 1);
  using Path = std::vector<std::string>;
  EXPECT_EQ(doc->blocks[0].heading_path, Path{});  // before the first entry
  EXPECT_EQ(doc->blocks[1].heading_path, Path({"1 Walrus"}));
  EXPECT_EQ(doc->blocks[2].heading_path, Path({"1 Walrus", "1.1 Diet"}));
  // Where a section and its first subsection start on one page, the page reads both; the
  // untitled entry adds no level; a page after the last entry keeps it.
  EXPECT_EQ(doc->blocks[3].heading_path, Path({"2 Seals", "2.1 Ice"}));
  EXPECT_EQ(doc->blocks[4].heading_path, Path({"2 Seals", "2.1 Ice"}));
}

TEST(PdfExtractorTest, DoctorsCheckFindsTheWorkerOrSaysHowToInstallIt) {
  const Extractor* pdf = ExtractorFor(MediaKind::kPdf);
  {
    WorkerOverride worker(KEBAB_PDF_WORKER_PATH);
    Result<std::string> found = pdf->Check();
    ASSERT_TRUE(found.ok()) << found.status().ToString();
    EXPECT_EQ(found->rfind("kebab-pdf at " + std::string(KEBAB_PDF_WORKER_PATH) + " (poppler ", 0),
              0u)
        << *found;
  }
  {
    WorkerOverride worker(::testing::TempDir() + "/no-such-kebab-pdf");
    Result<std::string> missing = pdf->Check();
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().code(), ErrorCode::kIoError);
    EXPECT_NE(missing.status().hint().find("KEBAB_PDF_WORKER"), std::string::npos);
  }
  {
    WorkerOverride worker(Script("not-a-reader", "echo oops >&2; exit 3"));
    Result<std::string> broken = pdf->Check();
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.status().message().find("exit 3: oops"), std::string::npos)
        << broken.status().message();
  }
  {
    // A poppler without poppler-data loses CJK text: doctor says which package brings it.
    WorkerOverride worker(
        Script("no-cmaps", R"(echo '{"kind":"version","poppler":"22.12.0","cjk_cmaps":false}')"));
    Result<std::string> no_data = pdf->Check();
    ASSERT_FALSE(no_data.ok());
    EXPECT_NE(no_data.status().message().find("lacks poppler-data"), std::string::npos)
        << no_data.status().message();
    EXPECT_NE(no_data.status().hint().find("apt-get install poppler-data"), std::string::npos);
  }
  // Markdown needs nothing outside the process.
  Result<std::string> markdown = ExtractorFor(MediaKind::kMarkdown)->Check();
  ASSERT_TRUE(markdown.ok());
  EXPECT_TRUE(markdown->empty());
}

TEST(PdfExtractorTest, AHungWorkerIsStoppedAtTheBudget) {
  WorkerOverride worker(Script("hang", "cat >/dev/null; exec sleep 60"));
  const auto started = std::chrono::steady_clock::now();
  Result<CanonicalDocument> doc = ExtractorFor(MediaKind::kPdf)->Extract(Input("%PDF", 1));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), ErrorCode::kTimeout);
}

TEST(PdfExtractorTest, ACrashedWorkerCostsOneFile) {
  WorkerOverride worker(Script("crash",
                               "cat >/dev/null; echo '{\"kind\":\"info\",\"pages\":2}'; "
                               "echo '{\"kind\":\"page\",\"page\":1,\"text\":\"x\"}'; "
                               "kill -SEGV $$"));
  Result<CanonicalDocument> doc = ExtractorFor(MediaKind::kPdf)->Extract(Input("%PDF"));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), ErrorCode::kCorrupt);
  EXPECT_NE(doc.status().message().find("crashed (signal 11) after 1 pages"), std::string::npos)
      << doc.status().message();
}

TEST(PdfExtractorTest, EncryptedAndMissingWorkerAreClearErrors) {
  {
    WorkerOverride worker(
        Script("locked",
               "cat >/dev/null; echo '{\"kind\":\"error\",\"code\":\"encrypted\",\"message\":"
               "\"needs a password\"}'; exit 1"));
    Result<CanonicalDocument> doc = ExtractorFor(MediaKind::kPdf)->Extract(Input("%PDF"));
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(doc.status().message(), "encrypted: needs a password");
  }
  WorkerOverride worker("/no/such/kebab-pdf");
  Result<CanonicalDocument> doc = ExtractorFor(MediaKind::kPdf)->Extract(Input("%PDF"));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), ErrorCode::kIoError);
  EXPECT_NE(doc.status().hint().find("KEBAB_PDF_WORKER"), std::string::npos);
}

}  // namespace
}  // namespace kebab::parse
