// Kotlin: classes (data, sealed, value, inner...), interfaces (annotation classes too), enum
// classes, objects and companion objects (class: each is a class with one instance, and what it
// holds are methods), type aliases (type), functions, methods and secondary constructors
// (method, named "constructor"). An unnamed companion object is "Companion", as Kotlin and Java
// call it. An extension function `fun String.shout()` is named "shout", the name it is imported
// by (`import com.example.shout`); its receiver stays in its text. Doc comments are the KDoc
// `/** */` right above (annotations sit inside the declaration already); symbols start with the
// package header ("com.example.Widget.Companion.create").
//
// The grammar names few fields, so bodies are found by their node types.
#include "parse/internal/code_lang.h"
#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

// The first named child of `node` of type `a` or `b`, or a null node.
TSNode ChildOfType(TSNode node, std::string_view a, std::string_view b = {}) {
  const uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (Type(child) == a || (!b.empty() && Type(child) == b)) return child;
  }
  return TSNode{};
}

std::string WithoutSpaces(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
  }
  return out;
}

// Interface, enum or class: "interface", like the "enum" and "annotation" modifiers' words, is
// an unnamed token.
UnitKind ClassKind(TSNode decl) {
  const uint32_t n = ts_node_child_count(decl);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts_node_child(decl, i);
    if (Type(child) == "interface") return UnitKind::kInterface;
    if (Type(child) != "modifiers") continue;
    const uint32_t m = ts_node_named_child_count(child);
    for (uint32_t j = 0; j < m; ++j) {
      TSNode modifier = ts_node_named_child(child, j);
      if (Type(modifier) != "class_modifier") continue;
      const std::string_view word = Type(ts_node_child(modifier, 0));
      if (word == "enum") return UnitKind::kEnum;
      if (word == "annotation") return UnitKind::kInterface;
    }
  }
  return UnitKind::kClass;
}

class Kotlin final : public LanguageSpec {
 public:
  const TSLanguage* Grammar() const override { return tree_sitter_kotlin(); }
  std::string_view Separator() const override { return "."; }

  std::string ModulePath(std::string_view, TSNode root, std::string_view source) const override {
    TSNode header = ChildOfType(root, "package_header");
    if (ts_node_is_null(header)) return "";
    TSNode name = ChildOfType(header, "qualified_identifier", "identifier");
    return ts_node_is_null(name) ? "" : WithoutSpaces(NodeText(name, source));
  }

  // A declaration that should have a name and has none is a broken parse; a companion object
  // may be unnamed.
  std::optional<UnitMatch> Match(TSNode node, bool in_type) const override {
    const std::string_view type = Type(node);
    const bool named = !ts_node_is_null(Field(node, "name"));
    if (type == "function_declaration" && named) {
      // An object expression's functions are methods too, though it is no unit.
      const std::string_view parent = Type(ts_node_parent(node));
      const bool method = in_type || parent == "class_body" || parent == "enum_class_body";
      return UnitMatch{method ? UnitKind::kMethod : UnitKind::kFunction, node};
    }
    if (type == "secondary_constructor") return UnitMatch{UnitKind::kMethod, node};
    if (type == "class_declaration" && named) return UnitMatch{ClassKind(node), node};
    if ((type == "object_declaration" && named) || type == "companion_object") {
      return UnitMatch{UnitKind::kClass, node};
    }
    if (type == "type_alias" && !ts_node_is_null(Field(node, "type"))) {
      return UnitMatch{UnitKind::kType, node};
    }
    return std::nullopt;
  }

  std::string Name(TSNode unit, std::string_view source) const override {
    const std::string_view type = Type(unit);
    if (type == "secondary_constructor") return "constructor";
    if (type == "type_alias") return std::string(NodeText(Field(unit, "type"), source));
    std::string name = LanguageSpec::Name(unit, source);
    if (name.empty() && type == "companion_object") return "Companion";
    return name;
  }

  TSNode Body(TSNode unit) const override {
    const std::string_view type = Type(unit);
    if (type == "function_declaration") return ChildOfType(unit, "function_body");
    if (type == "secondary_constructor") return ChildOfType(unit, "block");
    return ChildOfType(unit, "class_body", "enum_class_body");
  }

  bool IsDocComment(std::string_view comment) const override {
    return comment.starts_with("/**") && comment != "/**/";
  }

  // The grammar reads an annotation with arguments followed by a modifier on the next line
  // (`@Suppress("X")` over `public fun f()`) as an annotated expression before the declaration:
  // it stays between the KDoc and its declaration.
  bool SkippedBeforeUnit(std::string_view type) const override {
    return type == "annotated_expression";
  }
};

}  // namespace

const LanguageSpec& KotlinSpec() {
  static const Kotlin spec;
  return spec;
}

}  // namespace kebab::parse::internal
