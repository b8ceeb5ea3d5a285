// Search-side domain types (spec §3.7): modes, filters, and the retrieval detail each hit
// carries. Shared by store (lexical SQL), search (ranking) and app (wire output).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace kebab {

enum class SearchMode { kLexical, kVector, kHybrid };
std::string_view SearchModeName(SearchMode mode);
std::optional<SearchMode> ParseSearchMode(std::string_view name);

// Every filter narrows the result; empty vectors / nullopt mean "no constraint". Filters are
// applied inside the query, so a filtered search still returns k hits when k matches exist.
struct SearchFilters {
  std::vector<std::string> tags_any;          // document has at least one of these tags
  std::optional<std::string> lang;            // documents.lang
  std::optional<std::string> path_glob;       // `*` stays within a path segment, `**` crosses
  std::optional<TrustLevel> trust_min;        // primary > secondary > generated
  std::vector<MediaKind> media;               // assets.media_type in this set
  std::vector<std::string> doc_ids;           // documents.doc_id in this set
  std::vector<SourceType> source_types;       // documents.source_type in this set
  std::optional<std::string> ingested_after;  // RFC 3339, normalized to UTC
  std::vector<std::string> code_langs;        // source code in these languages (Metadata)
  std::vector<std::string> repos;             // documents of repositories named or at these URLs
  // Code chunks whose symbol path matches this SQLite GLOB (`*` any characters, `?` one,
  // `[...]` a class; case-sensitive). A chunk-level filter: document listings ignore it.
  std::optional<std::string> symbol_glob;

  bool empty() const {
    return tags_any.empty() && !lang && !path_glob && !trust_min && media.empty() &&
           doc_ids.empty() && source_types.empty() && !ingested_after && code_langs.empty() &&
           repos.empty() && !symbol_glob;
  }
};

}  // namespace kebab
