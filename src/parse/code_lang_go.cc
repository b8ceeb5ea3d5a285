// Go: functions, methods and type declarations (a struct type is a struct, an interface type
// an interface, any other type or alias a type); a grouped `type ( A struct{}; B int )` gives
// one unit per type, a lone `type A struct{}` one unit from its `type` keyword. Doc comments
// are the comments right above (godoc's rule; directives such as `//go:noinline` among them
// stay in the unit's lines). Symbols start with the package clause's name (the folder's when
// the clause is missing): "up.Retry", "up.Up", and methods by their receiver as Go writes
// them, "up.(*Up).Retry" for a pointer receiver, "up.Up.Retry" for a value one. Nothing inside
// a function is a unit: Go has no nested named functions, and a type declared in a function
// body (a test's table type) is part of how that function works.
#include "parse/internal/code_lang.h"
#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

bool IsTypeSpec(TSNode node) {
  return Type(node) == "type_spec" || Type(node) == "type_alias";
}

UnitKind TypeKind(TSNode spec) {
  const std::string_view type = Type(Field(spec, "type"));
  if (Type(spec) == "type_spec" && type == "struct_type") return UnitKind::kStruct;
  if (Type(spec) == "type_spec" && type == "interface_type") return UnitKind::kInterface;
  return UnitKind::kType;
}

// The first named child that is no comment: what a pointer or a parenthesized type wraps.
TSNode Wrapped(TSNode type) {
  const uint32_t n = ts_node_named_child_count(type);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts_node_named_child(type, i);
    if (Type(child) != "comment") return child;
  }
  return TSNode{};
}

// "(*List)" for `func (l *List[T])`, "Up" for `func (u Up)` or `func (u (Up))`; "" when the
// receiver is missing.
std::string Receiver(TSNode method, std::string_view source) {
  TSNode list = Field(method, "receiver");
  TSNode type{};
  const uint32_t n = ts_node_named_child_count(list);
  for (uint32_t i = 0; i < n && ts_node_is_null(type); ++i) {
    TSNode param = ts_node_named_child(list, i);
    if (Type(param) == "parameter_declaration") type = Field(param, "type");
  }
  bool pointer = false;
  while (Type(type) == "pointer_type" || Type(type) == "parenthesized_type") {
    pointer = pointer || Type(type) == "pointer_type";
    type = Wrapped(type);
  }
  if (Type(type) == "generic_type") type = Field(type, "type");
  if (ts_node_is_null(type)) return "";
  const std::string name(NodeText(type, source));
  return pointer ? "(*" + name + ")" : name;
}

class Go final : public LanguageSpec {
 public:
  const TSLanguage* Grammar() const override { return tree_sitter_go(); }
  std::string_view Separator() const override { return "."; }

  std::string ModulePath(std::string_view workspace_path, TSNode root,
                         std::string_view source) const override {
    const uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode child = ts_node_named_child(root, i);
      if (Type(child) != "package_clause") continue;
      TSNode name = ts_node_named_child(child, 0);
      if (!ts_node_is_null(name)) return std::string(NodeText(name, source));
    }
    const size_t slash = workspace_path.rfind('/');
    if (slash == std::string_view::npos) return "";
    const std::string_view dir = workspace_path.substr(0, slash);
    return std::string(dir.substr(dir.rfind('/') + 1));
  }

  std::optional<UnitMatch> Match(TSNode node, bool) const override {
    const std::string_view type = Type(node);
    if (type == "function_declaration") return UnitMatch{UnitKind::kFunction, node};
    if (type == "method_declaration") return UnitMatch{UnitKind::kMethod, node};
    if (IsTypeSpec(node)) return UnitMatch{TypeKind(node), node};
    // A declaration of one type is that type's unit; a group's types are walked one by one.
    if (type == "type_declaration") {
      TSNode only{};
      const uint32_t n = ts_node_named_child_count(node);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode child = ts_node_named_child(node, i);
        if (!IsTypeSpec(child)) continue;
        if (!ts_node_is_null(only)) return std::nullopt;
        only = child;
      }
      if (!ts_node_is_null(only)) return UnitMatch{TypeKind(only), only};
    }
    return std::nullopt;
  }

  std::string Name(TSNode unit, std::string_view source) const override {
    std::string name = LanguageSpec::Name(unit, source);
    if (Type(unit) != "method_declaration") return name;
    const std::string receiver = Receiver(unit, source);
    return receiver.empty() ? name : receiver + "." + name;
  }

  TSNode Body(TSNode) const override { return TSNode{}; }
};

}  // namespace

const LanguageSpec& GoSpec() {
  static const Go spec;
  return spec;
}

}  // namespace kebab::parse::internal
