#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/files.h"
#include "source/ignore.h"

namespace kebab::source {

namespace {

std::string_view Unanchored(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.starts_with('/')) line.remove_prefix(1);
  return line;
}

}  // namespace

Status EnsureKebabignoreLine(const std::string& root, std::string_view pattern,
                             std::string_view comment_if_new) {
  const std::string path = (std::filesystem::path(root) / ".kebabignore").string();
  std::string contents;
  {
    std::ifstream in(path, std::ios::binary);
    contents.assign(std::istreambuf_iterator<char>(in), {});
  }
  size_t pos = 0;
  while (pos < contents.size()) {
    const size_t end = std::min(contents.find('\n', pos), contents.size());
    if (Unanchored(std::string_view(contents).substr(pos, end - pos)) == Unanchored(pattern)) {
      return Status::OK();
    }
    pos = end + 1;
  }
  if (contents.empty() && !comment_if_new.empty()) {
    contents = std::string(comment_if_new) + "\n";
  } else if (!contents.empty() && contents.back() != '\n') {
    contents += '\n';
  }
  contents += std::string(pattern) + "\n";
  return WriteFileAtomically(path, contents);
}

}  // namespace kebab::source
