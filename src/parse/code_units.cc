#include "parse/internal/code_units.h"

#include <cstring>
#include <memory>

#include "parse/internal/grammars.h"

namespace kebab::parse::internal {
namespace {

// What a language's tree looks like to the unit finder.
struct LanguageSpec {
  const TSLanguage* (*grammar)();
  const char* separator;  // between a symbol's parts
  // The unit kind of a node type, or null when the node is no unit.
  const char* (*unit_kind)(std::string_view type, bool in_class);
};

const char* PythonUnit(std::string_view type, bool in_class) {
  if (type == "function_definition") return in_class ? "method" : "function";
  if (type == "class_definition") return "class";
  return nullptr;
}

const char* RustUnit(std::string_view type, bool in_class) {
  if (type == "function_item") return in_class ? "method" : "function";
  if (type == "struct_item" || type == "union_item") return "struct";
  if (type == "enum_item") return "enum";
  if (type == "trait_item") return "trait";
  if (type == "impl_item") return "impl";
  if (type == "mod_item") return "module";
  return nullptr;
}

const LanguageSpec& SpecOf(CodeLanguage language) {
  static const LanguageSpec kPython{tree_sitter_python, ".", PythonUnit};
  static const LanguageSpec kRust{tree_sitter_rust, "::", RustUnit};
  return language == CodeLanguage::kPython ? kPython : kRust;
}

std::string_view Text(TSNode node, std::string_view source) {
  const uint32_t begin = ts_node_start_byte(node), end = ts_node_end_byte(node);
  return begin <= end && end <= source.size() ? source.substr(begin, end - begin)
                                              : std::string_view();
}

TSNode Field(TSNode node, const char* name) {
  return ts_node_child_by_field_name(node, name, static_cast<uint32_t>(std::strlen(name)));
}

class UnitFinder {
 public:
  UnitFinder(const LanguageSpec& spec, CodeLanguage language, std::string_view source)
      : spec_(spec), language_(language), source_(source) {}

  void Walk(TSNode node, const std::string& prefix, bool in_class) {
    const uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode child = ts_node_named_child(node, i);
      // A Python decorator belongs to what it decorates; the unit starts at the decorator.
      TSNode unit = child;
      if (std::string_view(ts_node_type(child)) == "decorated_definition") {
        unit = Field(child, "definition");
        if (ts_node_is_null(unit)) continue;
      }
      const char* kind = spec_.unit_kind(ts_node_type(unit), in_class);
      if (kind == nullptr) {
        // Blocks, bodies and declaration lists hold units too.
        if (ts_node_named_child_count(child) > 0) Walk(child, prefix, in_class);
        continue;
      }
      const std::string name = Name(unit);
      const std::string symbol =
          name.empty() ? prefix : (prefix.empty() ? name : prefix + spec_.separator + name);
      CodeUnit u;
      u.symbol = symbol;
      u.kind = kind;
      u.start_line = ts_node_start_point(child).row + 1;
      u.end_line = ts_node_end_point(child).row + 1;
      u.has_error = ts_node_has_error(child);
      AttachDoc(node, i, unit, &u);
      units_.push_back(std::move(u));
      const std::string_view k = kind;
      const bool container = k == "class" || k == "impl" || k == "trait" || k == "module";
      TSNode body = Field(unit, "body");
      if (!ts_node_is_null(body)) Walk(body, symbol, container && k != "module");
    }
  }

  std::vector<CodeUnit> Take() { return std::move(units_); }

 private:
  // A unit's name: its "name" field, or for a Rust impl the type it is for.
  std::string Name(TSNode unit) const {
    TSNode name = Field(unit, "name");
    if (ts_node_is_null(name) && std::string_view(ts_node_type(unit)) == "impl_item") {
      name = Field(unit, "type");
    }
    return ts_node_is_null(name) ? std::string() : std::string(Text(name, source_));
  }

  // Python: the docstring opening the body. Rust: the `///` and `/** */` comments just above
  // (attributes between are skipped), which also move the unit's first line up.
  void AttachDoc(TSNode parent, uint32_t index, TSNode unit, CodeUnit* u) const {
    if (language_ == CodeLanguage::kPython) {
      TSNode body = Field(unit, "body");
      if (ts_node_is_null(body) || ts_node_named_child_count(body) == 0) return;
      TSNode first = ts_node_named_child(body, 0);
      if (std::string_view(ts_node_type(first)) != "expression_statement") return;
      TSNode str = ts_node_named_child(first, 0);
      if (!ts_node_is_null(str) && std::string_view(ts_node_type(str)) == "string") {
        u->doc = std::string(Text(str, source_));
      }
      return;
    }
    std::string doc;
    for (uint32_t j = index; j-- > 0;) {
      TSNode prev = ts_node_named_child(parent, j);
      const std::string_view type = ts_node_type(prev);
      if (type == "attribute_item") continue;
      std::string_view text = Text(prev, source_);
      // tree-sitter-rust's line comments end with their newline.
      while (text.ends_with('\n') || text.ends_with('\r')) text.remove_suffix(1);
      const bool is_doc = (type == "line_comment" && text.starts_with("///")) ||
                          (type == "block_comment" && text.starts_with("/**"));
      if (!is_doc || ts_node_end_point(prev).row + 1 < u->start_line - 1) break;
      doc.insert(0, std::string(text) + (doc.empty() ? "" : "\n"));
      u->start_line = ts_node_start_point(prev).row + 1;
    }
    while (!doc.empty() && doc.back() == '\n') doc.pop_back();
    u->doc = std::move(doc);
  }

  const LanguageSpec& spec_;
  const CodeLanguage language_;
  const std::string_view source_;
  std::vector<CodeUnit> units_;
};

std::string StripSuffix(std::string_view path, std::string_view suffix) {
  return std::string(path.ends_with(suffix) ? path.substr(0, path.size() - suffix.size()) : path);
}

}  // namespace

std::string ModulePath(CodeLanguage language, std::string_view workspace_path) {
  std::string path(workspace_path);
  if (language == CodeLanguage::kPython) {
    path = StripSuffix(StripSuffix(path, ".pyi"), ".py");
    path = StripSuffix(path, "/__init__");
    if (path == "__init__") path.clear();
    for (char& c : path) c = c == '/' ? '.' : c;
    return path;
  }
  path = StripSuffix(path, ".rs");
  if (path.starts_with("src/")) path.erase(0, 4);
  for (std::string_view root : {"lib", "main", "mod"}) {
    if (path == root) path.clear();
    if (path.ends_with("/" + std::string(root))) path = StripSuffix(path, "/" + std::string(root));
  }
  std::string out;
  for (char c : path) out += c == '/' ? std::string("::") : std::string(1, c);
  return out;
}

Result<std::vector<CodeUnit>> ExtractCodeUnits(CodeLanguage language, std::string_view source,
                                               std::string_view module_path) {
  const LanguageSpec& spec = SpecOf(language);
  std::unique_ptr<TSParser, void (*)(TSParser*)> parser(ts_parser_new(), ts_parser_delete);
  if (!ts_parser_set_language(parser.get(), spec.grammar())) {
    return InvalidInput("the grammar does not load into this tree-sitter runtime");
  }
  std::unique_ptr<TSTree, void (*)(TSTree*)> tree(
      ts_parser_parse_string(parser.get(), nullptr, source.data(),
                             static_cast<uint32_t>(source.size())),
      ts_tree_delete);
  if (tree == nullptr) return InvalidInput("the parser gave up on this file");
  UnitFinder finder(spec, language, source);
  finder.Walk(ts_tree_root_node(tree.get()), std::string(module_path), false);
  return finder.Take();
}

}  // namespace kebab::parse::internal
