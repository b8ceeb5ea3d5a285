// The code extractor: symbol blocks and <top-level> glue for a language with a grammar (Python,
// Go), blank-line paragraphs for the others, and binary files refused.
#include "parse/internal/code.h"

#include <gtest/gtest.h>

namespace kebab::parse::internal {
namespace {

CanonicalDocument Extract(const std::string& path, const std::string& bytes) {
  ExtractInput in{bytes, path, "asset", "2026-11-28T00:00:00Z"};
  Result<CanonicalDocument> doc = CodeExtractor().Extract(in);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  return doc.ok() ? *std::move(doc) : CanonicalDocument();
}

TEST(CodeExtractorTest, UnitsAreBlocksAndGlueIsTopLevel) {
  const CanonicalDocument doc = Extract("app/upload.py",
                                        "import os\n"
                                        "\n"
                                        "class Uploader:\n"
                                        "    \"\"\"Sends files.\"\"\"\n"
                                        "    def send(self, f):\n"
                                        "        return retry(f)\n"
                                        "\n"
                                        "LIMIT = 3\n");
  ASSERT_EQ(doc.blocks.size(), 4u);
  const auto& b = doc.blocks;
  EXPECT_EQ(b[0].span.symbol, "<top-level>");
  EXPECT_EQ(b[0].text, "import os");
  EXPECT_EQ(b[1].span.symbol, "app.upload.Uploader");
  EXPECT_EQ(b[1].text, "class Uploader:\n    \"\"\"Sends files.\"\"\"");
  EXPECT_EQ(std::make_pair(b[1].span.start, b[1].span.end),
            std::make_pair(uint64_t{3}, uint64_t{6}));
  EXPECT_EQ(b[2].span.symbol, "app.upload.Uploader.send");
  EXPECT_EQ(b[2].text, "    def send(self, f):\n        return retry(f)");
  EXPECT_EQ(b[3].span.symbol, "<top-level>");
  EXPECT_EQ(b[3].span.start, 8u);
  for (const Block& block : b) {
    EXPECT_EQ(block.kind, BlockKind::kCode);
    EXPECT_EQ(block.span.kind, SourceSpan::Kind::kCode);
    EXPECT_EQ(block.span.lang, "python");
  }
}

TEST(CodeExtractorTest, GoUnitsAreBlocksAndGlueIsTopLevel) {
  const CanonicalDocument doc = Extract("net/up/retry.go",
                                        "package up\n"
                                        "\n"
                                        "// Retry retries.\n"
                                        "func (u *Up) Retry() error {\n"
                                        "\treturn nil\n"
                                        "}\n"
                                        "\n"
                                        "var limit = 3\n");
  ASSERT_EQ(doc.blocks.size(), 3u);
  const auto& b = doc.blocks;
  EXPECT_EQ(b[0].span.symbol, "<top-level>");
  EXPECT_EQ(b[0].text, "package up");
  EXPECT_EQ(b[1].span.symbol, "up.(*Up).Retry");
  EXPECT_EQ(b[1].text, "// Retry retries.\nfunc (u *Up) Retry() error {\n\treturn nil\n}");
  EXPECT_EQ(std::make_pair(b[1].span.start, b[1].span.end),
            std::make_pair(uint64_t{3}, uint64_t{6}));
  EXPECT_EQ(b[2].span.symbol, "<top-level>");
  EXPECT_EQ(b[2].text, "var limit = 3");
  for (const Block& block : b) EXPECT_EQ(block.span.lang, "go");
}

TEST(CodeExtractorTest, CppNamespaceLinesAreTopLevelAndItsFunctionsBlocks) {
  const CanonicalDocument doc = Extract("src/store/cache.cc",
                                        "#include \"store/cache.h\"\n"
                                        "\n"
                                        "namespace kebab::store {\n"
                                        "\n"
                                        "// Drops every entry.\n"
                                        "void Cache::Clear() {\n"
                                        "  rows_.clear();\n"
                                        "}\n"
                                        "\n"
                                        "}  // namespace kebab::store\n");
  ASSERT_EQ(doc.blocks.size(), 4u);
  const auto& b = doc.blocks;
  EXPECT_EQ(b[0].span.symbol, "<top-level>");
  EXPECT_EQ(b[1].span.symbol, "<top-level>");
  EXPECT_EQ(b[1].text, "namespace kebab::store {");
  EXPECT_EQ(b[2].span.symbol, "kebab::store::Cache::Clear");
  EXPECT_EQ(b[2].text, "// Drops every entry.\nvoid Cache::Clear() {\n  rows_.clear();\n}");
  EXPECT_EQ(std::make_pair(b[2].span.start, b[2].span.end),
            std::make_pair(uint64_t{5}, uint64_t{8}));
  EXPECT_EQ(b[3].span.symbol, "<top-level>");
  EXPECT_EQ(b[3].span.start, 10u);
  for (const Block& block : b) EXPECT_EQ(block.span.lang, "cpp");
  EXPECT_EQ(LanguageOfPath("include/cache.h").grammar, CodeLanguage::kCpp);
}

TEST(CodeExtractorTest, OtherSourcesArePlainParagraphs) {
  const CanonicalDocument doc = Extract("deploy/run.sh", "#!/bin/sh\nset -e\n\n\nmake all\n");
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].text, "#!/bin/sh\nset -e");
  EXPECT_EQ(doc.blocks[1].span.start, 5u);
  EXPECT_EQ(doc.blocks[1].span.lang, "shell");
  EXPECT_FALSE(doc.blocks[1].span.symbol.has_value());
  EXPECT_EQ(LanguageOfPath("Makefile").name, "make");
  EXPECT_EQ(LanguageOfPath("src/a.RS").name, "rust");
}

TEST(CodeExtractorTest, LanguagesComeFromSourcesOneTable) {
  EXPECT_EQ(LanguageOfPath("CMakeLists.txt").name, "cmake");
  EXPECT_EQ(LanguageOfPath("notes.txt").name, "text");  // prose: never handed to this parser
  EXPECT_EQ(LanguageOfPath("db/schema.sql").name, "sql");
  EXPECT_EQ(LanguageOfPath("src/lib.c").grammar, CodeLanguage::kC);
  EXPECT_EQ(LanguageOfPath("web/App.JSX").grammar, CodeLanguage::kJavaScript);
  EXPECT_EQ(LanguageOfPath("a.tsx").grammar, CodeLanguage::kTsx);
  EXPECT_EQ(LanguageOfPath("lib/x.kts").grammar, CodeLanguage::kKotlin);
  // A manifest is read whole even where a grammar exists for its language.
  const SourceLanguage gradle = LanguageOfPath("app/build.gradle.kts");
  EXPECT_FALSE(gradle.grammar.has_value());
  EXPECT_EQ(gradle.reader, LineReader::kManifest);
  EXPECT_EQ(LanguageOfPath("k8s/app.yml").reader, LineReader::kYaml);
  EXPECT_EQ(LanguageOfPath("Dockerfile.dev").reader, LineReader::kDockerfile);
  EXPECT_EQ(LanguageOfPath("run.zsh").reader, LineReader::kShell);
  EXPECT_EQ(LanguageOfPath("Makefile").reader, LineReader::kNone);
}

TEST(CodeExtractorTest, BinaryIsRefused) {
  ExtractInput in{std::string_view("\x7f"
                                   "ELF\0\0",
                                   6),
                  "bin/tool.py", "a", ""};
  EXPECT_EQ(CodeExtractor().Extract(in).status().code(), ErrorCode::kInvalidInput);
}

TEST(CodeExtractorTest, SyntaxErrorsAreOneWarningAFile) {
  const CanonicalDocument doc = Extract("src/app.cc",
                                        "int one() { MACRO(auto x, f()); return x +; }\n"
                                        "\n"
                                        "int two() { return (2; }\n");
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].span.symbol, "one");
  EXPECT_EQ(doc.blocks[1].span.symbol, "two");
  ASSERT_EQ(doc.warnings.size(), 1u);
  EXPECT_EQ(doc.warnings[0],
            "syntax error in one (lines 1-1) and 1 more units; indexed as written");
}

TEST(CodeExtractorTest, MacrosTheGrammarCannotExpandAreNoSyntaxErrors) {
  const CanonicalDocument doc = Extract("src/store.c",
                                        "SQLITE_API int open(const char * RESTRICT path) {\n"
                                        "  KEBAB_ASSIGN_OR_RETURN(auto db, Open(path));\n"
                                        "  return db;\n"
                                        "}\n");
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].span.symbol, "open");
  EXPECT_EQ(std::make_pair(doc.blocks[0].span.start, doc.blocks[0].span.end),
            std::make_pair(uint64_t{1}, uint64_t{4}));
  EXPECT_TRUE(doc.warnings.empty()) << doc.warnings[0];
}

}  // namespace
}  // namespace kebab::parse::internal
