// JavaScript (JSX included): function and generator declarations, classes and the methods
// of those (a class field holding a function is a method too), and the functions a module
// names at its top level: `const f = () => {}`, `const Item = memo(function () {})` (a call
// of a named function wrapping one), `exports.f = function () {}` and
// `Foo.prototype.f = function () {}` (named "Foo.f"; a function, as Match() sees no text to
// tell a prototype from any other object). A class or function declaration is a unit
// wherever it is, and so is a class kept in a variable or a property; a function passed as an
// argument or kept in a local variable is part of the unit around it. The module's one export,
// `export default class {}` or `module.exports = function () {}`, is named by its own name
// or "default". An `export` is part of its unit's lines. Symbols are the workspace path
// without its extension, then the unit's names ("src/foo.Foo.search"); an index file names
// its folder. TypeScript (code_lang_typescript.cc) extends these rules.
//
// Doc comments: every comment right above a unit, `//` lines as much as JSDoc's `/** */`.
// JSDoc is the convention, but much JavaScript is documented with `//` lines, and a comment
// touching a declaration with no blank line between is about it (a license header is set
// apart by a blank line; a comment ending a statement's line stays that statement's).
#include "parse/internal/code_lang_ecmascript.h"
#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

bool IsFunction(TSNode node) {
  const std::string_view type = Type(node);
  return type == "arrow_function" || type == "function_expression" || type == "generator_function";
}

// The unit a value makes when a name is given to it: a function or a class.
std::optional<UnitKind> ValueKind(TSNode value) {
  if (IsFunction(value)) return UnitKind::kFunction;
  if (Type(value) == "class") return UnitKind::kClass;
  return std::nullopt;
}

// The function a call of a named function wraps, `memo(function Item() {})` or
// `React.forwardRef((props, ref) => ...)`; null when no argument is one, or when the call is
// a computation's last step (`items.filter(...).reduce((all, x) => ...)`).
TSNode WrappedFunction(TSNode value) {
  if (Type(value) != "call_expression") return TSNode{};
  TSNode callee = Field(value, "function");
  while (Type(callee) == "member_expression") callee = Field(callee, "object");
  if (Type(callee) != "identifier") return TSNode{};
  TSNode arguments = Field(value, "arguments");
  const uint32_t n = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode argument = ts_node_named_child(arguments, i);
    if (IsFunction(argument)) return argument;
  }
  return TSNode{};
}

// Where the units inside a named value are: its body, or that of the function it wraps.
TSNode ValueBody(TSNode value) {
  TSNode function = Type(value) == "call_expression" ? WrappedFunction(value) : value;
  return ts_node_is_null(function) ? TSNode{} : Field(function, "body");
}

uint32_t DeclaratorCount(TSNode declaration) {
  uint32_t count = 0;
  const uint32_t n = ts_node_named_child_count(declaration);
  for (uint32_t i = 0; i < n; ++i) {
    count += Type(ts_node_named_child(declaration, i)) == "variable_declarator" ? 1 : 0;
  }
  return count;
}

// Whether the statement `node` sits where a module's names are made: the file's top level or
// a namespace's body, `export` and `declare` around it aside.
bool AtModuleLevel(TSNode node) {
  TSNode parent = ts_node_parent(node);
  while (Type(parent) == "export_statement" || Type(parent) == "ambient_declaration") {
    parent = ts_node_parent(parent);
  }
  const std::string_view type = Type(parent);
  // Declarations the parser could not place still sit at the level they were written at, most
  // often the top.
  if (type == "program" || type == "ERROR") return true;
  const std::string_view owner = Type(ts_node_parent(parent));
  return type == "statement_block" && (owner == "internal_module" || owner == "module");
}

// What `value`, named by the statement `statement` (a declaration or an assignment), makes
// as a unit: a class wherever it is, as a class declaration is; a function, or a call that
// wraps one (React's `const Item = memo(...)`), at module level only, as a function's local
// closures are lines of that function.
std::optional<UnitKind> NamedValueKind(TSNode value, TSNode statement) {
  std::optional<UnitKind> kind = ValueKind(value);
  if (!kind && !ts_node_is_null(WrappedFunction(value))) kind = UnitKind::kFunction;
  if (kind == UnitKind::kFunction && !AtModuleLevel(statement)) return std::nullopt;
  return kind;
}

std::optional<UnitKind> DeclaratorKind(TSNode declarator, TSNode declaration) {
  if (Type(Field(declarator, "name")) != "identifier") return std::nullopt;
  return NamedValueKind(Field(declarator, "value"), declaration);
}

TSNode FirstDeclarator(TSNode declaration) {
  const uint32_t n = ts_node_named_child_count(declaration);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts_node_named_child(declaration, i);
    if (Type(child) == "variable_declarator") return child;
  }
  return TSNode{};
}

// The name a CommonJS assignment gives: what is exported under, or Class.method for a
// prototype's member.
std::string AssignedName(std::string_view left) {
  std::string name(left);
  for (std::string_view exports : {"module.exports.", "exports."}) {
    if (name.starts_with(exports)) {
      name.erase(0, exports.size());
      break;
    }
  }
  const size_t prototype = name.find(".prototype.");
  if (prototype != std::string::npos) name.erase(prototype, std::strlen(".prototype"));
  return name;
}

class JavaScript final : public EcmaScriptSpec {
 public:
  const TSLanguage* Grammar() const override { return tree_sitter_javascript(); }
};

}  // namespace

std::string EcmaScriptSpec::ModulePath(std::string_view workspace_path, TSNode,
                                       std::string_view) const {
  std::string path(workspace_path);
  const size_t slash = path.rfind('/'), dot = path.rfind('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) path.erase(dot);
  // A TypeScript declaration file, "foo.d.ts", describes module "foo".
  path = StripSuffix(path, ".d");
  if (path == "index") return "";
  return StripSuffix(path, "/index");
}

std::optional<UnitMatch> EcmaScriptSpec::Match(TSNode node, bool in_type) const {
  if (Type(node) != "export_statement") return MatchDeclaration(node, in_type);
  TSNode decl = Field(node, "declaration");
  if (!ts_node_is_null(decl)) return MatchDeclaration(decl, in_type);
  // `export default class {}`, `export default () => {}`: Name() calls them "default".
  TSNode value = Field(node, "value");
  const std::optional<UnitKind> kind = ValueKind(value);
  if (!kind) return std::nullopt;
  return UnitMatch{*kind, value};
}

std::optional<UnitMatch> EcmaScriptSpec::MatchDeclaration(TSNode decl, bool in_type) const {
  const std::string_view type = Type(decl);
  if (type == "function_declaration" || type == "generator_function_declaration") {
    return UnitMatch{UnitKind::kFunction, decl};
  }
  if (type == "class_declaration") return UnitMatch{UnitKind::kClass, decl};
  // A declaration the parser could not fit into the tree is left as a named expression in an
  // error node.
  if (Type(ts_node_parent(decl)) == "ERROR" && !ts_node_is_null(Field(decl, "name"))) {
    const std::optional<UnitKind> kind = ValueKind(decl);
    if (kind) return UnitMatch{*kind, decl};
  }
  // Members of a class that is a unit only: an object literal's methods are values, and a
  // class passed as an argument is lines of the unit it is in.
  const bool member = in_type && Type(ts_node_parent(decl)) == "class_body";
  if (type == "method_definition" && member) return UnitMatch{UnitKind::kMethod, decl};
  if ((type == "field_definition" || type == "public_field_definition") && member &&
      ValueKind(Field(decl, "value")) == UnitKind::kFunction) {
    return UnitMatch{UnitKind::kMethod, decl};
  }
  if (type == "lexical_declaration" || type == "variable_declaration") {
    if (DeclaratorCount(decl) != 1) return std::nullopt;
    TSNode declarator = FirstDeclarator(decl);
    const std::optional<UnitKind> kind = DeclaratorKind(declarator, decl);
    if (!kind) return std::nullopt;
    return UnitMatch{*kind, declarator};
  }
  // `const a = () => {}, b = () => {}`: each declarator is a unit of its own lines.
  if (type == "variable_declarator") {
    TSNode declaration = ts_node_parent(decl);
    if (DeclaratorCount(declaration) < 2) return std::nullopt;
    const std::optional<UnitKind> kind = DeclaratorKind(decl, declaration);
    if (!kind) return std::nullopt;
    return UnitMatch{*kind, decl};
  }
  if (type == "expression_statement") {
    TSNode assignment = ts_node_named_child(decl, 0);
    if (Type(assignment) != "assignment_expression") return std::nullopt;
    TSNode left = Field(assignment, "left");
    if (Type(left) != "identifier" && Type(left) != "member_expression") return std::nullopt;
    const std::optional<UnitKind> kind = NamedValueKind(Field(assignment, "right"), decl);
    if (!kind) return std::nullopt;
    return UnitMatch{*kind, assignment};
  }
  return std::nullopt;
}

std::string EcmaScriptSpec::Name(TSNode unit, std::string_view source) const {
  const std::string_view type = Type(unit);
  if (type == "assignment_expression") {
    const std::string_view left = NodeText(Field(unit, "left"), source);
    if (left != "module.exports") return AssignedName(left);
    // The module's one export, CommonJS's default: named as `export default` is.
    TSNode own = Field(Field(unit, "right"), "name");
    return ts_node_is_null(own) ? "default" : std::string(NodeText(own, source));
  }
  TSNode name = Field(unit, type == "field_definition" ? "property" : "name");
  if (!ts_node_is_null(name)) return std::string(NodeText(name, source));
  return Type(ts_node_parent(unit)) == "export_statement" ? "default" : "";
}

// A unit named through a declarator, an assignment or a class field holds what its value holds.
TSNode EcmaScriptSpec::Body(TSNode unit) const {
  const std::string_view type = Type(unit);
  if (type == "variable_declarator" || type == "field_definition" ||
      type == "public_field_definition") {
    return ValueBody(Field(unit, "value"));
  }
  if (type == "assignment_expression") return ValueBody(Field(unit, "right"));
  return Field(unit, "body");
}

const LanguageSpec& JavaScriptSpec() {
  static const JavaScript spec;
  return spec;
}

}  // namespace kebab::parse::internal
