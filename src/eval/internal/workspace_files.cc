#include "eval/internal/workspace_files.h"

#include "core/files.h"
#include "core/hash.h"
#include "core/unicode.h"
#include "eval/internal/collection.h"

namespace kebab::eval::internal {
namespace {

namespace fs = std::filesystem;

bool KeptInName(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

// CommonMark's link reference definition, `[label]: destination`, renders as nothing.
bool MayBeLinkDefinition(std::string_view line) {
  return line.starts_with('[') && line.find("]:") != std::string_view::npos;
}

}  // namespace

std::string DocFileName(std::string_view id) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string name;
  name.reserve(id.size() + 3);
  for (size_t i = 0; i < id.size(); ++i) {
    const auto c = static_cast<unsigned char>(id[i]);
    if (KeptInName(c) && !(i == 0 && c == '.')) {
      name += static_cast<char>(c);
    } else {
      name += '%';
      name += kHex[c >> 4];
      name += kHex[c & 0xF];
    }
  }
  // '~' never comes out of the escaping above, so a cut name cannot equal another id's name.
  constexpr size_t kMaxStem = 255 - 3;
  if (name.size() > kMaxStem) name = name.substr(0, 200) + "~" + Blake3Hex(id).substr(0, 32);
  return name + ".md";
}

std::string DocMarkdown(std::string_view title, std::string_view text) {
  std::string out;
  const std::string heading = CollapseWhitespace(title);
  if (!heading.empty()) out = "# " + heading + "\n";
  // kebab drops a BOM before it looks for front matter, so the fence check below must too.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  LineReader lines(text);
  std::string_view raw;
  bool at_start = heading.empty(), blank_before = !heading.empty();
  while (lines.Next(&raw)) {
    const std::string line = CollapseWhitespace(raw);
    if (line.empty()) {
      blank_before = !out.empty();
      continue;
    }
    if (blank_before) out += '\n';
    blank_before = false;
    // A backslash makes the first character literal: the words stay, the structure goes.
    if ((at_start && (line.starts_with("---") || line.starts_with("+++"))) ||
        MayBeLinkDefinition(line)) {
      out += '\\';
    }
    at_start = false;
    out += line;
    out += '\n';
  }
  return out;
}

Result<bool> WriteIfChanged(const fs::path& path, std::string_view content) {
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  if (!ec && size == content.size()) {
    Result<std::string> existing = ReadFile(path);
    if (existing.ok() && *existing == content) return false;
  }
  KEBAB_RETURN_IF_ERROR(WriteFileAtomically(path.string(), content));
  return true;
}

Result<int> RemoveStaleMarkdown(const fs::path& dir, const std::unordered_set<std::string>& keep) {
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".md" && entry.is_regular_file(ec) && !keep.contains(name)) {
      stale.push_back(entry.path());
    }
  }
  if (ec) return IoError("cannot list " + dir.string() + ": " + ec.message());
  for (const fs::path& path : stale) {
    fs::remove(path, ec);
    if (ec) return IoError("cannot remove " + path.string() + ": " + ec.message());
  }
  return static_cast<int>(stale.size());
}

}  // namespace kebab::eval::internal
