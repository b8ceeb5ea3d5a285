// Code units found in TypeScript, TSX, JavaScript and Go sources: every unit of each fixture
// pinned by symbol, kind, lines (doc comments, decorators and `export` included) and doc;
// anonymous callbacks that are no units; units around a syntax error; module paths.
#include <gtest/gtest.h>

#include "parse/code_units_test_util.h"
#include "parse/internal/code_units.h"

namespace kebab::parse::internal {
namespace {

TEST(CodeUnitsTsGoTest, TypeScriptDeclarationsDecoratorsAndNamespaces) {
  const std::string source =
      "import { Bar } from \"./bar\";\n"               // 1
      "\n"                                             // 2
      "/** Searches things. */\n"                      // 3
      "@Injectable()\n"                                // 4
      "export class Foo extends Bar {\n"               // 5
      "  private n = 0;\n"                             // 6
      "\n"                                             // 7
      "  private m = 1;\n"                             // 8
      "  @Log()\n"                                     // 9
      "  search(q: string): string[] {\n"              // 10
      "    return [q];\n"                              // 11
      "  }\n"                                          // 12
      "\n"                                             // 13
      "  /** Parses s. */\n"                           // 14
      "  parse(s: string): number;\n"                  // 15
      "  parse(s: unknown): number {\n"                // 16
      "    return Number(s);\n"                        // 17
      "  }\n"                                          // 18
      "\n"                                             // 19
      "  onClick = () => {\n"                          // 20
      "    this.n++;\n"                                // 21
      "  };\n"                                         // 22
      "}\n"                                            // 23
      "\n"                                             // 24
      "export abstract class Shape {\n"                // 25
      "  abstract area(): number;\n"                   // 26
      "}\n"                                            // 27
      "\n"                                             // 28
      "/** Options. */\n"                              // 29
      "export interface Options {\n"                   // 30
      "  limit: number;\n"                             // 31
      "}\n"                                            // 32
      "\n"                                             // 33
      "export type Id = string | number;\n"            // 34
      "\n"                                             // 35
      "export enum Color {\n"                          // 36
      "  Red,\n"                                       // 37
      "}\n"                                            // 38
      "\n"                                             // 39
      "export const retry = async (n: number) => {\n"  // 40
      "  return n;\n"                                  // 41
      "};\n"                                           // 42
      "\n"                                             // 43
      "export function* ids(): Generator<number> {\n"  // 44
      "  yield 1;\n"                                   // 45
      "}\n"                                            // 46
      "\n"                                             // 47
      "namespace Util.Text {\n"                        // 48
      "  export function trim(s: string) {\n"          // 49
      "    return s.trim();\n"                         // 50
      "  }\n"                                          // 51
      "}\n"                                            // 52
      "\n"                                             // 53
      "declare module \"express\" {\n"                 // 54
      "  function json(): void;\n"                     // 55
      "}\n"                                            // 56
      "\n"                                             // 57
      "items.forEach(function (x) {\n"                 // 58
      "  const double = () => x * 2;\n"                // 59
      "});\n";                                         // 60
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kTypeScript, source, "src/search/foo.ts"),
                       {{"src/search/foo.Foo", "class", 3, 23, "/** Searches things. */"},
                        {"src/search/foo.Foo.search", "method", 9, 12, ""},
                        {"src/search/foo.Foo.parse", "method", 14, 18, "/** Parses s. */"},
                        {"src/search/foo.Foo.onClick", "method", 20, 22, ""},
                        {"src/search/foo.Shape", "class", 25, 27, ""},
                        {"src/search/foo.Options", "interface", 29, 32, "/** Options. */"},
                        {"src/search/foo.Id", "type", 34, 34, ""},
                        {"src/search/foo.Color", "enum", 36, 38, ""},
                        {"src/search/foo.retry", "function", 40, 42, ""},
                        {"src/search/foo.ids", "function", 44, 46, ""},
                        {"src/search/foo.Util.Text", "module", 48, 52, ""},
                        {"src/search/foo.Util.Text.trim", "function", 49, 51, ""},
                        {"src/search/foo.express", "module", 54, 56, ""},
                        {"src/search/foo.express.json", "function", 55, 55, ""}},
                       true));
}

TEST(CodeUnitsTsGoTest, TsxComponentsWithJsx) {
  const std::string source =
      "import React from \"react\";\n"                                     // 1
      "\n"                                                                 // 2
      "// A button.\n"                                                     // 3
      "export function Button({ label }: { label: string }) {\n"           // 4
      "  return <button onClick={() => alert(label)}>{label}</button>;\n"  // 5
      "}\n"                                                                // 6
      "\n"                                                                 // 7
      "export default class Panel extends React.Component<Props> {\n"      // 8
      "  render() {\n"                                                     // 9
      "    return <div className=\"p\">{this.props.children}</div>;\n"     // 10
      "  }\n"                                                              // 11
      "}\n";                                                               // 12
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kTsx, source, "ui/Button.tsx"),
                       {{"ui/Button.Button", "function", 3, 6, "// A button."},
                        {"ui/Button.Panel", "class", 8, 12, ""},
                        {"ui/Button.Panel.render", "method", 9, 11, ""}},
                       true));
}

TEST(CodeUnitsTsGoTest, JavaScriptDefaultClassCommonJsAndJsx) {
  const std::string source =
      "/**\n"                                                   // 1
      " * Uploads files.\n"                                     // 2
      " */\n"                                                   // 3
      "export default class {\n"                                // 4
      "  /** Sends one. */\n"                                   // 5
      "  send(f) {\n"                                           // 6
      "    return post(f);\n"                                   // 7
      "  }\n"                                                   // 8
      "  #retry = function () {};\n"                            // 9
      "}\n"                                                     // 10
      "\n"                                                      // 11
      "exports.parse = function (text) {\n"                     // 12
      "  return JSON.parse(text);\n"                            // 13
      "};\n"                                                    // 14
      "\n"                                                      // 15
      "Queue.prototype.push = function (x) {\n"                 // 16
      "  this.items.push(x);\n"                                 // 17
      "};\n"                                                    // 18
      "\n"                                                      // 19
      "const a = () => 1, b = function () {};\n"                // 20
      "\n"                                                      // 21
      "const List = ({ items }) => (\n"                         // 22
      "  <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>\n"   // 23
      ");\n"                                                    // 24
      "\n"                                                      // 25
      "function outer() {\n"                                    // 26
      "  const local = () => 2;\n"                              // 27
      "  function inner() {}\n"                                 // 28
      "  return [1, 2].map(function (x) { return x * 2; });\n"  // 29
      "}\n";                                                    // 30
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kJavaScript, source, "lib/index.js"),
                       {{"lib.default", "class", 1, 10, "/**\n * Uploads files.\n */"},
                        {"lib.default.send", "method", 5, 8, "/** Sends one. */"},
                        {"lib.default.#retry", "method", 9, 9, ""},
                        {"lib.parse", "function", 12, 14, ""},
                        {"lib.Queue.push", "function", 16, 18, ""},
                        {"lib.a", "function", 20, 20, ""},
                        {"lib.b", "function", 20, 20, ""},
                        {"lib.List", "function", 22, 24, ""},
                        {"lib.outer", "function", 26, 30, ""},
                        {"lib.outer.inner", "function", 28, 28, ""}},
                       true));
}

TEST(CodeUnitsTsGoTest, JavaScriptWrappedFunctionsAndClassesInVariables) {
  const std::string source =
      "const Item = React.memo(function Item({ label }) {\n"  // 1
      "  return <li>{label}</li>;\n"                          // 2
      "});\n"                                                 // 3
      "\n"                                                    // 4
      "function build() {\n"                                  // 5
      "  const Local = class {\n"                             // 6
      "    run() {}\n"                                        // 7
      "  };\n"                                                // 8
      "  return mixin(class {\n"                              // 9
      "    skipped() {}\n"                                    // 10
      "  });\n"                                               // 11
      "}\n"                                                   // 12
      "\n"                                                    // 13
      "module.exports = class Store {\n"                      // 14
      "  get(k) {}\n"                                         // 15
      "};\n";                                                 // 16
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kJavaScript, source, "lib/store.js"),
                       {{"lib/store.Item", "function", 1, 3, ""},
                        {"lib/store.build", "function", 5, 12, ""},
                        {"lib/store.build.Local", "class", 6, 8, ""},
                        {"lib/store.build.Local.run", "method", 7, 7, ""},
                        {"lib/store.Store", "class", 14, 16, ""},
                        {"lib/store.Store.get", "method", 15, 15, ""}},
                       true));
  EXPECT_TRUE(
      UnitsAre(Units(CodeLanguage::kJavaScript, "module.exports = function () {};\n", "lib/run.js"),
               {{"lib/run.default", "function", 1, 1, ""}}, true));
}

TEST(CodeUnitsTsGoTest, GoFunctionsMethodsAndGroupedTypes) {
  const std::string source =
      "// Package up retries uploads.\n"                 // 1
      "package up\n"                                     // 2
      "\n"                                               // 3
      "import \"time\"\n"                                // 4
      "\n"                                               // 5
      "// Up uploads.\n"                                 // 6
      "type Up struct {\n"                               // 7
      "\tn int\n"                                        // 8
      "}\n"                                              // 9
      "\n"                                               // 10
      "type (\n"                                         // 11
      "\t// Policy decides.\n"                           // 12
      "\tPolicy interface {\n"                           // 13
      "\t\tNext() time.Duration\n"                       // 14
      "\t}\n"                                            // 15
      "\tMillis = int64\n"                               // 16
      "\tCount int\n"                                    // 17
      ")\n"                                              // 18
      "\n"                                               // 19
      "// Retry retries once.\n"                         // 20
      "//go:noinline\n"                                  // 21
      "func (u *Up) Retry() error {\n"                   // 22
      "\ttype attempt struct{ n int }\n"                 // 23
      "\treturn nil\n"                                   // 24
      "}\n"                                              // 25
      "\n"                                               // 26
      "func (u Up) String() string { return \"up\" }\n"  // 27
      "\n"                                               // 28
      "func (l *List[T]) Push(v T) {}\n"                 // 29
      "\n"                                               // 30
      "// New makes an Up.\n"                            // 31
      "func New() *Up {\n"                               // 32
      "\tgo func() {}()\n"                               // 33
      "\treturn &Up{}\n"                                 // 34
      "}\n";                                             // 35
  EXPECT_TRUE(
      UnitsAre(Units(CodeLanguage::kGo, source, "net/up/retry.go"),
               {{"up.Up", "struct", 6, 9, "// Up uploads."},
                {"up.Policy", "interface", 12, 15, "// Policy decides."},
                {"up.Millis", "type", 16, 16, ""},
                {"up.Count", "type", 17, 17, ""},
                {"up.(*Up).Retry", "method", 20, 25, "// Retry retries once.\n//go:noinline"},
                {"up.Up.String", "method", 27, 27, ""},
                {"up.(*List).Push", "method", 29, 29, ""},
                {"up.New", "function", 31, 35, "// New makes an Up."}},
               true));
}

std::vector<std::string> Symbols(const std::vector<CodeUnit>& units) {
  std::vector<std::string> symbols;
  for (const CodeUnit& u : units) symbols.push_back(u.symbol);
  return symbols;
}

TEST(CodeUnitsTsGoTest, UnitsAroundASyntaxErrorAreStillFound) {
  // The parser loses the broken function and keeps the class after it as an expression in
  // its error node: still a class, with its method.
  const std::vector<CodeUnit> ts = Units(CodeLanguage::kTypeScript,
                                         "export function good() {\n"
                                         "  return 1;\n"
                                         "}\n"
                                         "\n"
                                         "function broken( {\n"
                                         "  return\n"
                                         "}\n"
                                         "\n"
                                         "export class AlsoGood {\n"
                                         "  ok() {}\n"
                                         "}\n",
                                         "m.ts");
  EXPECT_EQ(Symbols(ts), (std::vector<std::string>{"m.good", "m.AlsoGood", "m.AlsoGood.ok"}));

  const std::vector<CodeUnit> go = Units(CodeLanguage::kGo,
                                         "package m\n"
                                         "\n"
                                         "func good() int { return 1 }\n"
                                         "\n"
                                         "func broken( {\n"
                                         "}\n"
                                         "\n"
                                         "func alsoGood() int { return 2 }\n",
                                         "m/m.go");
  ASSERT_EQ(Symbols(go), (std::vector<std::string>{"m.good", "m.broken", "m.alsoGood"}));
  EXPECT_FALSE(go[0].has_error);
  EXPECT_TRUE(go[1].has_error);
  EXPECT_FALSE(go[2].has_error);
}

// The first symbol of a one-unit file names its module path.
std::string ModuleOf(CodeLanguage language, std::string_view source, std::string_view path) {
  const std::vector<CodeUnit> units = Units(language, source, path);
  return units.empty() ? "(no unit)" : units[0].symbol;
}

TEST(CodeUnitsTsGoTest, ModulePathsFollowEachLanguagesRules) {
  const std::string_view fn = "export function f() {}\n";
  EXPECT_EQ(ModuleOf(CodeLanguage::kTypeScript, fn, "src/util/index.ts"), "src/util.f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kTypeScript, fn, "src/a.test.mts"), "src/a.test.f");
  EXPECT_EQ(
      ModuleOf(CodeLanguage::kTypeScript, "export declare function f(): void;\n", "types/api.d.ts"),
      "types/api.f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kJavaScript, fn, "index.js"), "f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kGo, "package up\n\nfunc F() {}\n", "cmd/tool/main.go"), "up.F");
  // Without a package clause the folder names the package, as it usually does.
  EXPECT_EQ(ModuleOf(CodeLanguage::kGo, "func F() {}\n", "net/up/retry.go"), "up.F");
}

}  // namespace
}  // namespace kebab::parse::internal
