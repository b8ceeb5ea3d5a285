// C and C++: function definitions (a method inside a class or when its name is qualified, as in
// the out-of-class `void Foo::bar() {}`), structs and unions (struct), classes, enums, typedefs
// and `using` aliases (type). Only definitions are units: a struct, class or enum needs its
// body, a function its body, so declarations (a header's prototypes, `= default`) stay glue.
// A typedef of a struct, union or enum with a body is one unit of that kind, named by the
// typedef (`typedef struct foo {...} foo_t;` is "foo_t"). A template's unit is its definition,
// its lines starting at `template`. A namespace (`namespace a::b` too) names what it holds and
// is no unit. Symbols have no path prefix: "ns::Foo::bar", "Foo::~Foo", "Foo::operator==",
// "Foo::operator bool".
//
// Doc comments are every comment right above, with no blank line between: `//`, `///`, `/* */`
// and `/** */` all document in C and C++ code.
//
// Macros the grammar cannot expand are blanked out where they cause syntax errors before the
// tree is read (code_macros.h): `KEBAB_ASSIGN_OR_RETURN(auto x, F());`, `SQLITE_API int f()`,
// Qt's `Q_OBJECT` or `class DLL_API Foo {` leave no error and lose no definition. A test macro
// with a body, gtest's `TEST(Suite, Name) { ... }`, parses as a function with no return type
// named by the macro: it is named as gtest names the test, "Suite.Name" (what --gtest_filter
// takes), or by the whole call when its arguments are not plain names.
#include <cctype>

#include "parse/internal/code_lang.h"
#include "parse/internal/code_macros.h"
#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// A name as one line: whitespace is dropped except one space between two words ("operator
// new") or after a comma ("Map<K, V>"), so `Foo<T>::\n    bar` is "Foo<T>::bar".
std::string Collapse(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space && ((IsWordChar(out.back()) && IsWordChar(c)) || out.back() == ',')) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// What a declarator declares, through the pointers, references, parentheses and function
// parameters around it: `getfn` in `int (*getfn(void))(int)`. `through_function` tells whether
// a function declarator was on the way, i.e. whether the name is a function's.
TSNode DeclaredName(TSNode declarator, bool* through_function) {
  TSNode d = declarator;
  while (!ts_node_is_null(d)) {
    const std::string_view type = Type(d);
    if (type == "function_declarator") *through_function = true;
    if (type == "operator_cast") {
      *through_function = true;
      return d;
    }
    if (type.ends_with("identifier") || type == "destructor_name" || type == "operator_name" ||
        type == "template_function" || type == "template_method") {
      return d;
    }
    TSNode next = Field(d, "declarator");
    d = ts_node_is_null(next) && ts_node_named_child_count(d) > 0 ? ts_node_named_child(d, 0)
                                                                  : next;
  }
  return d;
}

// A name as written, without what follows a conversion operator's type: "operator bool" and
// "Foo::operator bool", not "operator bool() const". A qualified name holding an error is a
// macro the grammar took for a scope (`MACRO toml::value<T>* as_time()` reads as the name
// "toml::value<T>* as_time"): only its last part is sure.
std::string NameText(TSNode name, std::string_view source) {
  if (ts_node_is_null(name)) return "";
  while (Type(name) == "qualified_identifier" && ts_node_has_error(name) &&
         !ts_node_is_null(Field(name, "name"))) {
    name = Field(name, "name");
  }
  TSNode cast = name;
  while (Type(cast) == "qualified_identifier") cast = Field(cast, "name");
  uint32_t end = ts_node_end_byte(name);
  if (Type(cast) == "operator_cast") {
    TSNode rest = Field(cast, "declarator");
    if (!ts_node_is_null(rest)) end = ts_node_start_byte(rest);
  }
  const uint32_t begin = ts_node_start_byte(name);
  if (begin > end || end > source.size()) return "";
  return Collapse(source.substr(begin, end - begin));
}

bool IsMacroName(std::string_view name) {
  if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isupper(static_cast<unsigned char>(c)) &&
        !std::isdigit(static_cast<unsigned char>(c)) && c != '_') {
      return false;
    }
  }
  return true;
}

// A test macro's function declarator (`TEST(Suite, Name)`, `TEST_F(...)`): a function with no
// return type, named in capitals, with arguments. Null when `def` is an ordinary function.
TSNode MacroDeclarator(TSNode def, std::string_view source) {
  if (!ts_node_is_null(Field(def, "type"))) return TSNode{};
  TSNode declarator = Field(def, "declarator");
  if (Type(declarator) != "function_declarator") return TSNode{};
  TSNode name = Field(declarator, "declarator");
  if (Type(name) != "identifier" || !IsMacroName(NodeText(name, source))) return TSNode{};
  TSNode params = Field(declarator, "parameters");
  if (ts_node_is_null(params) || ts_node_named_child_count(params) == 0) return TSNode{};
  return declarator;
}

// "Suite.Name" from `TEST(Suite, Name)`; the call as written when an argument is no plain name.
std::string MacroName(TSNode declarator, std::string_view source) {
  TSNode params = Field(declarator, "parameters");
  if (ts_node_is_null(params)) return Collapse(NodeText(declarator, source));
  std::string name;
  const uint32_t n = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode param = ts_node_named_child(params, i);
    const std::string_view text = NodeText(param, source);
    const bool plain = ts_node_named_child_count(param) == 1 &&
                       Type(ts_node_named_child(param, 0)) == "type_identifier";
    if (Type(param) != "parameter_declaration" || !plain) {
      return Collapse(NodeText(declarator, source));
    }
    name += (name.empty() ? "" : ".") + std::string(text);
  }
  return name;
}

// The struct, union, class or enum a typedef defines with its body, or a null node.
TSNode DefinedType(TSNode type_definition) {
  TSNode type = Field(type_definition, "type");
  const std::string_view t = Type(type);
  const bool record = t == "struct_specifier" || t == "union_specifier" || t == "class_specifier" ||
                      t == "enum_specifier";
  return record && !ts_node_is_null(Field(type, "body")) ? type : TSNode{};
}

std::optional<UnitKind> RecordKind(std::string_view type) {
  if (type == "struct_specifier" || type == "union_specifier") return UnitKind::kStruct;
  if (type == "class_specifier") return UnitKind::kClass;
  if (type == "enum_specifier") return UnitKind::kEnum;
  return std::nullopt;
}

class CFamily final : public LanguageSpec {
 public:
  explicit CFamily(const TSLanguage* grammar) : grammar_(grammar) {}

  const TSLanguage* Grammar() const override { return grammar_; }
  TreePtr Parse(TSParser* parser, std::string_view source) const override {
    return ParseBlankingMacros(parser, source);
  }
  std::string_view Separator() const override { return "::"; }
  std::string ModulePath(std::string_view, TSNode, std::string_view) const override { return ""; }

  std::optional<UnitMatch> Match(TSNode node, bool in_type) const override {
    const std::string_view type = Type(node);
    if (type == "template_declaration") {
      // The definition is the last named child: parameters and a requires clause come first.
      const uint32_t n = ts_node_named_child_count(node);
      if (n == 0) return std::nullopt;
      std::optional<UnitMatch> inner = Match(ts_node_named_child(node, n - 1), in_type);
      if (inner && inner->scope_only) return std::nullopt;
      return inner;
    }
    if (type == "namespace_definition") return UnitMatch{UnitKind::kModule, node, true};
    if (type == "function_definition") {
      if (ts_node_is_null(Field(node, "body"))) return std::nullopt;
      bool function = false;
      TSNode name = DeclaredName(Field(node, "declarator"), &function);
      if (!function || ts_node_is_null(name)) return std::nullopt;
      const bool method = in_type || Type(name) == "qualified_identifier";
      return UnitMatch{method ? UnitKind::kMethod : UnitKind::kFunction, node};
    }
    if (type == "type_definition") {
      bool function = false;
      if (ts_node_is_null(DeclaredName(Field(node, "declarator"), &function))) return std::nullopt;
      TSNode defined = DefinedType(node);
      if (ts_node_is_null(defined)) return UnitMatch{UnitKind::kType, node};
      return UnitMatch{*RecordKind(Type(defined)), node};
    }
    if (type == "alias_declaration") return UnitMatch{UnitKind::kType, node};
    if (std::optional<UnitKind> kind = RecordKind(type)) {
      // A forward declaration or a use (`struct foo *p;`) has no body; an anonymous struct's
      // fields belong to what holds it.
      if (ts_node_is_null(Field(node, "body")) || ts_node_is_null(Field(node, "name"))) {
        return std::nullopt;
      }
      return UnitMatch{*kind, node};
    }
    return std::nullopt;
  }

  std::string Name(TSNode unit, std::string_view source) const override {
    const std::string_view type = Type(unit);
    if (type == "function_definition") {
      if (TSNode macro = MacroDeclarator(unit, source); !ts_node_is_null(macro)) {
        return MacroName(macro, source);
      }
      bool function = false;
      return NameText(DeclaredName(Field(unit, "declarator"), &function), source);
    }
    if (type == "type_definition") {
      bool function = false;
      return NameText(DeclaredName(Field(unit, "declarator"), &function), source);
    }
    TSNode name = Field(unit, "name");
    return ts_node_is_null(name) ? "" : Collapse(NodeText(name, source));
  }

  TSNode Body(TSNode unit) const override {
    if (Type(unit) == "type_definition") {
      TSNode defined = DefinedType(unit);
      return ts_node_is_null(defined) ? TSNode{} : Field(defined, "body");
    }
    return LanguageSpec::Body(unit);
  }

 private:
  const TSLanguage* grammar_;
};

}  // namespace

const LanguageSpec& CSpec() {
  static const CFamily spec(tree_sitter_c());
  return spec;
}

const LanguageSpec& CppSpec() {
  static const CFamily spec(tree_sitter_cpp());
  return spec;
}

}  // namespace kebab::parse::internal
