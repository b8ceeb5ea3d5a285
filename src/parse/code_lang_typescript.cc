// TypeScript and TSX (one grammar each, the same node types): JavaScript's units
// (code_lang_javascript.cc: functions, classes, methods, top-level `const f = () => {}`,
// symbols "src/foo.Foo.search") and TypeScript's declarations: abstract classes, interfaces,
// type aliases, enums, `declare`d functions and overload signatures (functions, one unit per
// signature), and namespaces and modules (`namespace A.B {}`, `declare module "x" {}`), which
// are module units that name what they hold. `export` and `declare` are part of a unit's
// lines, and so are a method's decorators and overload signatures. Other signatures in a
// class or an interface (abstract methods, members, a declared class's methods) are their
// container's lines. Doc comments as in JavaScript: every comment right above.
#include "parse/internal/code_lang_ecmascript.h"
#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

class TypeScript final : public EcmaScriptSpec {
 public:
  explicit TypeScript(const TSLanguage* grammar) : grammar_(grammar) {}

  const TSLanguage* Grammar() const override { return grammar_; }

  // `declare module "express"` is named without its quotes.
  std::string Name(TSNode unit, std::string_view source) const override {
    TSNode name = Field(unit, "name");
    if (Type(name) == "string") {
      TSNode fragment = ts_node_named_child(name, 0);
      return ts_node_is_null(fragment) ? "" : std::string(NodeText(fragment, source));
    }
    return EcmaScriptSpec::Name(unit, source);
  }

  // A method's decorators, and the overload signatures right above its implementation, stand
  // beside it in the class body.
  bool SkippedBeforeUnit(std::string_view type) const override {
    return type == "decorator" || type == "method_signature";
  }

 protected:
  std::optional<UnitMatch> MatchDeclaration(TSNode decl, bool in_type) const override {
    const std::string_view type = Type(decl);
    if (type == "abstract_class_declaration") return UnitMatch{UnitKind::kClass, decl};
    if (type == "interface_declaration") return UnitMatch{UnitKind::kInterface, decl};
    if (type == "type_alias_declaration") return UnitMatch{UnitKind::kType, decl};
    if (type == "enum_declaration") return UnitMatch{UnitKind::kEnum, decl};
    if (type == "function_signature") return UnitMatch{UnitKind::kFunction, decl};
    if (type == "internal_module" || type == "module") return UnitMatch{UnitKind::kModule, decl};
    // A statement-level `namespace X {}` parses as an expression statement.
    if (type == "expression_statement" || type == "ambient_declaration") {
      TSNode inner = ts_node_named_child(decl, 0);
      if (type == "ambient_declaration" || Type(inner) == "internal_module") {
        return MatchDeclaration(inner, in_type);
      }
    }
    return EcmaScriptSpec::MatchDeclaration(decl, in_type);
  }

 private:
  const TSLanguage* const grammar_;
};

}  // namespace

const LanguageSpec& TypeScriptSpec() {
  static const TypeScript spec(tree_sitter_typescript());
  return spec;
}

const LanguageSpec& TsxSpec() {
  static const TypeScript spec(tree_sitter_tsx());
  return spec;
}

}  // namespace kebab::parse::internal
