#include "parse/markdown.h"

#include <algorithm>
#include <cstring>

#include "core/ids.h"
#include "core/time.h"
#include "core/unicode.h"
#include "parse/cmark_blocks.h"
#include "parse/front_matter.h"
#include "parse/language.h"
#include "parse/segments.h"

namespace kebab::parse {
namespace {

constexpr size_t kBinaryProbeBytes = 8192;
constexpr size_t kSegmentBytes = 1 << 20;
constexpr size_t kTitleCodePoints = 80;
constexpr size_t kLanguageSampleBytes = 4096;
constexpr char kAgent[] = "kebab-parse-md";
constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool EndsWithNoCase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  s = s.substr(s.size() - suffix.size());
  return std::equal(s.begin(), s.end(), suffix.begin(), [](char a, char b) {
    return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
  });
}

// File name without its last extension ("notes/a.b.md" → "a.b").
std::string FileStem(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = name.rfind('.');
  if (dot != std::string_view::npos && dot > 0) name = name.substr(0, dot);
  return Nfc(name);
}

// Front matter title → first H1 → first H2 → first paragraph (80 code points) → file name.
std::string PickTitle(const FrontMatter& front_matter, const std::vector<Block>& blocks,
                      const BlockContext& context, std::string_view workspace_path) {
  if (front_matter.title) return *front_matter.title;
  for (int level : {1, 2}) {
    for (const Block& block : blocks) {
      if (block.kind != BlockKind::kHeading || block.level != level) continue;
      std::string title = CollapseWhitespace(block.text);
      if (!title.empty()) return title;
    }
  }
  if (context.first_paragraph) {
    std::string text = CollapseWhitespace(blocks[*context.first_paragraph].text);
    std::string title = CollapseWhitespace(CodePointPrefix(text, kTitleCodePoints));
    if (!title.empty()) return title;
  }
  return FileStem(workspace_path);
}

// The prose at the top of the document (code blocks, command lines and URLs left out), for
// language detection.
std::string LanguageSample(const std::vector<Block>& blocks, const BlockContext& context) {
  std::string sample;
  auto add = [&](std::string_view text) {
    if (text.empty() || sample.size() >= kLanguageSampleBytes) return;
    if (!sample.empty()) sample.push_back('\n');
    AppendWithoutUrls(text, sample);
  };
  const std::vector<size_t>& commands = context.command_paragraphs;  // ascending
  for (size_t i = 0; i < blocks.size() && sample.size() < kLanguageSampleBytes; ++i) {
    const Block& block = blocks[i];
    switch (block.kind) {
      case BlockKind::kHeading:
      case BlockKind::kQuote:
        add(block.text);
        break;
      case BlockKind::kParagraph:
        if (!std::binary_search(commands.begin(), commands.end(), i)) add(block.text);
        break;
      case BlockKind::kList:
        for (const std::string& item : block.items) add(item);
        break;
      case BlockKind::kTable:
        for (const std::string& cell : block.headers) add(cell);
        for (const auto& row : block.rows) {
          for (const std::string& cell : row) add(cell);
        }
        break;
      case BlockKind::kImageRef:
        add(block.alt);
        break;
      case BlockKind::kCode:
      case BlockKind::kAudioRef:
        break;
    }
  }
  sample.resize(Utf8SafePrefix(sample, kLanguageSampleBytes));
  return sample;
}

}  // namespace

Result<CanonicalDocument> ParseMarkdown(const MarkdownInput& input) {
  std::string_view bytes = input.bytes;
  if (!bytes.empty() &&
      std::memchr(bytes.data(), '\0', std::min(bytes.size(), kBinaryProbeBytes)) != nullptr) {
    return InvalidInput("binary content, not Markdown",
                        "Markdown files must be UTF-8 text (convert UTF-16 files to UTF-8)");
  }
  CanonicalDocument doc;
  std::string repaired;
  if (!IsValidUtf8(bytes)) {
    repaired = SanitizeUtf8(bytes);
    bytes = repaired;
    doc.warnings.emplace_back("invalid UTF-8 replaced with U+FFFD");
  }
  if (bytes.starts_with(kBom)) bytes.remove_prefix(kBom.size());

  FrontMatterSplit split = SplitFrontMatter(bytes);
  FrontMatter front_matter = ParseFrontMatter(split.format, split.content, &doc.warnings);

  BlockContext context;
  context.mdx = EndsWithNoCase(input.workspace_path, ".mdx");
  for (const BodySegment& segment : SplitBody(split.body, kSegmentBytes)) {
    AppendMarkdownBlocks(segment.text, split.lines + segment.line_offset, &context, &doc.blocks);
  }
  for (std::string& warning : context.warnings) doc.warnings.push_back(std::move(warning));

  doc.asset_id = input.asset_id;
  doc.workspace_path = input.workspace_path;
  doc.parser_version = kMarkdownParserVersion;
  doc.doc_id = DocId(input.workspace_path, input.asset_id, kMarkdownParserVersion);
  for (Block& block : doc.blocks) {
    block.block_id = BlockId(doc.doc_id, BlockKindName(block.kind), block.heading_path,
                             block.ordinal, block.span);
  }
  doc.title = PickTitle(front_matter, doc.blocks, context, input.workspace_path);
  doc.lang =
      front_matter.lang ? *front_matter.lang : DetectLanguage(LanguageSample(doc.blocks, context));

  Metadata& metadata = doc.metadata;
  const std::string default_time = input.discovered_at.empty() ? NowRfc3339() : input.discovered_at;
  metadata.aliases = std::move(front_matter.aliases);
  metadata.tags = std::move(front_matter.tags);
  metadata.created_at = front_matter.created_at.value_or(default_time);
  metadata.updated_at = front_matter.updated_at.value_or(default_time);
  metadata.source_type = front_matter.source_type.value_or(SourceType::kMarkdown);
  metadata.trust_level = front_matter.trust_level.value_or(TrustLevel::kPrimary);
  metadata.user = std::move(front_matter.user);

  doc.provenance.push_back(
      {NowRfc3339(), kAgent, "parsed",
       std::string(kMarkdownParserVersion) + ", " + std::to_string(doc.blocks.size()) + " blocks"});
  return doc;
}

}  // namespace kebab::parse
