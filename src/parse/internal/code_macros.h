// C and C++ the tree-sitter grammars cannot read without a preprocessor, and how such a file is
// parsed all the same. A grammar sees a macro invocation as code: `KEBAB_ASSIGN_OR_RETURN(auto x,
// F());` is no expression, `SQLITE_API int f(void)` has a type too many, `const float *
// RESTRICT x` a name too many, Qt's `Q_OBJECT` and a macro that brings its own semicolon
// (`GGML_TENSOR_LOCALS(...)`) run into what follows; a conditional whose branches each open the
// same block (`#if A\n if (a) {\n#else\n {\n#endif`) leaves a brace unclosed; tree-sitter-cpp 0.23
// cannot read a braced default argument either (`std::string hint = {}`). Each leaves error
// nodes, around one statement or, when recovery goes wrong, over the rest of the file.
//
// ParseBlankingMacros parses a file and, where the tree has errors, blanks out the macro
// invocations in each erroneous declaration or statement (spaces, newlines kept, so every byte
// offset and row stays the source's), reads the conditionals there by one branch, turns a braced
// default argument into `0`, and parses again. A region keeps its blanking only when the new
// tree has less error there, and the whole only when the file has less error, so a syntax error
// that no macro explains stays an error. What counts as a macro invocation: a word in capitals
// (two letters at least) or starting with `__`, alone or with its arguments, standing where C has
// no room for a word — code_macros.cc lists the shapes. One shape is blanked before the first
// parse, because the grammar misreads it without an error: `class DLL_API Foo {`, which it takes
// for a function `Foo` returning `class DLL_API`.
// Module-private. Thread safety: stateless; the caller owns the parser.
#pragma once

#include <string_view>

#include "parse/internal/code_lang.h"

namespace kebab::parse::internal {

// The tree of `source` parsed by `parser` (set to the C or C++ grammar), with the macro
// invocations around its errors blanked out; its offsets and rows are `source`'s. Null when the
// parser gives up.
TreePtr ParseBlankingMacros(TSParser* parser, std::string_view source);

}  // namespace kebab::parse::internal
