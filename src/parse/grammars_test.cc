// Every grammar kebab builds loads into Debian's tree-sitter runtime (ABI 13-14) and parses a
// sample of its language without an error node.
#include "parse/internal/grammars.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace kebab::parse {
namespace {

struct Sample {
  const char* name;
  const TSLanguage* (*language)();
  const char* source;
};

const Sample kSamples[] = {
    {"rust", tree_sitter_rust, "/// Retries.\nfn retry(n: u32) -> Result<(), E> { Ok(()) }\n"},
    {"python", tree_sitter_python, "def retry(n):\n    \"\"\"Retries.\"\"\"\n    return n\n"},
    {"typescript", tree_sitter_typescript, "export function retry(n: number): void {}\n"},
    {"tsx", tree_sitter_tsx, "const A = () => <div>{1}</div>;\n"},
    {"javascript", tree_sitter_javascript, "class Up { retry(n) { return n; } }\n"},
    {"go", tree_sitter_go, "package up\n\nfunc (u *Up) Retry(n int) error { return nil }\n"},
    {"java", tree_sitter_java, "package a;\nclass Up { void retry(int n) {} }\n"},
    {"kotlin", tree_sitter_kotlin, "package a\n\nclass Up {\n    fun retry(n: Int) {}\n}\n"},
    {"c", tree_sitter_c, "#include <stdio.h>\nint retry(int n) { return n; }\n"},
    {"cpp", tree_sitter_cpp, "namespace up { class U { int retry(int n); }; }\n"},
};

TEST(GrammarsTest, EachLoadsAndParsesItsLanguage) {
  for (const Sample& s : kSamples) {
    SCOPED_TRACE(s.name);
    std::unique_ptr<TSParser, void (*)(TSParser*)> parser(ts_parser_new(), ts_parser_delete);
    const TSLanguage* language = s.language();
    EXPECT_GE(ts_language_version(language), 13u);
    ASSERT_TRUE(ts_parser_set_language(parser.get(), language));
    const std::string source = s.source;
    std::unique_ptr<TSTree, void (*)(TSTree*)> tree(
        ts_parser_parse_string(parser.get(), nullptr, source.data(),
                               static_cast<uint32_t>(source.size())),
        ts_tree_delete);
    ASSERT_NE(tree, nullptr);
    EXPECT_FALSE(ts_node_has_error(ts_tree_root_node(tree.get())));
  }
}

}  // namespace
}  // namespace kebab::parse
