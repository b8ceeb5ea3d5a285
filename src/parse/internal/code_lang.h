// How one language's tree-sitter tree maps to code units (code_units.h): which nodes are
// units and of what kind, their names, where nested units live, the module path symbols start
// with and which comments are documentation. One LanguageSpec per language, each in its own
// code_lang_<language>.cc. Module-private. Thread safety: specs are immutable singletons.
#pragma once

#include <tree_sitter/api.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "parse/internal/code_units.h"

namespace kebab::parse::internal {

using TreePtr = std::unique_ptr<TSTree, void (*)(TSTree*)>;

// `source` parsed by `parser` as it is; null when the parser gives up.
TreePtr ParseSource(TSParser* parser, std::string_view source);

// What a node is as a unit. `node` is the definition itself, which may sit inside the child
// of the container that was walked (a decorator, an export or a template wrapper): the unit's
// lines are the walked child's, its name and body are `node`'s.
struct UnitMatch {
  UnitKind kind;
  TSNode node;
  // A scope that only names what it holds (a C++ namespace): its units get its name, its own
  // lines stay top-level glue.
  bool scope_only = false;
};

class LanguageSpec {
 public:
  virtual ~LanguageSpec() = default;

  virtual const TSLanguage* Grammar() const = 0;
  // The tree of `source` from `parser`, which has Grammar(); its offsets and rows are
  // `source`'s. Null when the parser gives up. Default: ParseSource.
  virtual TreePtr Parse(TSParser* parser, std::string_view source) const;
  // Between a symbol's parts: "::" or ".".
  virtual std::string_view Separator() const = 0;
  // The symbol prefix of the file's units ("" for none). `root` is the file's tree.
  virtual std::string ModulePath(std::string_view workspace_path, TSNode root,
                                 std::string_view source) const = 0;
  // What `node`, a named child of a walked node, is as a unit; nullopt when it is none (its
  // children are then walked in turn). `in_type` says the enclosing unit is a type (class,
  // struct, trait, interface, impl, enum), where a function is a method.
  virtual std::optional<UnitMatch> Match(TSNode node, bool in_type) const = 0;
  // The name the unit adds to the symbol; "" adds nothing. Default: the `name` field.
  virtual std::string Name(TSNode unit, std::string_view source) const;
  // The node whose children hold the unit's nested units, or a null node. Default: `body`.
  virtual TSNode Body(TSNode unit) const;
  // True: the docstring is the first statement of the body (Python). False: the comments
  // right above the unit, with no blank line between, are its doc (and its first lines).
  virtual bool DocstringInBody() const { return false; }
  // Whether a comment right above a unit documents it. Default: every comment.
  virtual bool IsDocComment(std::string_view comment) const;
  // A node that may sit between a doc comment and its unit and is part of the unit's lines (a
  // Rust attribute, a TypeScript method's decorator).
  virtual bool SkippedBeforeUnit(std::string_view type) const;
};

const LanguageSpec& PythonSpec();
const LanguageSpec& RustSpec();
const LanguageSpec& TypeScriptSpec();
const LanguageSpec& TsxSpec();
const LanguageSpec& JavaScriptSpec();
const LanguageSpec& GoSpec();
const LanguageSpec& JavaSpec();
const LanguageSpec& KotlinSpec();
const LanguageSpec& CSpec();
const LanguageSpec& CppSpec();

// Tree helpers for specs.
// A null node has no text (Debian's tree-sitter 0.20.7 crashes reading a null node's bytes).
inline std::string_view NodeText(TSNode node, std::string_view source) {
  if (ts_node_is_null(node)) return {};
  const uint32_t begin = ts_node_start_byte(node), end = ts_node_end_byte(node);
  return begin <= end && end <= source.size() ? source.substr(begin, end - begin)
                                              : std::string_view();
}

inline TSNode Field(TSNode node, const char* name) {
  return ts_node_child_by_field_name(node, name, static_cast<uint32_t>(std::strlen(name)));
}

inline std::string_view Type(TSNode node) {
  return ts_node_is_null(node) ? std::string_view() : std::string_view(ts_node_type(node));
}

// `path` without `suffix` when it ends with it.
std::string StripSuffix(std::string_view path, std::string_view suffix);

}  // namespace kebab::parse::internal
