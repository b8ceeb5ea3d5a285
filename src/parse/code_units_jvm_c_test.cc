// Code units found in Java, Kotlin, C and C++ sources by their tree-sitter grammars: symbols,
// kinds, lines with doc comments and annotations, templates and namespaces, macros the
// grammars cannot expand, and units around a syntax error.
#include <gtest/gtest.h>

#include "parse/code_units_test_util.h"
#include "parse/internal/code_units.h"

namespace kebab::parse::internal {
namespace {

std::vector<std::string> Symbols(const std::vector<CodeUnit>& units) {
  std::vector<std::string> out;
  for (const CodeUnit& u : units) out.push_back(u.symbol);
  return out;
}

TEST(CodeUnitsJvmCTest, JavaTypesMethodsConstructorsAndJavadoc) {
  const std::string source =
      "package com.example.app;\n"             // 1
      "\n"                                     // 2
      "import java.util.List;\n"               // 3
      "\n"                                     // 4
      "/**\n"                                  // 5
      " * Uploads files.\n"                    // 6
      " */\n"                                  // 7
      "@Deprecated\n"                          // 8
      "public class Uploader {\n"              // 9
      "  private final int retries;\n"         // 10
      "\n"                                     // 11
      "  /** Makes one. */\n"                  // 12
      "  public Uploader(int retries) {\n"     // 13
      "    this.retries = retries;\n"          // 14
      "  }\n"                                  // 15
      "\n"                                     // 16
      "  // Not Javadoc.\n"                    // 17
      "  @Override\n"                          // 18
      "  public String toString() {\n"         // 19
      "    return \"Uploader\";\n"             // 20
      "  }\n"                                  // 21
      "\n"                                     // 22
      "  static class Part {\n"                // 23
      "    int size() { return 0; }\n"         // 24
      "  }\n"                                  // 25
      "\n"                                     // 26
      "  interface Listener {\n"               // 27
      "    void done(String path);\n"          // 28
      "  }\n"                                  // 29
      "\n"                                     // 30
      "  enum State { IDLE, BUSY }\n"          // 31
      "\n"                                     // 32
      "  record Range(int from, int to) {}\n"  // 33
      "\n"                                     // 34
      "  @interface Retry {}\n"                // 35
      "}\n";                                   // 36
  const std::string p = "com.example.app.Uploader";
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kJava, source, "src/main/java/Uploader.java"),
                       {{p, "class", 5, 36, "/**\n * Uploads files.\n */"},
                        {p + ".Uploader", "method", 12, 15, "/** Makes one. */"},
                        {p + ".toString", "method", 18, 21},
                        {p + ".Part", "class", 23, 25},
                        {p + ".Part.size", "method", 24, 24},
                        {p + ".Listener", "interface", 27, 29},
                        {p + ".Listener.done", "method", 28, 28},
                        {p + ".State", "enum", 31, 31},
                        {p + ".Range", "class", 33, 33},
                        {p + ".Retry", "interface", 35, 35}}));
}

TEST(CodeUnitsJvmCTest, KotlinClassesObjectsExtensionsAndKdoc) {
  const std::string source =
      "package com.example.app\n"                          // 1
      "\n"                                                 // 2
      "import kotlin.math.max\n"                           // 3
      "\n"                                                 // 4
      "/** A widget. */\n"                                 // 5
      "class Widget(val id: Int) {\n"                      // 6
      "    /** Its label. */\n"                            // 7
      "    fun label(): String = \"w$id\"\n"               // 8
      "\n"                                                 // 9
      "    constructor(name: String) : this(0)\n"          // 10
      "\n"                                                 // 11
      "    companion object {\n"                           // 12
      "        fun create(): Widget = Widget(1)\n"         // 13
      "    }\n"                                            // 14
      "}\n"                                                // 15
      "\n"                                                 // 16
      "interface Shape {\n"                                // 17
      "    fun area(): Double\n"                           // 18
      "}\n"                                                // 19
      "\n"                                                 // 20
      "enum class Color {\n"                               // 21
      "    RED,\n"                                         // 22
      "    GREEN\n"                                        // 23
      "}\n"                                                // 24
      "\n"                                                 // 25
      "object Registry {\n"                                // 26
      "    fun register(w: Widget) {}\n"                   // 27
      "}\n"                                                // 28
      "\n"                                                 // 29
      "/**\n"                                              // 30
      " * Shouts.\n"                                       // 31
      " */\n"                                              // 32
      "@Suppress(\"X\")\n"                                 // 33
      "public fun String.shout(): String = uppercase()\n"  // 34
      "\n"                                                 // 35
      "typealias Handler = (Int) -> Unit\n";               // 36
  const std::string p = "com.example.app.";
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kKotlin, source, "app/Widget.kt"),
                       {{p + "Widget", "class", 5, 15, "/** A widget. */"},
                        {p + "Widget.label", "method", 7, 8, "/** Its label. */"},
                        {p + "Widget.constructor", "method", 10, 10},
                        {p + "Widget.Companion", "class", 12, 14},
                        {p + "Widget.Companion.create", "method", 13, 13},
                        {p + "Shape", "interface", 17, 19},
                        {p + "Shape.area", "method", 18, 18},
                        {p + "Color", "enum", 21, 24},
                        {p + "Registry", "class", 26, 28},
                        {p + "Registry.register", "method", 27, 27},
                        {p + "shout", "function", 30, 34, "/**\n * Shouts.\n */"},
                        {p + "Handler", "type", 36, 36}}));
}

TEST(CodeUnitsJvmCTest, CTypedefsStructsAndFunctionsWithComments) {
  const std::string source =
      "#include <stdio.h>\n"                                   // 1
      "\n"                                                     // 2
      "/* A growable buffer. */\n"                             // 3
      "typedef struct buf {\n"                                 // 4
      "  char *data;\n"                                        // 5
      "  size_t len;\n"                                        // 6
      "} buf_t;\n"                                             // 7
      "\n"                                                     // 8
      "typedef int (*cmp_fn)(const void *, const void *);\n"   // 9
      "\n"                                                     // 10
      "enum color { RED, GREEN };\n"                           // 11
      "\n"                                                     // 12
      "struct node;\n"                                         // 13
      "int buf_size(const buf_t *b);\n"                        // 14
      "\n"                                                     // 15
      "// Appends `n` bytes.\n"                                // 16
      "// Grows the buffer when full.\n"                       // 17
      "int buf_append(buf_t *b, const char *s, size_t n) {\n"  // 18
      "  return 0;\n"                                          // 19
      "}\n"                                                    // 20
      "\n"                                                     // 21
      "static char **names(void) { return 0; }\n";             // 22
  EXPECT_TRUE(UnitsAre(
      Units(CodeLanguage::kC, source, "src/buf.c"),
      {{"buf_t", "struct", 3, 7, "/* A growable buffer. */"},
       {"cmp_fn", "type", 9, 9},
       {"color", "enum", 11, 11},
       {"buf_append", "function", 16, 20, "// Appends `n` bytes.\n// Grows the buffer when full."},
       {"names", "function", 22, 22}}));
}

TEST(CodeUnitsJvmCTest, CppNamespacesClassesMethodsTemplatesAndMacros) {
  const std::string source =
      "#include \"x.h\"\n"                                                           // 1
      "\n"                                                                           // 2
      "namespace kebab::store {\n"                                                   // 3
      "namespace {\n"                                                                // 4
      "\n"                                                                           // 5
      "/// Reads the file.\n"                                                        // 6
      "Result<int> Read(std::string_view path) {\n"                                  // 7
      "  KEBAB_ASSIGN_OR_RETURN(auto text, Load(path));\n"                           // 8
      "  KEBAB_RETURN_IF_ERROR(Check(text));\n"                                      // 9
      "  return text.size();\n"                                                      // 10
      "}\n"                                                                          // 11
      "\n"                                                                           // 12
      "}  // namespace\n"                                                            // 13
      "\n"                                                                           // 14
      "/** A row cache. */\n"                                                        // 15
      "class Cache : public Base {\n"                                                // 16
      " public:\n"                                                                   // 17
      "  Cache() = default;\n"                                                       // 18
      "  ~Cache() override;\n"                                                       // 19
      "  int size() const { return size_; }\n"                                       // 20
      "  bool operator==(const Cache& o) const;\n"                                   // 21
      "  struct Entry {\n"                                                           // 22
      "    int key;\n"                                                               // 23
      "  };\n"                                                                       // 24
      "\n"                                                                           // 25
      " private:\n"                                                                  // 26
      "  int size_ = 0;\n"                                                           // 27
      "};\n"                                                                         // 28
      "\n"                                                                           // 29
      "// Drops every entry.\n"                                                      // 30
      "Cache::~Cache() {\n"                                                          // 31
      "  Clear();\n"                                                                 // 32
      "}\n"                                                                          // 33
      "\n"                                                                           // 34
      "bool Cache::operator==(const Cache& o) const { return size_ == o.size_; }\n"  // 35
      "\n"                                                                           // 36
      "template <typename T>\n"                                                      // 37
      "T Max(T a, T b) {\n"                                                          // 38
      "  return a < b ? b : a;\n"                                                    // 39
      "}\n"                                                                          // 40
      "\n"                                                                           // 41
      "void Free(int x);\n"                                                          // 42
      "using Key = std::string;\n"                                                   // 43
      "\n"                                                                           // 44
      "}  // namespace kebab::store\n";                                              // 45
  const std::vector<CodeUnit> units = Units(CodeLanguage::kCpp, source, "src/store/cache.cc");
  const std::string p = "kebab::store::";
  EXPECT_TRUE(UnitsAre(units, {{p + "Read", "function", 6, 11, "/// Reads the file."},
                               {p + "Cache", "class", 15, 28, "/** A row cache. */"},
                               {p + "Cache::size", "method", 20, 20},
                               {p + "Cache::Entry", "struct", 22, 24},
                               {p + "Cache::~Cache", "method", 30, 33, "// Drops every entry."},
                               {p + "Cache::operator==", "method", 35, 35},
                               {p + "Max", "function", 37, 40},
                               {p + "Key", "type", 43, 43}}));
  // The statement macro the grammar cannot read is blanked out (code_macros.h): no error.
  ASSERT_EQ(units.size(), 8u);
  EXPECT_FALSE(units[0].has_error);
}

TEST(CodeUnitsJvmCTest, CppNamesThroughDeclaratorsAndTestMacros) {
  const std::string source =
      "struct Flag {\n"                                                     // 1
      "  explicit operator bool() const { return on; }\n"                   // 2
      "  bool on;\n"                                                        // 3
      "};\n"                                                                // 4
      "const char* Name(int x) { return \"\"; }\n"                          // 5
      "int (*Pick(void))(int) { return 0; }\n"                              // 6
      "std::vector<int>& Ref() { static std::vector<int> v; return v; }\n"  // 7
      "void Outer::Inner::Run() {}\n"                                       // 8
      "template <typename T>\n"                                             // 9
      "void Box<T>::\n"                                                     // 10
      "    Set(T v) {}\n"                                                   // 11
      "TEST(CacheTest, Evicts) {\n"                                         // 12
      "  EXPECT_EQ(1, 1);\n"                                                // 13
      "}\n"                                                                 // 14
      "TEST_F(CacheFixture, Grows) {}\n";                                   // 15
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kCpp, source, "cache_test.cc"),
                       {{"Flag", "struct", 1, 4},
                        {"Flag::operator bool", "method", 2, 2},
                        {"Name", "function", 5, 5},
                        {"Pick", "function", 6, 6},
                        {"Ref", "function", 7, 7},
                        {"Outer::Inner::Run", "method", 8, 8},
                        {"Box<T>::Set", "method", 9, 11},
                        {"CacheTest.Evicts", "function", 12, 14},
                        {"CacheFixture.Grows", "function", 15, 15}}));
}

TEST(CodeUnitsJvmCTest, UnitsAroundASyntaxErrorAreStillFound) {
  const std::string cpp =
      "int good() { return 1; }\n"
      "\n"
      "int broken() { return 1 +; }\n"
      "\n"
      "int also_good() { return 2; }\n";
  const std::vector<CodeUnit> cpp_units = Units(CodeLanguage::kCpp, cpp, "a.cc");
  EXPECT_EQ(Symbols(cpp_units), (std::vector<std::string>{"good", "broken", "also_good"}));
  ASSERT_EQ(cpp_units.size(), 3u);
  EXPECT_FALSE(cpp_units[0].has_error);
  EXPECT_TRUE(cpp_units[1].has_error);
  EXPECT_FALSE(cpp_units[2].has_error);

  const std::string java =
      "class A {\n"
      "  void good() {}\n"
      "  void broken( {}\n"
      "  void alsoGood() {}\n"
      "}\n";
  const std::vector<CodeUnit> java_units = Units(CodeLanguage::kJava, java, "A.java");
  EXPECT_EQ(Symbols(java_units),
            (std::vector<std::string>{"A", "A.good", "A.broken", "A.alsoGood"}));
  ASSERT_EQ(java_units.size(), 4u);
  EXPECT_TRUE(java_units[0].has_error);
  EXPECT_FALSE(java_units[1].has_error);
  EXPECT_TRUE(java_units[2].has_error);
  EXPECT_FALSE(java_units[3].has_error);
}

// The first symbol of a one-unit file names its module path.
std::string ModuleOf(CodeLanguage language, std::string_view source, std::string_view path) {
  const std::vector<CodeUnit> units = Units(language, source, path);
  return units.empty() ? "(no unit)" : units[0].symbol;
}

TEST(CodeUnitsJvmCTest, ModulePathsComeFromPackagesNotPaths) {
  EXPECT_EQ(ModuleOf(CodeLanguage::kJava, "class A {}\n", "src/a/A.java"), "A");
  EXPECT_EQ(ModuleOf(CodeLanguage::kJava, "package a . b;\nclass A {}\n", "A.java"), "a.b.A");
  EXPECT_EQ(ModuleOf(CodeLanguage::kKotlin, "fun f() {}\n", "src/a/f.kt"), "f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kKotlin, "package a\n\nfun f() {}\n", "f.kt"), "a.f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kC, "void f(void) {}\n", "src/a/f.c"), "f");
  EXPECT_EQ(ModuleOf(CodeLanguage::kCpp, "namespace a::b {\nvoid f() {}\n}\n", "src/f.cc"),
            "a::b::f");
}

}  // namespace
}  // namespace kebab::parse::internal
