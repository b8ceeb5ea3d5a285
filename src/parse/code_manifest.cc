// Build manifests as one unit each, named by the package they declare (code_lines.h).
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <utility>

#include "parse/internal/code_lines.h"

namespace kebab::parse::internal {
namespace {

bool StartsWithWord(std::string_view s, std::string_view word) {
  return s.starts_with(word) && (s.size() == word.size() || IsSpace(s[word.size()]));
}

// The value of `key = "value"` in TOML table `[table]`: the first table header of that name,
// the first key line in it. Enough for a package name, which is never a multi-line string.
std::string TomlValue(const SourceLines& lines, std::string_view table, std::string_view key) {
  bool in_table = false;
  for (std::string_view line : lines) {
    line = TrimSpace(line);
    if (line.starts_with('[')) {
      const size_t close = line.find(']');
      in_table = !line.starts_with("[[") && close != std::string_view::npos &&
                 TrimSpace(line.substr(1, close - 1)) == table;
      continue;
    }
    if (!in_table || !line.starts_with(key)) continue;
    std::string_view rest = TrimSpace(line.substr(key.size()));
    if (!rest.starts_with('=')) continue;
    rest = TrimSpace(rest.substr(1));
    if (rest.empty() || (rest.front() != '"' && rest.front() != '\'')) return {};
    const size_t end = rest.find(rest.front(), 1);
    return end == std::string_view::npos ? std::string() : std::string(rest.substr(1, end - 1));
  }
  return {};
}

std::string NpmName(std::string_view text) {
  // Parsed without exceptions: a broken package.json is still one block, named by its file.
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_object()) {
    const auto it = j.find("name");
    if (it != j.end() && it->is_string()) return it->get<std::string>();
  }
  return {};
}

std::string GoModule(const SourceLines& lines) {
  for (std::string_view line : lines) {
    line = TrimSpace(line);
    if (!StartsWithWord(line, "module")) continue;
    std::string_view path = line.substr(6);
    if (const size_t comment = path.find("//"); comment != std::string_view::npos) {
      path = path.substr(0, comment);
    }
    return std::string(Unquote(TrimSpace(path)));
  }
  return {};
}

// The project's own <artifactId>: the one directly inside <project>, not a parent's, a
// dependency's or a plugin's. Tags are walked by depth; comments and declarations skipped.
std::string MavenArtifact(std::string_view xml) {
  int depth = 0;
  size_t pos = 0;
  while ((pos = xml.find('<', pos)) != std::string_view::npos) {
    if (xml.substr(pos, 4) == "<!--") {
      pos = xml.find("-->", pos);
      if (pos == std::string_view::npos) break;
      continue;
    }
    const size_t close = xml.find('>', pos);
    if (close == std::string_view::npos) break;
    const std::string_view tag = xml.substr(pos + 1, close - pos - 1);
    pos = close + 1;
    if (tag.empty() || tag.front() == '?' || tag.front() == '!' || tag.back() == '/') continue;
    if (tag.front() == '/') {
      --depth;
      continue;
    }
    if (depth == 1 && tag == "artifactId") {
      const size_t end = xml.find('<', pos);
      return end == std::string_view::npos ? std::string()
                                           : std::string(TrimSpace(xml.substr(pos, end - pos)));
    }
    ++depth;
  }
  return {};
}

// settings.gradle's `rootProject.name = 'app'` (a build.gradle seldom names its project).
std::string GradleName(const SourceLines& lines) {
  for (std::string_view line : lines) {
    line = TrimSpace(line);
    if (!line.starts_with("rootProject.name")) continue;
    std::string_view rest = TrimSpace(line.substr(16));
    if (!rest.starts_with('=')) continue;
    return std::string(Unquote(TrimSpace(rest.substr(1))));
  }
  return {};
}

std::string PackageName(ManifestKind kind, std::string_view text, const SourceLines& lines) {
  switch (kind) {
    case ManifestKind::kCargo:
      return TomlValue(lines, "package", "name");
    case ManifestKind::kNpm:
      return NpmName(text);
    case ManifestKind::kPyproject: {
      std::string name = TomlValue(lines, "project", "name");
      return name.empty() ? TomlValue(lines, "tool.poetry", "name") : name;
    }
    case ManifestKind::kGoMod:
      return GoModule(lines);
    case ManifestKind::kMaven:
      return MavenArtifact(text);
    case ManifestKind::kGradle:
      return GradleName(lines);
  }
  return {};
}

}  // namespace

std::optional<std::pair<uint32_t, uint32_t>> NonBlankRange(const SourceLines& lines, uint32_t first,
                                                           uint32_t last) {
  last = std::min<uint32_t>(last, static_cast<uint32_t>(lines.size()));
  while (first <= last && BlankLine(lines[first - 1])) ++first;
  while (last >= first && last > 0 && BlankLine(lines[last - 1])) --last;
  if (first > last) return std::nullopt;
  return std::make_pair(first, last);
}

std::optional<ManifestKind> ManifestOfFileName(std::string_view file_name) {
  static constexpr std::array<std::pair<std::string_view, ManifestKind>, 9> kNames = {{
      {"Cargo.toml", ManifestKind::kCargo},
      {"package.json", ManifestKind::kNpm},
      {"pyproject.toml", ManifestKind::kPyproject},
      {"go.mod", ManifestKind::kGoMod},
      {"pom.xml", ManifestKind::kMaven},
      {"build.gradle", ManifestKind::kGradle},
      {"build.gradle.kts", ManifestKind::kGradle},
      {"settings.gradle", ManifestKind::kGradle},
      {"settings.gradle.kts", ManifestKind::kGradle},
  }};
  for (const auto& [name, kind] : kNames) {
    if (name == file_name) return kind;
  }
  return std::nullopt;
}

LineUnits ManifestUnits(ManifestKind kind, std::string_view text, const SourceLines& lines,
                        std::string_view file_name) {
  LineUnits out;
  const auto range = NonBlankRange(lines, 1, static_cast<uint32_t>(lines.size()));
  if (!range) return out;
  std::string name = PackageName(kind, text, lines);
  if (name.empty()) name = file_name;
  out.units.push_back({std::move(name), range->first, range->second});
  return out;
}

}  // namespace kebab::parse::internal
