// Tier 2 of code ingest: files with no grammar whose structure a line reader sees cheaply.
// Build manifests (Cargo.toml, package.json, pyproject.toml, go.mod, pom.xml, build.gradle)
// are one unit named by their package; a Dockerfile is one unit per build stage; a Kubernetes
// YAML file one unit per resource, `Kind/namespace/name`; a shell script one unit per function.
// The readers scan strings only (no TOML, YAML or XML library: a name is all they need) and
// never fail: a file they cannot read gives no units and is chunked as plain paragraphs
// (Tier 3). Module-private; stateless.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kebab::parse::internal {

// How a source file without a grammar is read into units, if at all.
enum class LineReader {
  kNone,  // Tier 3: blank-line paragraphs
  kManifest,
  kDockerfile,
  kYaml,  // Kubernetes resources when its documents are; otherwise Tier 3
  kShell,
};

enum class ManifestKind { kCargo, kNpm, kPyproject, kGoMod, kMaven, kGradle };

// The manifest a file is by its whole name ("Cargo.toml", "build.gradle.kts", ...;
// case-sensitive, as the tools that read them are), or none.
std::optional<ManifestKind> ManifestOfFileName(std::string_view file_name);

struct LineUnit {
  std::string symbol;
  uint32_t start_line = 0, end_line = 0;  // 1-based, inclusive
};

struct LineUnits {
  std::vector<LineUnit> units;       // in source order, disjoint
  std::vector<uint32_t> separators;  // lines of no block (YAML's `---` between documents)
};

// A file's lines as the code extractor splits them (at LF, CR dropped); line n is lines[n-1].
using SourceLines = std::vector<std::string_view>;

// The whole manifest as one unit (its first to last non-blank line), named by the package it
// declares when the name is written plainly ([package] name, "name", module, the project's
// artifactId, rootProject.name), else by `file_name`.
LineUnits ManifestUnits(ManifestKind kind, std::string_view text, const SourceLines& lines,
                        std::string_view file_name);

// One unit per build stage: from a `FROM` (with the comment lines right above it) to the next
// stage; what precedes the first FROM (ARGs, parser directives) belongs to the first stage.
// Symbol: the stage's `AS` name, else its image. No FROM: no units.
LineUnits DockerfileUnits(const SourceLines& lines);

// One unit per YAML document (split at `---` lines) that has top-level `apiVersion:` and
// `kind:`, named `Kind/namespace/name` from its `metadata:` map (namespace "default" when
// absent, name "<unnamed>"); other documents are left to the caller. No resource: no units.
LineUnits KubernetesUnits(const SourceLines& lines);

// One unit per shell function (`name() {`, `function name {`, `function name() {`), from the
// comment lines right above it to its closing brace, named by the function. No function: no
// units.
LineUnits ShellUnits(const SourceLines& lines);

// Helpers the readers share.
inline bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}
inline std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}
inline bool BlankLine(std::string_view line) {
  return TrimSpace(line).empty();
}
// `s` without one pair of surrounding quotes ("x" or 'x').
inline std::string_view Unquote(std::string_view s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return s.substr(1, s.size() - 2);
  }
  return s;
}
// The first and last non-blank lines in [first, last] (1-based), or nullopt when all are blank.
std::optional<std::pair<uint32_t, uint32_t>> NonBlankRange(const SourceLines& lines, uint32_t first,
                                                           uint32_t last);

}  // namespace kebab::parse::internal
