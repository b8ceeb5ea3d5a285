// Python: functions and classes (a function in a class is a method), decorators included,
// docstrings from the body; symbols are dotted module paths ("pkg/__init__.py" names "pkg").
#include "parse/internal/code_lang.h"
#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

class Python final : public LanguageSpec {
 public:
  const TSLanguage* Grammar() const override { return tree_sitter_python(); }
  std::string_view Separator() const override { return "."; }

  std::string ModulePath(std::string_view workspace_path, TSNode, std::string_view) const override {
    std::string path = StripSuffix(StripSuffix(workspace_path, ".pyi"), ".py");
    path = StripSuffix(path, "/__init__");
    if (path == "__init__") path.clear();
    for (char& c : path) c = c == '/' ? '.' : c;
    return path;
  }

  std::optional<UnitMatch> Match(TSNode node, bool in_type) const override {
    // A decorator belongs to what it decorates; the unit starts at the decorator.
    TSNode def = Type(node) == "decorated_definition" ? Field(node, "definition") : node;
    const std::string_view type = Type(def);
    if (type == "function_definition") {
      return UnitMatch{in_type ? UnitKind::kMethod : UnitKind::kFunction, def};
    }
    if (type == "class_definition") return UnitMatch{UnitKind::kClass, def};
    return std::nullopt;
  }

  bool DocstringInBody() const override { return true; }
};

}  // namespace

const LanguageSpec& PythonSpec() {
  static const Python spec;
  return spec;
}

}  // namespace kebab::parse::internal
