// Java: classes and records (class), interfaces and annotation types (interface), enums, and
// methods and constructors (method), a method without a body included: an interface's or an
// abstract method's declaration is all there is of it, and its Javadoc is its documentation.
// Doc comments are the `/** */` (or Java 23's `///`) right above; annotations sit inside the
// declaration already. Symbols start with the package ("com.example.Outer.Inner.run"), a
// constructor is named by its class ("Outer.Outer"), and the methods of an anonymous or local
// class are named under the method that holds it.
#include "parse/internal/code_lang.h"
#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

class Java final : public LanguageSpec {
 public:
  const TSLanguage* Grammar() const override { return tree_sitter_java(); }
  std::string_view Separator() const override { return "."; }

  // The package declaration's name, spaces dropped ("package com . example;" is legal).
  std::string ModulePath(std::string_view, TSNode root, std::string_view source) const override {
    const uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode child = ts_node_named_child(root, i);
      if (Type(child) != "package_declaration") continue;
      const uint32_t m = ts_node_named_child_count(child);
      for (uint32_t j = 0; j < m; ++j) {
        TSNode name = ts_node_named_child(child, j);
        if (Type(name) != "identifier" && Type(name) != "scoped_identifier") continue;
        std::string out;
        for (char c : NodeText(name, source)) {
          if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
        }
        return out;
      }
    }
    return "";
  }

  // Every method is a method, also in an anonymous class, which is no unit of its own. A
  // declaration without a name is a broken parse.
  std::optional<UnitMatch> Match(TSNode node, bool) const override {
    const std::string_view type = Type(node);
    if (!type.ends_with("_declaration") || ts_node_is_null(Field(node, "name"))) {
      return std::nullopt;
    }
    if (type == "method_declaration" || type == "constructor_declaration" ||
        type == "compact_constructor_declaration") {
      return UnitMatch{UnitKind::kMethod, node};
    }
    if (type == "class_declaration" || type == "record_declaration") {
      return UnitMatch{UnitKind::kClass, node};
    }
    if (type == "interface_declaration" || type == "annotation_type_declaration") {
      return UnitMatch{UnitKind::kInterface, node};
    }
    if (type == "enum_declaration") return UnitMatch{UnitKind::kEnum, node};
    return std::nullopt;
  }

  // `///` is a Markdown doc comment since Java 23.
  bool IsDocComment(std::string_view comment) const override {
    return (comment.starts_with("/**") && comment != "/**/") || comment.starts_with("///");
  }
};

}  // namespace

const LanguageSpec& JavaSpec() {
  static const Java spec;
  return spec;
}

}  // namespace kebab::parse::internal
