// Blocks, spans and heading paths produced by ParseMarkdown for the fixture files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <set>

#include "core/ids.h"
#include "parse/markdown.h"
#include "parse/parse_test_util.h"

namespace kebab::parse {
namespace {

using ::testing::ElementsAre;
using testing::ExpectAllSpansHold;
using ::testing::IsEmpty;
using testing::ParseText;
using testing::ReadFixture;

using Path = std::vector<std::string>;

SourceSpan Lines(uint32_t first, uint32_t last) {
  return SourceSpan::Lines(first, last);
}

std::vector<BlockKind> Kinds(const CanonicalDocument& doc) {
  std::vector<BlockKind> kinds;
  for (const Block& block : doc.blocks) kinds.push_back(block.kind);
  return kinds;
}

TEST(MarkdownBlocksTest, SimpleNote) {
  std::string source = ReadFixture("simple.md");
  CanonicalDocument doc = ParseText(source, "notes/simple.md");
  ASSERT_THAT(Kinds(doc),
              ElementsAre(BlockKind::kHeading, BlockKind::kParagraph, BlockKind::kHeading,
                          BlockKind::kParagraph, BlockKind::kList, BlockKind::kParagraph));
  const auto& b = doc.blocks;
  EXPECT_EQ(b[0].level, 1);
  EXPECT_EQ(b[0].text, "Kebab notes");
  EXPECT_EQ(b[0].span, Lines(1, 1));
  EXPECT_EQ(b[1].text,
            "Kebab is a local-first knowledge base.\nIt cites the exact lines of every answer.");
  EXPECT_EQ(b[1].span, Lines(3, 4));
  EXPECT_EQ(b[2].span, Lines(6, 6));
  EXPECT_EQ(b[3].text, "Install the kebab binary and run ingest.");
  EXPECT_EQ(b[4].span, Lines(10, 12));  // the blank line after the list is not cited
  EXPECT_FALSE(b[4].ordered);
  EXPECT_THAT(b[4].items, ElementsAre("fast", "local", "private"));
  // The thematic break on line 14 makes no block.
  EXPECT_EQ(b[5].text, "Closing words with bold text.");
  EXPECT_EQ(b[5].span, Lines(16, 16));
  EXPECT_EQ(b[5].heading_path, (Path{"Kebab notes", "Setup"}));
  for (size_t i = 0; i < b.size(); ++i) EXPECT_EQ(b[i].ordinal, static_cast<int>(i));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownBlocksTest, HeadingPathsFollowTheHeadingStack) {
  std::string source = ReadFixture("nested_headings.md");
  CanonicalDocument doc = ParseText(source);
  std::vector<std::pair<std::string, Path>> paths;
  for (const Block& block : doc.blocks) {
    if (block.kind == BlockKind::kParagraph) paths.emplace_back(block.text, block.heading_path);
  }
  EXPECT_THAT(
      paths,
      ElementsAre(
          std::pair<std::string, Path>{"Intro paragraph.", {"Guide"}},
          std::pair<std::string, Path>{"Install steps.", {"Guide", "Install"}},
          std::pair<std::string, Path>{"Use the package manager.", {"Guide", "Install", "Linux"}},
          std::pair<std::string, Path>{"Use Homebrew.", {"Guide", "Install", "macOS"}},
          std::pair<std::string, Path>{"Run the tool.", {"Guide", "Usage"}},
          std::pair<std::string, Path>{"Extra material.", {"Appendix"}},
          std::pair<std::string, Path>{"Skipped levels are fine.", {"Appendix", "Deep note"}},
          std::pair<std::string, Path>{"Level two again.", {"Appendix", "Back to two"}}));
  // A heading's own path ends with itself.
  for (const Block& block : doc.blocks) {
    if (block.kind != BlockKind::kHeading) continue;
    ASSERT_FALSE(block.heading_path.empty());
    EXPECT_EQ(block.heading_path.back(), block.text);
  }
  EXPECT_EQ(doc.blocks[12].level, 4);
  EXPECT_EQ(doc.blocks[12].heading_path, (Path{"Appendix", "Deep note"}));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownBlocksTest, CodeBlocksAndTables) {
  std::string source = ReadFixture("code_table.md");
  CanonicalDocument doc = ParseText(source);
  ASSERT_THAT(Kinds(doc), ElementsAre(BlockKind::kHeading, BlockKind::kCode, BlockKind::kParagraph,
                                      BlockKind::kTable, BlockKind::kTable, BlockKind::kCode,
                                      BlockKind::kParagraph, BlockKind::kCode, BlockKind::kCode));
  const auto& b = doc.blocks;
  EXPECT_EQ(b[1].lang, "rust");  // first word of `rust title="main.rs"`
  EXPECT_EQ(b[1].text, "fn main() {\n    println!(\"hello\");\n}");
  EXPECT_EQ(b[1].span, Lines(3, 7));  // fences included
  // A table right under a paragraph line splits it; both get their own lines.
  EXPECT_EQ(b[2].text, "Some text before a table");
  EXPECT_EQ(b[2].span, Lines(9, 9));
  EXPECT_THAT(b[3].headers, ElementsAre("name", "value"));
  EXPECT_THAT(b[3].rows, ElementsAre(ElementsAre("alpha", "1"), ElementsAre("beta", "2")));
  EXPECT_EQ(b[3].span, Lines(10, 13));
  EXPECT_THAT(b[4].headers, ElementsAre("only", "header"));
  EXPECT_THAT(b[4].rows, IsEmpty());
  EXPECT_EQ(b[4].span, Lines(15, 16));
  EXPECT_EQ(b[5].text, "indented code line one\nindented code line two");
  EXPECT_EQ(b[5].lang, "");
  EXPECT_EQ(b[5].span, Lines(18, 19));  // trailing blank lines not cited
  EXPECT_EQ(b[6].span, Lines(22, 22));
  EXPECT_EQ(b[7].text, "tilde fence");
  EXPECT_EQ(b[7].span, Lines(24, 26));
  // An unclosed fence runs to the end of the file, minus trailing blank lines.
  EXPECT_EQ(b[8].lang, "python");
  EXPECT_EQ(b[8].text, "unclosed fence body");
  EXPECT_EQ(b[8].span, Lines(28, 29));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownBlocksTest, TaskListsAndNestedLists) {
  std::string source = ReadFixture("tasks.md");
  CanonicalDocument doc = ParseText(source);
  ASSERT_THAT(Kinds(doc), ElementsAre(BlockKind::kHeading, BlockKind::kList, BlockKind::kList));
  const Block& tasks = doc.blocks[1];
  EXPECT_FALSE(tasks.ordered);
  EXPECT_EQ(tasks.span, Lines(3, 8));
  EXPECT_THAT(tasks.items,
              ElementsAre("[ ] write the parser",
                          "[x] read the spec\n  nested detail\n    deeper detail\n  second detail",
                          "plain item"));
  const Block& steps = doc.blocks[2];
  EXPECT_TRUE(steps.ordered);
  EXPECT_EQ(steps.span, Lines(10, 14));
  EXPECT_THAT(steps.items, ElementsAre("first", "second\ncontinued paragraph", "third"));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownBlocksTest, QuotesImagesHtmlAndInlines) {
  std::string source = ReadFixture("quote_image.md");
  CanonicalDocument doc = ParseText(source);
  ASSERT_THAT(Kinds(doc),
              ElementsAre(BlockKind::kParagraph, BlockKind::kQuote, BlockKind::kImageRef,
                          BlockKind::kImageRef, BlockKind::kParagraph, BlockKind::kHeading,
                          BlockKind::kParagraph, BlockKind::kParagraph));
  const auto& b = doc.blocks;
  EXPECT_THAT(b[0].heading_path, IsEmpty());
  EXPECT_EQ(b[1].text, "A quoted line\nwith a second line\nlazy continuation");
  EXPECT_EQ(b[1].span, Lines(3, 5));
  EXPECT_EQ(b[2].src, "img/arch.png");
  EXPECT_EQ(b[2].alt, "Architecture diagram");
  EXPECT_EQ(b[2].span, Lines(7, 7));
  EXPECT_EQ(b[3].src, "https://img.example/badge.svg");  // an image inside a link
  EXPECT_EQ(b[3].alt, "Badge");
  EXPECT_EQ(b[4].text, "<div class=\"note\">\nraw <b>html</b> block\n</div>");
  EXPECT_EQ(b[4].span, Lines(11, 13));
  EXPECT_EQ(b[5].text, "Setext title");
  EXPECT_EQ(b[5].level, 1);
  EXPECT_EQ(b[5].span, Lines(15, 16));
  // Strikethrough keeps its text, a hard break is a line break, inline HTML is dropped.
  EXPECT_EQ(b[6].text, "Text with struck words, a hard\nbreak, and www.example.com autolink.");
  EXPECT_EQ(b[6].span, Lines(18, 19));
  EXPECT_EQ(b[7].text, "<!-- a comment -->");
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownBlocksTest, InlineTextKeepsCodeLinksAndEmphasis) {
  CanonicalDocument doc = ParseText(
      "Use `make -j2`, see [the *docs*](https://x.example) and <kbd>Ctrl</kbd>.\n"
      "Then &amp; \\*escaped\\* text.\n");
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].text, "Use make -j2, see the docs and Ctrl.\nThen & *escaped* text.");
}

TEST(MarkdownBlocksTest, MdxSkipsImportsAndExportsButKeepsJsx) {
  std::string source = ReadFixture("page.mdx");
  CanonicalDocument doc = ParseText(source, "docs/page.mdx");
  ASSERT_THAT(Kinds(doc), ElementsAre(BlockKind::kHeading, BlockKind::kParagraph,
                                      BlockKind::kParagraph, BlockKind::kParagraph));
  EXPECT_EQ(doc.blocks[0].span, Lines(8, 8));
  EXPECT_EQ(doc.blocks[1].text, "Regular paragraph with {props.count} items.");
  EXPECT_EQ(doc.blocks[2].text, "<Callout type=\"warning\">\nBe careful with JSX.\n</Callout>");
  EXPECT_EQ(doc.blocks[2].span, Lines(12, 14));
  EXPECT_EQ(doc.blocks[3].text, "Last paragraph.");
  EXPECT_EQ(doc.blocks[3].span, Lines(18, 18));
  ExpectAllSpansHold(doc, source);

  // The same text as plain Markdown keeps the import lines as a paragraph.
  CanonicalDocument md = ParseText(source, "docs/page.md");
  ASSERT_FALSE(md.blocks.empty());
  EXPECT_EQ(md.blocks[0].span, Lines(1, 2));
  EXPECT_THAT(md.blocks[0].text, ::testing::StartsWith("import { Callout }"));
}

TEST(MarkdownBlocksTest, CrlfLineEndingsKeepSpans) {
  std::string source = ReadFixture("crlf.md");
  ASSERT_NE(source.find("\r\n"), std::string::npos) << "crlf.md lost its CRLF line endings";
  CanonicalDocument doc = ParseText(source);
  ASSERT_THAT(Kinds(doc), ElementsAre(BlockKind::kHeading, BlockKind::kParagraph, BlockKind::kList,
                                      BlockKind::kCode, BlockKind::kTable));
  const auto& b = doc.blocks;
  EXPECT_EQ(b[1].text, "First line\nsecond line");
  EXPECT_EQ(b[1].span, Lines(3, 4));
  EXPECT_EQ(b[2].span, Lines(6, 7));
  EXPECT_EQ(b[3].text, "echo hi");
  EXPECT_EQ(b[3].span, Lines(9, 11));
  EXPECT_EQ(b[4].span, Lines(13, 15));
  for (const Block& block : b) {
    EXPECT_EQ(block.text.find('\r'), std::string::npos);
    for (const std::string& item : block.items) EXPECT_EQ(item.find('\r'), std::string::npos);
  }
  ExpectAllSpansHold(doc, source);

  // Same blocks and spans as the LF version.
  std::string lf;
  for (char c : source) {
    if (c != '\r') lf.push_back(c);
  }
  CanonicalDocument lf_doc = ParseText(lf);
  ASSERT_EQ(lf_doc.blocks.size(), b.size());
  for (size_t i = 0; i < b.size(); ++i) {
    EXPECT_EQ(lf_doc.blocks[i].span, b[i].span);
    EXPECT_EQ(lf_doc.blocks[i].PayloadJson(), b[i].PayloadJson());
  }
}

TEST(MarkdownBlocksTest, EveryFixtureCitesExactLines) {
  for (const char* name :
       {"simple.md", "nested_headings.md", "code_table.md", "tasks.md", "quote_image.md",
        "korean.md", "mixed.md", "page.mdx", "yaml_front_matter.md", "toml_front_matter.md",
        "bom_front_matter.md", "malformed_front_matter.md", "unterminated.md", "crlf.md"}) {
    SCOPED_TRACE(name);
    std::string source = ReadFixture(name);
    CanonicalDocument doc = ParseText(source, name);
    EXPECT_FALSE(doc.blocks.empty());
    ExpectAllSpansHold(doc, source);
    std::set<std::string> ids;
    for (size_t i = 0; i < doc.blocks.size(); ++i) {
      EXPECT_EQ(doc.blocks[i].ordinal, static_cast<int>(i));
      EXPECT_EQ(doc.blocks[i].block_id.size(), 32u);
      ids.insert(doc.blocks[i].block_id);
    }
    EXPECT_EQ(ids.size(), doc.blocks.size()) << "block ids must be unique";
  }
}

TEST(MarkdownBlocksTest, BlockIdsFollowTheRecipeAndAreDeterministic) {
  std::string source = ReadFixture("nested_headings.md");
  CanonicalDocument first = ParseText(source, "guide.md");
  CanonicalDocument second = ParseText(source, "guide.md");
  ASSERT_EQ(first.blocks.size(), second.blocks.size());
  EXPECT_EQ(first.doc_id, DocId("guide.md", "asset-guide.md", kMarkdownParserVersion));
  EXPECT_EQ(first.doc_id, second.doc_id);
  for (size_t i = 0; i < first.blocks.size(); ++i) {
    const Block& block = first.blocks[i];
    EXPECT_EQ(block.block_id, second.blocks[i].block_id);
    EXPECT_EQ(block.block_id, BlockId(first.doc_id, BlockKindName(block.kind), block.heading_path,
                                      block.ordinal, block.span));
  }
  // Another path (so another doc_id) gives other block ids.
  CanonicalDocument moved = ParseText(source, "moved/guide.md");
  EXPECT_NE(moved.doc_id, first.doc_id);
  EXPECT_NE(moved.blocks[0].block_id, first.blocks[0].block_id);
}

TEST(MarkdownBlocksTest, EmptyAndBlankDocumentsHaveNoBlocks) {
  EXPECT_THAT(ParseText("").blocks, IsEmpty());
  EXPECT_THAT(ParseText("\n\n  \n").blocks, IsEmpty());
  EXPECT_THAT(ParseText("---\n\n***\n").blocks, IsEmpty());
}

TEST(MarkdownBlocksTest, HtmlBlocksCiteAllTheirLines) {
  std::string source = "<!--\nnote\n-->\n\n<pre>\nkept\n</pre>\nafter\n\n<!-- one line -->\n";
  CanonicalDocument doc = ParseText(source);
  ASSERT_EQ(doc.blocks.size(), 4u);
  EXPECT_EQ(doc.blocks[0].span, Lines(1, 3));
  EXPECT_EQ(doc.blocks[1].span, Lines(5, 7));
  EXPECT_EQ(doc.blocks[2].span, Lines(8, 8));
  EXPECT_EQ(doc.blocks[3].span, Lines(10, 10));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownBlocksTest, OverwideRowsTurnTablesIntoText) {
  std::string wide(200, '|');
  std::string source = "| a | b |\n|---|---|\n| 1 | 2 |\n\n" + wide + "\n";
  CanonicalDocument doc = ParseText(source);
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kParagraph);
  EXPECT_EQ(doc.blocks[0].span, Lines(1, 3));
  EXPECT_THAT(doc.warnings,
              ElementsAre("tables left as text: a line has more than 128 '|' characters"));
}

TEST(MarkdownBlocksTest, PathologicalInputsStayFast) {
  auto started = std::chrono::steady_clock::now();
  std::vector<std::string> inputs = {
      std::string(100000, '>') + " deep\n",
      std::string(100000, '[') + "a" + std::string(100000, ']') + "\n",
      "|a|b|\n|-|-|\n" + std::string(40000, '|') + "x\n",
  };
  std::string lists;
  for (int i = 0; i < 2000; ++i) lists += std::string(2 * i, ' ') + "- x\n";
  inputs.push_back(lists);
  std::string emphasis;
  for (int i = 0; i < 50000; ++i) emphasis += "*a _b ";
  inputs.push_back(emphasis);
  for (const std::string& input : inputs) {
    CanonicalDocument doc = ParseText(input);
    EXPECT_FALSE(doc.blocks.empty());
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
            10.0);
}

TEST(MarkdownBlocksTest, LoneCarriageReturnsCountAsLineEnds) {
  std::string source = "# Old Mac\r\rFirst\rSecond\r";
  CanonicalDocument doc = ParseText(source);
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[1].span, Lines(3, 4));
  ExpectAllSpansHold(doc, source);
}

}  // namespace
}  // namespace kebab::parse
