#include "parse/internal/code.h"

#include <algorithm>
#include <array>

#include "core/ids.h"
#include "core/time.h"
#include "core/unicode.h"
#include "source/walker.h"

namespace kebab::parse::internal {
namespace {

constexpr char kAgent[] = "kebab-code";

struct NamedGrammar {
  std::string_view language;  // as source::CodeLanguageOfPath names it
  CodeLanguage grammar;
};

constexpr std::array kGrammars = {
    NamedGrammar{"rust", CodeLanguage::kRust},
    NamedGrammar{"python", CodeLanguage::kPython},
    NamedGrammar{"typescript", CodeLanguage::kTypeScript},
    NamedGrammar{"tsx", CodeLanguage::kTsx},
    NamedGrammar{"javascript", CodeLanguage::kJavaScript},  // JSX too
    NamedGrammar{"go", CodeLanguage::kGo},
    NamedGrammar{"java", CodeLanguage::kJava},
    NamedGrammar{"kotlin", CodeLanguage::kKotlin},
    NamedGrammar{"c", CodeLanguage::kC},
    NamedGrammar{"cpp", CodeLanguage::kCpp},
};

std::string_view FileName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Lines split at LF (a CR before it is dropped), numbered from 1 by their index + 1.
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    pos = end + 1;
  }
  return lines;
}

bool Blank(std::string_view line) {
  return line.find_first_not_of(" \t\f\v") == std::string_view::npos;
}

// Appends lines [first, last] (1-based) to `out`, each ended by LF.
void Append(const std::vector<std::string_view>& lines, uint32_t first, uint32_t last,
            std::string* out) {
  for (uint32_t n = first; n <= last && n <= lines.size(); ++n) {
    out->append(lines[n - 1]);
    *out += '\n';
  }
}

std::string TrimTrailingNewlines(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// Lines [first, last] (1-based), joined by LF.
std::string Join(const std::vector<std::string_view>& lines, uint32_t first, uint32_t last) {
  std::string out;
  Append(lines, first, last, &out);
  return TrimTrailingNewlines(std::move(out));
}

// The lines of units[i] without those of the units inside it, which follow it in source order:
// a class keeps its own lines, each method is a block of its own.
std::string OwnLines(const std::vector<std::string_view>& lines, const std::vector<CodeUnit>& units,
                     size_t i) {
  const CodeUnit& u = units[i];
  std::string out;
  uint32_t n = u.start_line;
  for (size_t j = i + 1; j < units.size() && units[j].start_line <= u.end_line; ++j) {
    Append(lines, n, units[j].start_line - 1, &out);
    n = std::max(n, units[j].end_line + 1);
  }
  Append(lines, n, u.end_line, &out);
  return TrimTrailingNewlines(std::move(out));
}

Block CodeBlock(std::string text, uint32_t first, uint32_t last, std::string lang,
                std::optional<std::string> symbol) {
  Block b;
  b.kind = BlockKind::kCode;
  b.text = std::move(text);
  b.lang = lang;
  b.span.kind = SourceSpan::Kind::kCode;
  b.span.start = first;
  b.span.end = last;
  b.span.lang = std::move(lang);
  b.span.symbol = std::move(symbol);
  return b;
}

// Tier 3: one block per run of non-blank lines.
void Paragraphs(const std::vector<std::string_view>& lines, const std::string& lang,
                std::vector<bool> covered, std::vector<Block>* out,
                const std::optional<std::string>& symbol) {
  uint32_t n = 1;
  while (n <= lines.size()) {
    if (covered[n - 1] || Blank(lines[n - 1])) {
      ++n;
      continue;
    }
    const uint32_t first = n;
    while (n <= lines.size() && !covered[n - 1] && !Blank(lines[n - 1])) ++n;
    out->push_back(CodeBlock(Join(lines, first, n - 1), first, n - 1, lang, symbol));
  }
}

// Tier 2: the units a line reader finds; none for Tier 3.
LineUnits ReadLineUnits(LineReader reader, std::string_view text, const SourceLines& lines,
                        std::string_view path) {
  switch (reader) {
    case LineReader::kNone:
      return {};
    case LineReader::kManifest:
      return ManifestUnits(*ManifestOfFileName(FileName(path)), text, lines, FileName(path));
    case LineReader::kDockerfile:
      return DockerfileUnits(lines);
    case LineReader::kYaml:
      return KubernetesUnits(lines);
    case LineReader::kShell:
      return ShellUnits(lines);
  }
  return {};
}

}  // namespace

SourceLanguage LanguageOfPath(std::string_view path) {
  const std::string_view name = source::CodeLanguageOfPath(path);
  if (name.empty()) return {"text", std::nullopt, LineReader::kNone};
  SourceLanguage language{std::string(name), std::nullopt, LineReader::kNone};
  if (ManifestOfFileName(FileName(path))) {
    // Read whole whatever its language: a manifest says what it says as one piece.
    language.reader = LineReader::kManifest;
    return language;
  }
  for (const auto& [lang, grammar] : kGrammars) {
    if (lang == name) language.grammar = grammar;
  }
  // A .h may be C or C++: the C++ grammar reads C headers about as well as the C one (on
  // /usr/include it finds more units), while the C grammar loses most of a C++ header.
  const std::string_view file = FileName(path);
  if (language.grammar == CodeLanguage::kC && (file.ends_with(".h") || file.ends_with(".H"))) {
    language.grammar = CodeLanguage::kCpp;
  }
  if (name == "dockerfile") language.reader = LineReader::kDockerfile;
  if (name == "yaml") language.reader = LineReader::kYaml;
  if (name == "shell") language.reader = LineReader::kShell;
  return language;
}

Result<CanonicalDocument> CodeExtractor::Extract(const ExtractInput& input) const {
  if (input.bytes.substr(0, 8192).find('\0') != std::string_view::npos) {
    return InvalidInput("binary content (a NUL byte), not source code");
  }
  CanonicalDocument doc;
  doc.asset_id = input.asset_id;
  doc.workspace_path = input.workspace_path;
  doc.parser_version = kCodeParserVersion;
  doc.doc_id = DocId(input.workspace_path, input.asset_id, kCodeParserVersion);
  const std::string text = SanitizeUtf8(input.bytes);
  if (text != input.bytes) {
    doc.warnings.push_back("invalid UTF-8 replaced with U+FFFD");
  }
  const std::vector<std::string_view> lines = SplitLines(text);
  const SourceLanguage language = LanguageOfPath(input.workspace_path);
  std::vector<Block> blocks;
  std::vector<bool> covered(lines.size(), false);
  if (language.grammar) {
    Result<std::vector<CodeUnit>> units =
        ExtractCodeUnits(*language.grammar, text, input.workspace_path);
    if (!units.ok()) {
      doc.warnings.push_back(units.status().message() + "; read as plain paragraphs");
    } else {
      size_t broken = 0;
      const CodeUnit* first_broken = nullptr;
      for (size_t i = 0; i < units->size(); ++i) {
        const CodeUnit& u = (*units)[i];
        std::string body = OwnLines(lines, *units, i);
        if (!Blank(body)) {
          blocks.push_back(
              CodeBlock(std::move(body), u.start_line, u.end_line, language.name, u.symbol));
          blocks.back().head_end = u.head_end_line;
        }
        for (uint32_t n = u.start_line; n <= u.end_line && n <= lines.size(); ++n) {
          covered[n - 1] = true;
        }
        if (u.has_error && ++broken == 1) first_broken = &u;
      }
      // One warning a file: one syntax error can break several units around it, which are
      // still whole, and a warning each would bury the other files' warnings.
      if (first_broken != nullptr) {
        doc.warnings.push_back(
            "syntax error in " + first_broken->symbol + " (lines " +
            std::to_string(first_broken->start_line) + "-" +
            std::to_string(first_broken->end_line) + ")" +
            (broken > 1 ? " and " + std::to_string(broken - 1) + " more units" : "") +
            "; indexed as written");
      }
    }
    Paragraphs(lines, language.name, covered, &blocks, std::string(kTopLevelSymbol));
  } else if (LineUnits read = ReadLineUnits(language.reader, text, lines, input.workspace_path);
             !read.units.empty()) {
    for (const LineUnit& u : read.units) {
      blocks.push_back(CodeBlock(Join(lines, u.start_line, u.end_line), u.start_line, u.end_line,
                                 language.name, u.symbol));
      for (uint32_t n = u.start_line; n <= u.end_line && n <= lines.size(); ++n) {
        covered[n - 1] = true;
      }
    }
    for (uint32_t n : read.separators) covered[n - 1] = true;
    Paragraphs(lines, language.name, covered, &blocks, std::string(kTopLevelSymbol));
  } else {
    Paragraphs(lines, language.name, covered, &blocks, std::nullopt);
  }
  std::stable_sort(blocks.begin(), blocks.end(),
                   [](const Block& a, const Block& b) { return a.span.start < b.span.start; });
  for (size_t i = 0; i < blocks.size(); ++i) {
    Block& b = blocks[i];
    b.ordinal = static_cast<int>(i);
    b.block_id = BlockId(doc.doc_id, BlockKindName(b.kind), b.heading_path, b.ordinal, b.span);
  }
  doc.blocks = std::move(blocks);
  doc.title = std::string(FileName(input.workspace_path));
  doc.lang = "und";
  doc.metadata.created_at = input.discovered_at.empty() ? NowRfc3339() : input.discovered_at;
  doc.metadata.updated_at = doc.metadata.created_at;
  doc.metadata.source_type = SourceType::kReference;
  doc.metadata.code_lang = language.name;
  doc.provenance.push_back({NowRfc3339(), kAgent, "parsed",
                            std::string(kCodeParserVersion) + " " + language.name + ", " +
                                std::to_string(doc.blocks.size()) + " blocks"});
  return doc;
}

}  // namespace kebab::parse::internal
