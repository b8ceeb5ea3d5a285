// The errors of a C or C++ tree and their regions (code_macro_errors.h).
#include "parse/internal/code_macro_errors.h"

#include <algorithm>
#include <string_view>

namespace kebab::parse::internal {
namespace {

// The largest conditional (`#if` to `#endif`) inside a function that is taken for one splitting a
// statement (`} else\n#endif\n{`) when an error is in it.
constexpr uint32_t kMaxConditionalBytes = 4096;

bool IsConditional(std::string_view type) {
  return type.starts_with("preproc_if") || type.starts_with("preproc_el");
}

// Nodes whose children are statements or declarations, one by one.
bool IsList(std::string_view type) {
  return type == "translation_unit" || type == "compound_statement" || type == "declaration_list" ||
         type == "field_declaration_list" || type == "case_statement" || type == "ERROR" ||
         IsConditional(type);
}

// A declaration, a definition or a statement other than an expression.
bool IsItem(std::string_view type) {
  return type == "function_definition" || type == "declaration" || type == "type_definition" ||
         type == "field_declaration" || type == "namespace_definition" ||
         type == "template_declaration" || type == "linkage_specification" ||
         type == "alias_declaration" || type == "compound_statement" ||
         type.starts_with("preproc_") ||
         (type.ends_with("_statement") && type != "expression_statement");
}

// Whether an ERROR node holds whole declarations or statements (the grammar gave up on the
// file or the block around them): its errors are then the ones inside it and the stray
// tokens between them, not all of it.
bool HoldsItems(TSNode error) {
  TSTreeCursor cursor = ts_tree_cursor_new(error);
  bool holds = false;
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      holds = IsItem(Type(ts_tree_cursor_current_node(&cursor)));
    } while (!holds && ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return holds;
}

class ErrorCollector {
 public:
  explicit ErrorCollector(std::vector<ErrorSite>* out) : out_(out) {}

  // The errors under the cursor's node, in source order.
  void Collect(TSTreeCursor* cursor) {
    const TSNode node = ts_tree_cursor_current_node(cursor);
    const bool missing = ts_node_is_missing(node);
    const bool error = Type(node) == "ERROR";
    if (missing || (error && !HoldsItems(node))) {
      Add(node, ts_node_start_byte(node), ts_node_end_byte(node), missing);
      return;
    }
    if (!ts_node_has_error(node)) return;
    path_.push_back(node);
    if (ts_tree_cursor_goto_first_child(cursor)) {
      // In an ERROR holding items, each run of stray tokens between them is an error.
      uint32_t stray_begin = 0, stray_end = 0;
      bool stray = false;
      do {
        const TSNode child = ts_tree_cursor_current_node(cursor);
        if (error && !IsItem(Type(child)) && Type(child) != "ERROR" && !ts_node_is_missing(child)) {
          if (!stray) stray_begin = ts_node_start_byte(child);
          stray_end = ts_node_end_byte(child);
          stray = true;
          continue;
        }
        if (stray) Add(child, stray_begin, stray_end, false);
        stray = false;
        Collect(cursor);
      } while (ts_tree_cursor_goto_next_sibling(cursor));
      ts_tree_cursor_goto_parent(cursor);
      if (stray) Add(node, stray_begin, stray_end, false);
    }
    path_.pop_back();
  }

 private:
  // An error at bytes [begin, end) within `node` (or the stray tokens before `node`). Its
  // region is the declaration or statement holding it, up to its body when the error is before
  // it (a function's head); inside a function, with the conditional lines around it.
  void Add(TSNode node, uint32_t begin, uint32_t end, bool missing) {
    ErrorSite e{begin, end, missing, begin, end};
    e.in_code = std::any_of(path_.begin(), path_.end(),
                            [](TSNode n) { return Type(n) == "compound_statement"; });
    if (!path_.empty() && Type(path_.back()) == "ERROR") {
      out_->push_back(e);
      return;
    }
    TSNode item = node;
    for (size_t k = path_.size(); k > 0; --k) {
      const TSNode parent = path_[k - 1];
      // A conditional that large is no statement's: a brace its branches left open made the
      // rest of the file look like one function.
      const bool splits_statement =
          e.in_code && IsConditional(Type(parent)) &&
          ts_node_end_byte(parent) - ts_node_start_byte(parent) <= kMaxConditionalBytes;
      if (IsList(Type(parent)) && !splits_statement) break;
      item = parent;
    }
    e.region_begin = std::min(begin, ts_node_start_byte(item));
    e.region_end = std::max(end, ts_node_end_byte(item));
    const TSNode body = Field(item, "body");
    if (!ts_node_is_null(body) && end <= ts_node_start_byte(body)) {
      e.region_end = ts_node_start_byte(body);
    }
    out_->push_back(e);
  }

  std::vector<ErrorSite>* out_;
  std::vector<TSNode> path_;  // the ancestors of the cursor's node
};

}  // namespace

std::vector<ErrorSite> Errors(const TSTree* tree) {
  std::vector<ErrorSite> out;
  const TSNode root = ts_tree_root_node(tree);
  if (!ts_node_has_error(root)) return out;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  ErrorCollector(&out).Collect(&cursor);
  ts_tree_cursor_delete(&cursor);
  return out;
}

uint64_t Badness(const std::vector<ErrorSite>& errors, uint32_t begin, uint32_t end) {
  uint64_t badness = 0;
  // Errors do not overlap: their ends rise with their starts.
  auto it = std::lower_bound(errors.begin(), errors.end(), begin,
                             [](const ErrorSite& e, uint32_t b) { return e.end < b; });
  for (; it != errors.end() && it->begin <= end; ++it) {
    if (it->missing ? it->begin < begin : it->end <= begin || it->begin >= end) continue;
    badness += 1 + (std::min(it->end, end) - std::max(it->begin, begin));
  }
  return badness;
}

uint64_t TotalBadness(const std::vector<ErrorSite>& errors) {
  return Badness(errors, 0, UINT32_MAX);
}

std::vector<Region> Regions(const std::vector<ErrorSite>& errors) {
  std::vector<Region> regions;
  for (const ErrorSite& e : errors) regions.push_back({e.region_begin, e.region_end});
  std::sort(regions.begin(), regions.end(),
            [](const Region& a, const Region& b) { return a.begin < b.begin; });
  std::vector<Region> merged;
  for (const Region& r : regions) {
    if (!merged.empty() && r.begin <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

}  // namespace kebab::parse::internal
