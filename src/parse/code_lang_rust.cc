// Rust: functions, structs, unions, enums, traits, impls and mods; `///` and `/** */` doc
// comments above them (attributes between are skipped); symbols are crate-relative module
// paths ("src/net/retry.rs" and "crates/x/src/net/retry.rs" are net::retry; lib.rs, main.rs and
// mod.rs name their folder), an impl named by the type it is for.
#include "parse/internal/code_lang.h"
#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

class Rust final : public LanguageSpec {
 public:
  const TSLanguage* Grammar() const override { return tree_sitter_rust(); }
  std::string_view Separator() const override { return "::"; }

  std::string ModulePath(std::string_view workspace_path, TSNode, std::string_view) const override {
    std::string path = StripSuffix(workspace_path, ".rs");
    // A crate's modules start under its src/, wherever the crate sits in the workspace
    // (crates/net/src/retry.rs, a repository's api/src/retry.rs).
    if (path.starts_with("src/")) path.erase(0, 4);
    if (const size_t src = path.rfind("/src/"); src != std::string::npos) path.erase(0, src + 5);
    for (std::string_view root : {"lib", "main", "mod"}) {
      if (path == root) path.clear();
      const std::string tail = "/" + std::string(root);
      if (path.ends_with(tail)) path = StripSuffix(path, tail);
    }
    std::string out;
    for (char c : path) out += c == '/' ? std::string("::") : std::string(1, c);
    return out;
  }

  std::optional<UnitMatch> Match(TSNode node, bool in_type) const override {
    const std::string_view type = Type(node);
    if (type == "function_item") {
      return UnitMatch{in_type ? UnitKind::kMethod : UnitKind::kFunction, node};
    }
    if (type == "struct_item" || type == "union_item") return UnitMatch{UnitKind::kStruct, node};
    if (type == "enum_item") return UnitMatch{UnitKind::kEnum, node};
    if (type == "trait_item") return UnitMatch{UnitKind::kTrait, node};
    if (type == "impl_item") return UnitMatch{UnitKind::kImpl, node};
    if (type == "mod_item") return UnitMatch{UnitKind::kModule, node};
    return std::nullopt;
  }

  // An impl is named by the type it is for.
  std::string Name(TSNode unit, std::string_view source) const override {
    if (Type(unit) == "impl_item") return std::string(NodeText(Field(unit, "type"), source));
    return LanguageSpec::Name(unit, source);
  }

  bool IsDocComment(std::string_view comment) const override {
    return comment.starts_with("///") || comment.starts_with("/**");
  }

  bool SkippedBeforeUnit(std::string_view type) const override { return type == "attribute_item"; }
};

}  // namespace

const LanguageSpec& RustSpec() {
  static const Rust spec;
  return spec;
}

}  // namespace kebab::parse::internal
