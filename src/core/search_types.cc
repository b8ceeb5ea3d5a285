#include "core/search_types.h"

namespace kebab {

std::string_view SearchModeName(SearchMode mode) {
  switch (mode) {
    case SearchMode::kLexical:
      return "lexical";
    case SearchMode::kVector:
      return "vector";
    case SearchMode::kHybrid:
      return "hybrid";
  }
  return "lexical";
}

std::optional<SearchMode> ParseSearchMode(std::string_view name) {
  if (name == "lexical") return SearchMode::kLexical;
  if (name == "vector") return SearchMode::kVector;
  if (name == "hybrid") return SearchMode::kHybrid;
  return std::nullopt;
}

}  // namespace kebab
