// Kubernetes YAML as one unit per resource (code_lines.h). A small line reader, not a YAML
// parser: a resource's kind and name sit in plain block-style keys in every manifest written
// by hand or by kubectl, and a document it cannot read is simply not a resource.
#include "parse/internal/code_lines.h"

namespace kebab::parse::internal {
namespace {

// A document separator (`---`, `--- # comment`) or end marker (`...`).
bool IsDocumentBoundary(std::string_view line) {
  for (std::string_view marker : {std::string_view("---"), std::string_view("...")}) {
    if (line.starts_with(marker) && (line.size() == 3 || IsSpace(line[3]))) return true;
  }
  return false;
}

size_t Indent(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

// `key: value` with any trailing ` # comment` and quotes dropped; false when the line is no
// mapping entry.
bool KeyValue(std::string_view line, std::string_view* key, std::string_view* value) {
  line = TrimSpace(line);
  if (line.empty() || line.front() == '#' || line.front() == '-') return false;
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  if (colon + 1 < line.size() && !IsSpace(line[colon + 1])) return false;  // `a:b` is a scalar
  *key = Unquote(TrimSpace(line.substr(0, colon)));
  std::string_view v = line.substr(colon + 1);
  if (const size_t hash = v.find(" #"); hash != std::string_view::npos) v = v.substr(0, hash);
  *value = Unquote(TrimSpace(v));
  return true;
}

struct Resource {
  bool has_api_version = false;
  std::string kind, name, name_prefix, ns;
};

Resource ReadDocument(const SourceLines& lines, uint32_t first, uint32_t last) {
  Resource r;
  bool in_metadata = false;
  size_t child_indent = 0;  // the indent of metadata's own keys; 0 until the first is seen
  for (uint32_t n = first; n <= last; ++n) {
    const std::string_view line = lines[n - 1];
    const std::string_view trimmed = TrimSpace(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    std::string_view key, value;
    const size_t indent = Indent(line);
    if (indent == 0) {
      in_metadata = false;
      if (!KeyValue(line, &key, &value)) continue;
      if (key == "apiVersion") r.has_api_version = !value.empty();
      if (key == "kind") r.kind = value;
      if (key == "metadata" && value.empty()) {
        in_metadata = true;
        child_indent = 0;
      }
      continue;
    }
    if (!in_metadata) continue;
    if (child_indent == 0) child_indent = indent;
    if (indent != child_indent || !KeyValue(line, &key, &value)) continue;
    if (key == "name") r.name = value;
    if (key == "generateName") r.name_prefix = value;
    if (key == "namespace") r.ns = value;
  }
  return r;
}

}  // namespace

LineUnits KubernetesUnits(const SourceLines& lines) {
  LineUnits out;
  const auto count = static_cast<uint32_t>(lines.size());
  uint32_t first = 1;
  for (uint32_t n = 1; n <= count + 1; ++n) {
    const bool boundary = n <= count && IsDocumentBoundary(lines[n - 1]);
    if (!boundary && n <= count) continue;
    if (boundary) out.separators.push_back(n);
    if (const auto range = NonBlankRange(lines, first, n - 1)) {
      const Resource r = ReadDocument(lines, range->first, range->second);
      if (r.has_api_version && !r.kind.empty()) {
        const std::string name =
            !r.name.empty() ? r.name : (!r.name_prefix.empty() ? r.name_prefix : "<unnamed>");
        out.units.push_back({r.kind + "/" + (r.ns.empty() ? "default" : r.ns) + "/" + name,
                             range->first, range->second});
      }
    }
    first = n + 1;
  }
  return out;
}

}  // namespace kebab::parse::internal
