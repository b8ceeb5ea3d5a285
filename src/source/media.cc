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

// Media other than code; code is CodeLanguageOfPath's.
constexpr std::array kExtensions = {
    ExtensionKind{"md", MediaKind::kMarkdown},       ExtensionKind{"mdx", MediaKind::kMarkdown},
    ExtensionKind{"markdown", MediaKind::kMarkdown}, ExtensionKind{"pdf", MediaKind::kPdf},
    ExtensionKind{"png", MediaKind::kImage},         ExtensionKind{"jpg", MediaKind::kImage},
    ExtensionKind{"jpeg", MediaKind::kImage},        ExtensionKind{"webp", MediaKind::kImage},
    ExtensionKind{"gif", MediaKind::kImage},         ExtensionKind{"tif", MediaKind::kImage},
    ExtensionKind{"tiff", MediaKind::kImage},        ExtensionKind{"bmp", MediaKind::kImage},
    ExtensionKind{"m4a", MediaKind::kAudio},         ExtensionKind{"mp3", MediaKind::kAudio},
    ExtensionKind{"wav", MediaKind::kAudio},         ExtensionKind{"flac", MediaKind::kAudio},
    ExtensionKind{"ogg", MediaKind::kAudio},         ExtensionKind{"oga", MediaKind::kAudio},
    ExtensionKind{"opus", MediaKind::kAudio},        ExtensionKind{"webm", MediaKind::kAudio},
    ExtensionKind{"aac", MediaKind::kAudio},
};

struct NamedLanguage {
  std::string_view key;  // lower case: a whole file name, or an extension without the dot
  std::string_view language;
};

// Build and container files named by convention rather than by extension, matched on the
// whole file name. No other `.txt` is source, so CMakeLists.txt is named here.
constexpr std::array kFileNames = {
    NamedLanguage{"dockerfile", "dockerfile"},   NamedLanguage{"containerfile", "dockerfile"},
    NamedLanguage{"makefile", "make"},           NamedLanguage{"gnumakefile", "make"},
    NamedLanguage{"cmakelists.txt", "cmake"},    NamedLanguage{"go.mod", "gomod"},
    NamedLanguage{"build.gradle.kts", "gradle"}, NamedLanguage{"settings.gradle.kts", "gradle"},
};

// Extensions that name a source language without doubt. Ambiguous or catch-all ones (`.m`,
// `.conf`, `.cfg`, `.txt`) are left out: a file kebab cannot tell from prose is better skipped
// as unsupported than chunked as code.
constexpr std::array kCodeExtensions = {
    NamedLanguage{"rs", "rust"},
    NamedLanguage{"py", "python"},
    NamedLanguage{"pyi", "python"},
    NamedLanguage{"ts", "typescript"},
    NamedLanguage{"mts", "typescript"},
    NamedLanguage{"cts", "typescript"},
    NamedLanguage{"tsx", "tsx"},
    NamedLanguage{"js", "javascript"},
    NamedLanguage{"jsx", "javascript"},
    NamedLanguage{"mjs", "javascript"},
    NamedLanguage{"cjs", "javascript"},
    NamedLanguage{"go", "go"},
    NamedLanguage{"java", "java"},
    NamedLanguage{"kt", "kotlin"},
    NamedLanguage{"kts", "kotlin"},
    NamedLanguage{"c", "c"},
    NamedLanguage{"h", "c"},
    NamedLanguage{"cc", "cpp"},
    NamedLanguage{"cpp", "cpp"},
    NamedLanguage{"cxx", "cpp"},
    NamedLanguage{"hh", "cpp"},
    NamedLanguage{"hpp", "cpp"},
    NamedLanguage{"hxx", "cpp"},
    NamedLanguage{"cs", "csharp"},
    NamedLanguage{"rb", "ruby"},
    NamedLanguage{"php", "php"},
    NamedLanguage{"swift", "swift"},
    NamedLanguage{"scala", "scala"},
    NamedLanguage{"lua", "lua"},
    NamedLanguage{"pl", "perl"},
    NamedLanguage{"pm", "perl"},
    NamedLanguage{"r", "r"},
    NamedLanguage{"sql", "sql"},
    NamedLanguage{"dart", "dart"},
    NamedLanguage{"zig", "zig"},
    NamedLanguage{"hs", "haskell"},
    NamedLanguage{"ex", "elixir"},
    NamedLanguage{"exs", "elixir"},
    NamedLanguage{"erl", "erlang"},
    NamedLanguage{"clj", "clojure"},
    NamedLanguage{"groovy", "groovy"},
    NamedLanguage{"tf", "terraform"},
    NamedLanguage{"proto", "proto"},
    NamedLanguage{"graphql", "graphql"},
    NamedLanguage{"sh", "shell"},
    NamedLanguage{"bash", "shell"},
    NamedLanguage{"zsh", "shell"},
    NamedLanguage{"ksh", "shell"},
    NamedLanguage{"yaml", "yaml"},
    NamedLanguage{"yml", "yaml"},
    NamedLanguage{"toml", "toml"},
    NamedLanguage{"json", "json"},
    NamedLanguage{"xml", "xml"},
    NamedLanguage{"ini", "ini"},
    NamedLanguage{"gradle", "gradle"},
    NamedLanguage{"cmake", "cmake"},
    NamedLanguage{"mk", "make"},
    NamedLanguage{"dockerfile", "dockerfile"},
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

// The extension of a file name without its dot; empty for none, a dotfile's whole name
// (".md" is a file named "md"), or one too long to be an extension.
std::string_view ExtensionOf(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  const std::string_view ext = name.substr(dot + 1);
  return ext.size() > kMaxExtensionLength ? std::string_view() : ext;
}

// `ext` in lower case, written to `buffer` (kMaxExtensionLength bytes): no allocation, as the
// walker asks for every file it meets.
std::string_view Lower(std::string_view ext, char* buffer) {
  for (size_t i = 0; i < ext.size(); ++i) {
    buffer[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(ext[i])));
  }
  return {buffer, ext.size()};
}

}  // namespace

std::string_view CodeLanguageOfPath(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (const NamedLanguage& n : kFileNames) {
    if (EqualsIgnoreCase(name, n.key)) return n.language;
  }
  // Dockerfile.dev, Dockerfile.prod: one image's variants, named by suffix.
  if (StartsWithIgnoreCase(name, "Dockerfile.")) return "dockerfile";
  const std::string_view ext = ExtensionOf(name);
  if (ext.empty()) return {};
  char lower[kMaxExtensionLength];
  const std::string_view key = Lower(ext, lower);
  for (const NamedLanguage& n : kCodeExtensions) {
    if (n.key == key) return n.language;
  }
  return {};
}

MediaKind DetectMedia(std::string_view file_name) {
  if (!CodeLanguageOfPath(file_name).empty()) return MediaKind::kCode;
  const size_t slash = file_name.rfind('/');
  if (slash != std::string_view::npos) file_name.remove_prefix(slash + 1);
  const std::string_view ext = ExtensionOf(file_name);
  if (ext.empty()) return MediaKind::kOther;
  char lower[kMaxExtensionLength];
  const std::string_view key = Lower(ext, lower);
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
