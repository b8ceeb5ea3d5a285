// Front matter of a Markdown file (internal to the parse module): finding the YAML (`---`) or
// TOML (`+++`) block at the top of the file, and reading its keys into kebab metadata. Known
// keys (title, aliases, tags, lang, created_at, updated_at, source_type, trust_level) are
// validated; every other key is kept, as JSON, for Metadata::user. Thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace kebab::parse {

enum class FrontMatterFormat { kNone, kYaml, kToml };

struct FrontMatterSplit {
  FrontMatterFormat format = FrontMatterFormat::kNone;
  std::string_view content;  // between the delimiter lines
  std::string_view body;     // everything after the closing delimiter line
  uint32_t lines = 0;        // lines taken by the front matter, both delimiters included
};

// Finds front matter at the very start of `text` (a BOM already removed): `---` closed by
// `---` or `...` (YAML), `+++` closed by `+++` (TOML). An opening delimiter that is never
// closed is not front matter: the whole text is then body.
FrontMatterSplit SplitFrontMatter(std::string_view text);

struct FrontMatter {
  std::optional<std::string> title;
  std::optional<std::string> lang;        // lowercased primary subtag, e.g. "ko"
  std::optional<std::string> created_at;  // RFC 3339, UTC
  std::optional<std::string> updated_at;  // RFC 3339, UTC
  std::vector<std::string> aliases;
  std::vector<std::string> tags;
  std::optional<SourceType> source_type;
  std::optional<TrustLevel> trust_level;
  nlohmann::json user = nlohmann::json::object();  // unknown keys
};

// Reads front matter `content` of `format`. Every problem is appended to `warnings`; malformed
// front matter (a syntax error, or not a mapping) adds "malformed front matter: <reason>" and
// yields an empty FrontMatter. Strings are NFC-normalized.
FrontMatter ParseFrontMatter(FrontMatterFormat format, std::string_view content,
                             std::vector<std::string>* warnings);

// RFC 3339 UTC form of a front-matter timestamp: RFC 3339, "YYYY-MM-DD", or a date-time with
// a space separator or no offset (read as UTC). nullopt when it is none of these.
std::optional<std::string> NormalizeTimestamp(std::string_view value);

}  // namespace kebab::parse
