// Media detection by file name, the generated-file sniff and the skip tally: the
// per-file classification the walker and the ingest pipeline share.
#include <algorithm>
#include <array>
#include <cctype>

#include "source/walker.h"

namespace kebab::source {
namespace {

struct ExtensionKind {
  std::string_view ext;  // lower case, without the dot
  MediaKind kind;
};

constexpr std::array kExtensions = {
    ExtensionKind{"md", MediaKind::kMarkdown},
    ExtensionKind{"mdx", MediaKind::kMarkdown},
    ExtensionKind{"markdown", MediaKind::kMarkdown},
    ExtensionKind{"pdf", MediaKind::kPdf},
    ExtensionKind{"png", MediaKind::kImage},
    ExtensionKind{"jpg", MediaKind::kImage},
    ExtensionKind{"jpeg", MediaKind::kImage},
    ExtensionKind{"webp", MediaKind::kImage},
    ExtensionKind{"gif", MediaKind::kImage},
    ExtensionKind{"tif", MediaKind::kImage},
    ExtensionKind{"tiff", MediaKind::kImage},
    ExtensionKind{"bmp", MediaKind::kImage},
    ExtensionKind{"m4a", MediaKind::kAudio},
    ExtensionKind{"mp3", MediaKind::kAudio},
    ExtensionKind{"wav", MediaKind::kAudio},
    ExtensionKind{"flac", MediaKind::kAudio},
    ExtensionKind{"ogg", MediaKind::kAudio},
    ExtensionKind{"rs", MediaKind::kCode},
    ExtensionKind{"py", MediaKind::kCode},
    ExtensionKind{"pyi", MediaKind::kCode},
    ExtensionKind{"ts", MediaKind::kCode},
    ExtensionKind{"tsx", MediaKind::kCode},
    ExtensionKind{"mts", MediaKind::kCode},
    ExtensionKind{"cts", MediaKind::kCode},
    ExtensionKind{"js", MediaKind::kCode},
    ExtensionKind{"jsx", MediaKind::kCode},
    ExtensionKind{"mjs", MediaKind::kCode},
    ExtensionKind{"cjs", MediaKind::kCode},
    ExtensionKind{"go", MediaKind::kCode},
    ExtensionKind{"java", MediaKind::kCode},
    ExtensionKind{"kt", MediaKind::kCode},
    ExtensionKind{"kts", MediaKind::kCode},
    ExtensionKind{"c", MediaKind::kCode},
    ExtensionKind{"h", MediaKind::kCode},
    ExtensionKind{"cpp", MediaKind::kCode},
    ExtensionKind{"cc", MediaKind::kCode},
    ExtensionKind{"cxx", MediaKind::kCode},
    ExtensionKind{"hpp", MediaKind::kCode},
    ExtensionKind{"hh", MediaKind::kCode},
    ExtensionKind{"hxx", MediaKind::kCode},
    ExtensionKind{"cs", MediaKind::kCode},
    ExtensionKind{"rb", MediaKind::kCode},
    ExtensionKind{"php", MediaKind::kCode},
    ExtensionKind{"swift", MediaKind::kCode},
    ExtensionKind{"scala", MediaKind::kCode},
    ExtensionKind{"lua", MediaKind::kCode},
    ExtensionKind{"sh", MediaKind::kCode},
    ExtensionKind{"bash", MediaKind::kCode},
    ExtensionKind{"zsh", MediaKind::kCode},
    ExtensionKind{"yaml", MediaKind::kCode},
    ExtensionKind{"yml", MediaKind::kCode},
    ExtensionKind{"toml", MediaKind::kCode},
    ExtensionKind{"json", MediaKind::kCode},
    ExtensionKind{"xml", MediaKind::kCode},
    ExtensionKind{"gradle", MediaKind::kCode},
    ExtensionKind{"mk", MediaKind::kCode},
    ExtensionKind{"dockerfile", MediaKind::kCode},
};

constexpr size_t kMaxExtensionLength = 16;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool StartsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && EqualsIgnoreCase(s.substr(0, prefix.size()), prefix);
}

}  // namespace

MediaKind DetectMedia(std::string_view file_name) {
  const size_t slash = file_name.rfind('/');
  if (slash != std::string_view::npos) file_name.remove_prefix(slash + 1);
  // Build files named by convention rather than by extension.
  if (EqualsIgnoreCase(file_name, "Dockerfile") || StartsWithIgnoreCase(file_name, "Dockerfile.") ||
      EqualsIgnoreCase(file_name, "Makefile") || EqualsIgnoreCase(file_name, "GNUmakefile")) {
    return MediaKind::kCode;
  }
  const size_t dot = file_name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return MediaKind::kOther;
  const std::string_view ext = file_name.substr(dot + 1);
  if (ext.empty() || ext.size() > kMaxExtensionLength) return MediaKind::kOther;
  char lower[kMaxExtensionLength];
  for (size_t i = 0; i < ext.size(); ++i) {
    lower[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(ext[i])));
  }
  const std::string_view key(lower, ext.size());
  for (const ExtensionKind& e : kExtensions) {
    if (e.ext == key) return e.kind;
  }
  return MediaKind::kOther;
}

bool LooksGenerated(std::string_view head) {
  constexpr size_t kMaxBytes = 512;
  constexpr int kMaxLines = 10;
  head = head.substr(0, kMaxBytes);
  size_t end = 0;
  for (int line = 0; line < kMaxLines && end < head.size(); ++line) {
    const size_t nl = head.find('\n', end);
    end = nl == std::string_view::npos ? head.size() : nl + 1;
  }
  std::string lower(head.substr(0, end));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::string_view kMarkers[] = {
      "@generated",    "code generated by",       "do not edit",
      "do not modify", "automatically generated", "auto-generated",
      "autogenerated",
  };
  for (std::string_view marker : kMarkers) {
    if (lower.find(marker) != std::string::npos) return true;
  }
  return false;
}

bool LooksMachineMade(std::string_view workspace_path, std::string_view head) {
  const size_t slash = workspace_path.rfind('/');
  const std::string_view name =
      workspace_path.substr(slash == std::string_view::npos ? 0 : slash + 1);
  // Lock files with a source extension (Cargo.lock and the like are no source to begin with).
  static constexpr std::string_view kLockFiles[] = {"package-lock.json", "npm-shrinkwrap.json",
                                                    "pnpm-lock.yaml"};
  for (std::string_view lock : kLockFiles) {
    if (name == lock) return true;
  }
  if (name.find(".min.") != std::string_view::npos) return true;
  constexpr size_t kLongLine = 1000;
  const size_t nl = head.substr(0, 4096).find('\n');
  return (nl == std::string_view::npos ? std::min<size_t>(head.size(), 4096) : nl) > kLongLine;
}

void SkipTally::Add(std::string_view reason, std::string_view workspace_path) {
  const std::string key(reason);
  ++counts[key];
  std::vector<std::string>& list = examples[key];
  if (list.size() < 5) list.emplace_back(workspace_path);
}

uint64_t SkipTally::Total() const {
  uint64_t total = 0;
  for (const auto& [reason, n] : counts) total += n;
  return total;
}

}  // namespace kebab::source
