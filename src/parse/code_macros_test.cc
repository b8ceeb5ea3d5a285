// C and C++ macro invocations the grammars cannot expand (code_macros.h): the units around
// them keep their symbols and lines and hold no syntax error, while a syntax error that no
// macro explains is still one.
#include "parse/internal/code_macros.h"

#include <gtest/gtest.h>

#include "parse/code_units_test_util.h"
#include "parse/internal/code_units.h"

namespace kebab::parse::internal {
namespace {

TEST(CodeMacrosTest, StatementMacrosInBodiesAreNoErrors) {
  // A declaration as a macro's argument, in nested blocks and around a lambda: without the
  // blanking, the one in the `if` made the grammar lose the rest of the file.
  const std::string source =
      "namespace kebab::eval {\n"                                                // 1
      "\n"                                                                       // 2
      "Status Paths(const Node& node, Path* p) {\n"                              // 3
      "  for (const auto& kv : node) {\n"                                        // 4
      "    if (kv.first == \"lines\") {\n"                                       // 5
      "      KEBAB_ASSIGN_OR_RETURN(std::string lines, Text(kv.second));\n"      // 6
      "      KEBAB_RETURN_IF_ERROR(Lines(lines, p));\n"                          // 7
      "    } else {\n"                                                           // 8
      "      return Error(kv.first, \"unknown field `\" + kv.first + \"`\");\n"  // 9
      "    }\n"                                                                  // 10
      "  }\n"                                                                    // 11
      "  return Status();\n"                                                     // 12
      "}\n"                                                                      // 13
      "\n"                                                                       // 14
      "Result<json> Probe(std::string_view bytes) {\n"                           // 15
      "  KEBAB_ASSIGN_OR_RETURN(SubprocessResult run,\n"                         // 16
      "                         Run({\"--probe\"}, bytes, [&](auto line) {\n"    // 17
      "                           return line.empty();\n"                        // 18
      "                         }));\n"                                          // 19
      "  return run.json;\n"                                                     // 20
      "}\n"                                                                      // 21
      "\n"                                                                       // 22
      "int Count(const Suite& s) { return s.size(); }\n"                         // 23
      "\n"                                                                       // 24
      "}  // namespace kebab::eval\n";                                           // 25
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kCpp, source, "src/eval/suite.cc"),
                       {{"kebab::eval::Paths", "function", 3, 13},
                        {"kebab::eval::Probe", "function", 15, 21},
                        {"kebab::eval::Count", "function", 23, 23}},
                       /*no_errors=*/true));
}

TEST(CodeMacrosTest, AttributeMacrosBeforeAndInsideDeclarationsAreNoErrors) {
  const std::string source =
      "/* The library's version. */\n"                                                        // 1
      "SQLITE_API const char *sqlite3_libversion(void) { return V; }\n"                       // 2
      "\n"                                                                                    // 3
      "SQLITE_API sqlite3_int64 sqlite3_changes64(sqlite3 *db) {\n"                           // 4
      "  return db->nChange;\n"                                                               // 5
      "}\n"                                                                                   // 6
      "\n"                                                                                    // 7
      "static SQLITE_NOINLINE void *mallocFull(int n) {\n"                                    // 8
      "  return 0;\n"                                                                         // 9
      "}\n"                                                                                   // 10
      "\n"                                                                                    // 11
      "SQLITE_API SQLITE_DEPRECATED void *sqlite3_trace(sqlite3 *db) {\n"                     // 12
      "  return 0;\n"                                                                         // 13
      "}\n"                                                                                   // 14
      "\n"                                                                                    // 15
      "GGML_API struct ggml_tensor * ggml_dup(struct ggml_context * ctx);\n"                  // 16
      "\n"                                                                                    // 17
      "void quantize_row(const float * GGML_RESTRICT x, void * GGML_RESTRICT vy, int k) {\n"  // 18
      "  (void)vy;\n"                                                                         // 19
      "}\n"                                                                                   // 20
      "\n"                                                                                    // 21
      "DWORD WINAPI worker(LPVOID arg) { return 0; }\n"                                       // 22
      "\n"                                                                                    // 23
      "static int __init mod_init(void) { return 0; }\n"                                      // 24
      "\n"                                                                                    // 25
      "typedef int (SQLITE_CDECL *cmp_fn)(const void *a, const void *b);\n";                  // 26
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kC, source, "sqlite3.c"),
                       {{"sqlite3_libversion", "function", 1, 2, "/* The library's version. */"},
                        {"sqlite3_changes64", "function", 4, 6},
                        {"mallocFull", "function", 8, 10},
                        {"sqlite3_trace", "function", 12, 14},
                        {"quantize_row", "function", 18, 20},
                        {"worker", "function", 22, 22},
                        {"mod_init", "function", 24, 24},
                        {"cmp_fn", "type", 26, 26}},
                       /*no_errors=*/true));
}

TEST(CodeMacrosTest, MacrosThatBringTheirOwnSemicolonAreNoErrors) {
  const std::string source =
      "LIST_HEAD(pending);\n"                                    // 1
      "\n"                                                       // 2
      "static void forward(const struct ggml_tensor * dst) {\n"  // 3
      "    GGML_TENSOR_LOCALS(int64_t, ne0, dst->src[0], ne)\n"  // 4
      "    GGML_TENSOR_LOCALS(size_t,  nb0, dst->src[0], nb)\n"  // 5
      "    const int n = ne00 * nb00;\n"                         // 6
      "    GGML_ASSERT(n > 0);\n"                                // 7
      "}\n"                                                      // 8
      "EXPORT_SYMBOL(forward);\n"                                // 9
      "\n"                                                       // 10
      "int backward(void) { return 1; }\n";                      // 11
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kC, source, "ops.c"),
                       {{"forward", "function", 3, 8}, {"backward", "function", 11, 11}},
                       /*no_errors=*/true));
}

TEST(CodeMacrosTest, ClassMacrosKeepTheClassAndItsMethods) {
  const std::string source =
      "class Q_CORE_EXPORT Timer : public QObject {\n"                  // 1
      "  Q_OBJECT\n"                                                    // 2
      "  Q_PROPERTY(int interval READ interval WRITE setInterval)\n"    // 3
      " public:\n"                                                      // 4
      "  int interval() const { return interval_; }\n"                  // 5
      "  void start() override { running_ = true; }\n"                  // 6
      "\n"                                                              // 7
      " private:\n"                                                     // 8
      "  std::mutex mu_;\n"                                             // 9
      "  int interval_ GUARDED_BY(mu_) = 0;\n"                          // 10
      "  bool running_ = false;\n"                                      // 11
      "};\n"                                                            // 12
      "Q_DECLARE_METATYPE(Timer)\n"                                     // 13
      "\n"                                                              // 14
      "struct PACKED header {\n"                                        // 15
      "  int size;\n"                                                   // 16
      "};\n"                                                            // 17
      "\n"                                                              // 18
      "void Log(std::string_view message, std::string hint = {}) {}\n"  // 19
      "\n"                                                              // 20
      "TEST(TimerTest, Starts) {\n"                                     // 21
      "  EXPECT_TRUE(true);\n"                                          // 22
      "}\n";                                                            // 23
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kCpp, source, "timer.h"),
                       {{"Timer", "class", 1, 12},
                        {"Timer::interval", "method", 5, 5},
                        {"Timer::start", "method", 6, 6},
                        {"header", "struct", 15, 17},
                        {"Log", "function", 19, 19},
                        {"TimerTest.Starts", "function", 21, 23}},
                       /*no_errors=*/true));
}

TEST(CodeMacrosTest, ConditionalsSplittingStatementsAndStatementArgumentsAreNoErrors) {
  // Both branches of the first conditional open the same block: read together, the rest of
  // the file was one function, and `winWrite` none.
  const std::string source =
      "static int winWrite(sqlite3_file *id, const void *pBuf, int amt) {\n"  // 1
      "  int rc;\n"                                                           // 2
      "  SimulateIOError(return SQLITE_IOERR_WRITE);\n"                       // 3
      "#if defined(SQLITE_WIN32_NO_OVERLAPPED)\n"                             // 4
      "  rc = winSeekFile(pFile, offset);\n"                                  // 5
      "  if( rc==0 ){\n"                                                      // 6
      "#else\n"                                                               // 7
      "  {\n"                                                                 // 8
      "#endif\n"                                                              // 9
      "    rc = write_all(pBuf, amt);\n"                                      // 10
      "  }\n"                                                                 // 11
      "  return rc;\n"                                                        // 12
      "}\n"                                                                   // 13
      "\n"                                                                    // 14
      "static int winRead(sqlite3_file *id) {\n"                              // 15
      "#ifdef SQLITE_MMAP\n"                                                  // 16
      "  if( mapped(id) ){\n"                                                 // 17
      "    return SQLITE_OK;\n"                                               // 18
      "  }else\n"                                                             // 19
      "#endif\n"                                                              // 20
      "  {\n"                                                                 // 21
      "    printf(\"read %\" PRIu64 \" bytes\\n\", size(id));\n"              // 22
      "  }\n"                                                                 // 23
      "  return SQLITE_OK;\n"                                                 // 24
      "}\n"                                                                   // 25
      "\n"                                                                    // 26
      "static void forward(struct ggml_tensor * dst) {\n"                     // 27
      "    GGML_TENSOR_UNARY_OP_LOCALS\n"                                     // 28
      "\n"                                                                    // 29
      "    for (int i = 0; i < ne0; i++) {\n"                                 // 30
      "        TESTONLY( int n = 0; )\n"                                      // 31
      "    }\n"                                                               // 32
      "}\n";                                                                  // 33
  EXPECT_TRUE(UnitsAre(Units(CodeLanguage::kC, source, "os_win.c"),
                       {{"winWrite", "function", 1, 13},
                        {"winRead", "function", 15, 25},
                        {"forward", "function", 27, 33}},
                       /*no_errors=*/true));
}

TEST(CodeMacrosTest, ASyntaxErrorNoMacroExplainsIsStillOne) {
  // Beside macros that are blanked, in the same function and the next.
  const std::string source =
      "SQLITE_API int good(void) { return 1; }\n"               // 1
      "\n"                                                      // 2
      "int broken(void) {\n"                                    // 3
      "  KEBAB_RETURN_IF_ERROR(Check());\n"                     // 4
      "  KEBAB_ASSIGN_OR_RETURN(auto x, Load());\n"             // 5
      "  return x +;\n"                                         // 6
      "}\n"                                                     // 7
      "\n"                                                      // 8
      "SQLITE_API int also_broken(int a) {\n"                   // 9
      "  return (a;\n"                                          // 10
      "}\n"                                                     // 11
      "\n"                                                      // 12
      "static SQLITE_NOINLINE int fine(void) { return 2; }\n";  // 13
  const std::vector<CodeUnit> units = Units(CodeLanguage::kCpp, source, "a.cc");
  ASSERT_TRUE(UnitsAre(units, {{"good", "function", 1, 1},
                               {"broken", "function", 3, 7},
                               {"also_broken", "function", 9, 11},
                               {"fine", "function", 13, 13}}));
  EXPECT_FALSE(units[0].has_error);
  EXPECT_TRUE(units[1].has_error);
  EXPECT_TRUE(units[2].has_error);
  EXPECT_FALSE(units[3].has_error);
}

}  // namespace
}  // namespace kebab::parse::internal
