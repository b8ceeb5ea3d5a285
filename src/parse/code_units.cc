#include "parse/internal/code_units.h"

#include <algorithm>
#include <memory>

#include "parse/internal/code_lang.h"

namespace kebab::parse::internal {
namespace {

// The spec of each language; null only for a value outside the enum.
const LanguageSpec* SpecOf(CodeLanguage language) {
  switch (language) {
    case CodeLanguage::kPython:
      return &PythonSpec();
    case CodeLanguage::kRust:
      return &RustSpec();
    case CodeLanguage::kTypeScript:
      return &TypeScriptSpec();
    case CodeLanguage::kTsx:
      return &TsxSpec();
    case CodeLanguage::kJavaScript:
      return &JavaScriptSpec();
    case CodeLanguage::kGo:
      return &GoSpec();
    case CodeLanguage::kJava:
      return &JavaSpec();
    case CodeLanguage::kKotlin:
      return &KotlinSpec();
    case CodeLanguage::kC:
      return &CSpec();
    case CodeLanguage::kCpp:
      return &CppSpec();
  }
  return nullptr;
}

bool IsTypeKind(UnitKind kind) {
  switch (kind) {
    case UnitKind::kClass:
    case UnitKind::kStruct:
    case UnitKind::kEnum:
    case UnitKind::kTrait:
    case UnitKind::kInterface:
    case UnitKind::kImpl:
      return true;
    default:
      return false;
  }
}

// The last row holding `node`'s text: some grammars' line comments end with their newline, at
// column 0 of the next row.
uint32_t LastRow(TSNode node) {
  const TSPoint end = ts_node_end_point(node);
  return end.column == 0 && end.row > ts_node_start_point(node).row ? end.row - 1 : end.row;
}

bool IsComment(TSNode node) {
  return Type(node).ends_with("comment");
}

class UnitFinder {
 public:
  UnitFinder(const LanguageSpec& spec, std::string_view source) : spec_(spec), source_(source) {}

  void Walk(TSNode node, const std::string& prefix, bool in_type) {
    const uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode child = ts_node_named_child(node, i);
      const std::optional<UnitMatch> match = spec_.Match(child, in_type);
      if (!match) {
        // Blocks, bodies, declaration lists and error nodes hold units too.
        if (ts_node_named_child_count(child) > 0) Walk(child, prefix, in_type);
        continue;
      }
      const std::string name = spec_.Name(match->node, source_);
      const std::string symbol =
          name.empty() ? prefix
                       : (prefix.empty() ? name : prefix + std::string(spec_.Separator()) + name);
      if (!match->scope_only) {
        CodeUnit u;
        u.symbol = symbol;
        u.kind = match->kind;
        u.start_line = ts_node_start_point(child).row + 1;
        u.end_line = LastRow(child) + 1;
        u.has_error = ts_node_has_error(child);
        AttachDoc(node, i, match->node, &u);
        u.head_end_line = HeadEnd(match->node, u);
        units_.push_back(std::move(u));
      }
      TSNode body = spec_.Body(match->node);
      if (!ts_node_is_null(body)) Walk(body, symbol, IsTypeKind(match->kind));
    }
  }

  std::vector<CodeUnit> Take() { return std::move(units_); }

 private:
  // CodeUnit::head_end_line of `u`, whose definition node is `unit`. Its grammar's `body`
  // field, not spec_.Body (which may be null where a body holds no units: a Go function).
  uint32_t HeadEnd(TSNode unit, const CodeUnit& u) const {
    TSNode body = Field(unit, "body");
    if (ts_node_is_null(body)) return 0;
    const uint32_t body_row = ts_node_start_point(body).row;  // 0-based
    if (spec_.DocstringInBody()) {
      // The docstring is the body's first statement; without one the head ends on the line
      // before the body (`def f():` then its statements), or on it (`def f(): pass`).
      if (!u.doc.empty()) return LastRow(ts_node_named_child(body, 0)) + 1;
      return std::max(u.start_line, body_row);
    }
    return body_row + 1;  // the line the body's brace opens on
  }

  void AttachDoc(TSNode parent, uint32_t index, TSNode unit, CodeUnit* u) const {
    if (spec_.DocstringInBody()) {
      TSNode body = spec_.Body(unit);
      if (ts_node_is_null(body) || ts_node_named_child_count(body) == 0) return;
      TSNode first = ts_node_named_child(body, 0);
      if (Type(first) != "expression_statement") return;
      TSNode str = ts_node_named_child(first, 0);
      if (Type(str) == "string") u->doc = std::string(NodeText(str, source_));
      return;
    }
    std::string doc;
    uint32_t next_row = u->start_line - 1;  // 0-based row of what the comment must touch
    for (uint32_t j = index; j-- > 0;) {
      TSNode prev = ts_node_named_child(parent, j);
      if (LastRow(prev) + 1 < next_row) break;  // a blank line between
      // Decorators and attributes beside a unit are its lines, doc comment or none.
      if (spec_.SkippedBeforeUnit(Type(prev))) {
        next_row = ts_node_start_point(prev).row;
        u->start_line = next_row + 1;
        continue;
      }
      if (!IsComment(prev)) break;
      std::string_view text = NodeText(prev, source_);
      while (text.ends_with('\n') || text.ends_with('\r')) text.remove_suffix(1);
      if (!spec_.IsDocComment(text)) break;
      // A comment on the line a statement ends is that statement's.
      if (j > 0 && LastRow(ts_node_named_child(parent, j - 1)) == ts_node_start_point(prev).row) {
        break;
      }
      doc.insert(0, std::string(text) + (doc.empty() ? "" : "\n"));
      u->start_line = ts_node_start_point(prev).row + 1;
      next_row = ts_node_start_point(prev).row;
    }
    u->doc = std::move(doc);
  }

  const LanguageSpec& spec_;
  const std::string_view source_;
  std::vector<CodeUnit> units_;
};

}  // namespace

std::string_view UnitKindName(UnitKind kind) {
  switch (kind) {
    case UnitKind::kFunction:
      return "function";
    case UnitKind::kMethod:
      return "method";
    case UnitKind::kClass:
      return "class";
    case UnitKind::kStruct:
      return "struct";
    case UnitKind::kEnum:
      return "enum";
    case UnitKind::kTrait:
      return "trait";
    case UnitKind::kInterface:
      return "interface";
    case UnitKind::kImpl:
      return "impl";
    case UnitKind::kModule:
      return "module";
    case UnitKind::kType:
      return "type";
  }
  return "function";
}

TreePtr ParseSource(TSParser* parser, std::string_view source) {
  return TreePtr(
      ts_parser_parse_string(parser, nullptr, source.data(), static_cast<uint32_t>(source.size())),
      ts_tree_delete);
}

TreePtr LanguageSpec::Parse(TSParser* parser, std::string_view source) const {
  return ParseSource(parser, source);
}

std::string LanguageSpec::Name(TSNode unit, std::string_view source) const {
  TSNode name = Field(unit, "name");
  return ts_node_is_null(name) ? std::string() : std::string(NodeText(name, source));
}

TSNode LanguageSpec::Body(TSNode unit) const {
  return Field(unit, "body");
}

bool LanguageSpec::IsDocComment(std::string_view) const {
  return true;
}

bool LanguageSpec::SkippedBeforeUnit(std::string_view) const {
  return false;
}

std::string StripSuffix(std::string_view path, std::string_view suffix) {
  return std::string(path.ends_with(suffix) ? path.substr(0, path.size() - suffix.size()) : path);
}

Result<std::vector<CodeUnit>> ExtractCodeUnits(CodeLanguage language, std::string_view source,
                                               std::string_view workspace_path) {
  const LanguageSpec* spec = SpecOf(language);
  if (spec == nullptr) return InvalidInput("kebab has no syntax rules for this language yet");
  std::unique_ptr<TSParser, void (*)(TSParser*)> parser(ts_parser_new(), ts_parser_delete);
  if (!ts_parser_set_language(parser.get(), spec->Grammar())) {
    return InvalidInput("the grammar does not load into this tree-sitter runtime");
  }
  const TreePtr tree = spec->Parse(parser.get(), source);
  if (tree == nullptr) return InvalidInput("the parser gave up on this file");
  const TSNode root = ts_tree_root_node(tree.get());
  UnitFinder finder(*spec, source);
  finder.Walk(root, spec->ModulePath(workspace_path, root, source), false);
  return finder.Take();
}

}  // namespace kebab::parse::internal
