// Code units found in Python and Rust sources by their tree-sitter grammars: symbols, kinds,
// lines with doc comments and decorators, heads, and units around a syntax error.
#include "parse/internal/code_units.h"

#include <gtest/gtest.h>

#include "parse/code_units_test_util.h"

namespace kebab::parse::internal {
namespace {

TEST(CodeUnitsTest, PythonFunctionsClassesMethodsAndDocstrings) {
  const std::string source =
      "import os\n"                                  // 1
      "\n"                                           // 2
      "def upload(path):\n"                          // 3
      "    \"\"\"Uploads a file, retrying.\"\"\"\n"  // 4
      "    return retry(path)\n"                     // 5
      "\n"                                           // 6
      "class Uploader:\n"                            // 7
      "    \"\"\"Sends files.\"\"\"\n"               // 8
      "    @staticmethod\n"                          // 9
      "    def send(f):\n"                           // 10
      "        pass\n";                              // 11
  auto units = ExtractCodeUnits(CodeLanguage::kPython, source, "app/upload.py");
  ASSERT_TRUE(units.ok()) << units.status().ToString();
  EXPECT_TRUE(UnitsAre(*units, {{"app.upload.upload", "function", 3, 5},
                                {"app.upload.Uploader", "class", 7, 11},
                                {"app.upload.Uploader.send", "method", 9, 11}}));
  EXPECT_EQ((*units)[0].doc, "\"\"\"Uploads a file, retrying.\"\"\"");
  EXPECT_EQ((*units)[1].doc, "\"\"\"Sends files.\"\"\"");
  // Heads end with the docstring, or with the signature when there is none.
  EXPECT_EQ((*units)[0].head_end_line, 4u);
  EXPECT_EQ((*units)[1].head_end_line, 8u);
  EXPECT_EQ((*units)[2].head_end_line, 10u);
}

TEST(CodeUnitsTest, RustItemsImplsAndDocComments) {
  const std::string source =
      "use std::time::Duration;\n"             // 1
      "\n"                                     // 2
      "/// How long to wait.\n"                // 3
      "/// Doubles each time.\n"               // 4
      "#[derive(Debug)]\n"                     // 5
      "pub struct Backoff { ms: u64 }\n"       // 6
      "\n"                                     // 7
      "impl Backoff {\n"                       // 8
      "    /// The next wait.\n"               // 9
      "    pub fn next(&mut self) -> u64 {\n"  // 10
      "        self.ms *= 2; self.ms\n"        // 11
      "    }\n"                                // 12
      "}\n"                                    // 13
      "\n"                                     // 14
      "mod tests {\n"                          // 15
      "    fn doubles() {}\n"                  // 16
      "}\n";                                   // 17
  auto units = ExtractCodeUnits(CodeLanguage::kRust, source, "src/net/retry.rs");
  ASSERT_TRUE(units.ok()) << units.status().ToString();
  EXPECT_TRUE(UnitsAre(*units, {{"net::retry::Backoff", "struct", 3, 6},
                                {"net::retry::Backoff", "impl", 8, 13},
                                {"net::retry::Backoff::next", "method", 9, 12},
                                {"net::retry::tests", "module", 15, 17},
                                {"net::retry::tests::doubles", "function", 16, 16}}));
  EXPECT_EQ((*units)[0].doc, "/// How long to wait.\n/// Doubles each time.");
  EXPECT_EQ((*units)[2].doc, "/// The next wait.");
  // A head ends on the line its body opens on; a doc comment above is in it.
  EXPECT_EQ((*units)[0].head_end_line, 6u);
  EXPECT_EQ((*units)[1].head_end_line, 8u);
  EXPECT_EQ((*units)[2].head_end_line, 10u);
  EXPECT_EQ((*units)[4].head_end_line, 16u);
}

TEST(CodeUnitsTest, UnitsAroundASyntaxErrorAreStillFound) {
  const std::string source =
      "def good():\n"
      "    return 1\n"
      "\n"
      "def broken(:\n"
      "    return\n"
      "\n"
      "def also_good():\n"
      "    return 2\n";
  auto units = ExtractCodeUnits(CodeLanguage::kPython, source, "m.py");
  ASSERT_TRUE(units.ok());
  std::vector<std::string> symbols;
  for (const CodeUnit& u : *units) symbols.push_back(u.symbol);
  EXPECT_NE(std::find(symbols.begin(), symbols.end(), "m.good"), symbols.end());
  EXPECT_NE(std::find(symbols.begin(), symbols.end(), "m.also_good"), symbols.end());
}

// The first symbol of a one-function file names its module path.
std::string ModuleOf(CodeLanguage language, std::string_view source, std::string_view path) {
  auto units = ExtractCodeUnits(language, source, path);
  if (!units.ok() || units->empty()) return "(no unit)";
  return (*units)[0].symbol;
}

TEST(CodeUnitsTest, ModulePathsFollowEachLanguagesRules) {
  EXPECT_EQ(ModuleOf(CodeLanguage::kPython, "def f(): pass\n", "pkg/mod.py"), "pkg.mod.f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kPython, "def f(): pass\n", "pkg/__init__.py"), "pkg.f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kRust, "fn f() {}\n", "src/net/retry.rs"), "net::retry::f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kRust, "fn f() {}\n", "src/net/mod.rs"), "net::f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kRust, "fn f() {}\n", "src/lib.rs"), "f");
  // A crate anywhere in the workspace: its modules start under its own src/.
  EXPECT_EQ(ModuleOf(CodeLanguage::kRust, "fn f() {}\n", "crates/net/src/retry.rs"), "retry::f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kRust, "fn f() {}\n", "api/src/lib.rs"), "f");
}

}  // namespace
}  // namespace kebab::parse::internal
