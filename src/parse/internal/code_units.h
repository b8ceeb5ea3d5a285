// Code units from a tree-sitter syntax tree (code ingest, Tier 1): one per function, method,
// class, struct, enum, trait, interface or impl, each with its qualified symbol, its lines (its
// doc comment, decorators or annotations included) and its doc comment or docstring.
// Containers (a class, an impl, a Rust mod) are units and also name the units inside them; a
// scope that only names (a C++ namespace) is no unit. How each language's tree maps to units
// is its LanguageSpec (code_lang.h). Module-private.
// Thread safety: stateless; each call makes its own parser.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::parse::internal {

enum class CodeLanguage {
  kPython,
  kRust,
  kTypeScript,
  kTsx,
  kJavaScript,
  kGo,
  kJava,
  kKotlin,
  kC,
  kCpp,
};

enum class UnitKind {
  kFunction,
  kMethod,
  kClass,
  kStruct,
  kEnum,
  kTrait,
  kInterface,
  kImpl,
  kModule,
  kType,  // a type alias or typedef
};

// "function", "method", "class", ...
std::string_view UnitKindName(UnitKind kind);

struct CodeUnit {
  std::string symbol;  // "pkg.mod.Class.method" (Python), "retry::Backoff::next" (Rust)
  UnitKind kind = UnitKind::kFunction;
  uint32_t start_line = 0, end_line = 0;  // 1-based, inclusive
  std::string doc;                        // the doc comment or docstring, as written
  bool has_error = false;                 // the unit holds a syntax error
  // The last line of its head, which the code chunker keeps together: its doc comment,
  // decorators and signature down to the line its body opens on, and its docstring (Python);
  // 0 when its grammar gives it no body.
  uint32_t head_end_line = 0;
};

// The units of `source`, the file at `workspace_path`, in source order (a container before
// what it holds). Symbols start with the file's module path as its language names it (the
// path for Python, Rust and TS/JS; the package clause for Go, Java and Kotlin; nothing for
// C and C++, whose namespaces name their units). Errors: invalid_input when the parser gives
// up (it almost never does: syntax errors become error nodes, and the units around them are
// still found).
Result<std::vector<CodeUnit>> ExtractCodeUnits(CodeLanguage language, std::string_view source,
                                               std::string_view workspace_path);

}  // namespace kebab::parse::internal
