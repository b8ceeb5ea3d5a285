// Code units from a tree-sitter syntax tree (code ingest, Tier 1): one per function, method,
// class, struct, enum, trait, interface or impl, each with its qualified symbol, its lines (its
// doc comment or decorators included) and its doc comment or docstring. Containers (a class,
// an impl, a Rust mod) are units and also name the units inside them. Module-private.
// Thread safety: stateless; each call makes its own parser.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::parse::internal {

enum class CodeLanguage { kPython, kRust };

struct CodeUnit {
  std::string symbol;  // "pkg.mod.Class.method" (Python), "retry::Backoff::next" (Rust)
  std::string kind;    // function | method | class | struct | enum | trait | impl | module
  uint32_t start_line = 0, end_line = 0;  // 1-based, inclusive
  std::string doc;                        // the doc comment or docstring, as written
  bool has_error = false;                 // the unit holds a syntax error
};

// The module path a file's symbols start with: "pkg/mod.py" → "pkg.mod" ("__init__" names the
// package), "src/net/retry.rs" → "net::retry" (lib.rs, main.rs and mod.rs name their folder).
std::string ModulePath(CodeLanguage language, std::string_view workspace_path);

// The units of `source`, in source order (a container before what it holds). Errors:
// invalid_input when the parser gives up (it almost never does: syntax errors become error
// nodes, and the units around them are still found).
Result<std::vector<CodeUnit>> ExtractCodeUnits(CodeLanguage language, std::string_view source,
                                               std::string_view module_path);

}  // namespace kebab::parse::internal
