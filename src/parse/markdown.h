// Markdown extractor (.md, .mdx): cmark-gfm with the GFM extensions (tables, strikethrough,
// autolinks, task lists) → CanonicalDocument with one Block per structural element and the
// exact 1-based source line span of each. Front matter (YAML `---` or TOML `+++`, BOM
// tolerated) fills Metadata; malformed front matter is a warning and the body is still
// indexed. Text is NFC-normalized; the language comes from CLD2. Line numbers count LF, CRLF
// and a lone CR as line ends (the CommonMark rule), front matter lines included. Thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "core/types.h"

namespace kebab::parse {

// Bump when the blocks produced for the same bytes change (it is part of doc_id).
inline constexpr char kMarkdownParserVersion[] = "md-cmark-gfm-v1";

struct MarkdownInput {
  std::string_view bytes;      // raw file contents
  std::string workspace_path;  // normalized
  std::string asset_id;
  std::string discovered_at;  // RFC 3339; default for created_at / updated_at
};

// Errors: kInvalidInput for binary content (NUL bytes in the first 8 KiB). Invalid UTF-8 is
// replaced with U+FFFD and reported as a warning, not an error.
Result<CanonicalDocument> ParseMarkdown(const MarkdownInput& input);

}  // namespace kebab::parse
