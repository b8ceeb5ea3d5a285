#include "embed/prefixes.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace kebab::embed {

Prefixes DefaultPrefixes(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.find("nomic-embed") != std::string::npos) {
    return {"search_query: ", "search_document: "};
  }
  // e5 models: "multilingual-e5-small", "e5-base-v2", "tiny-e5" (word-delimited "e5").
  for (size_t at = lower.find("e5"); at != std::string::npos; at = lower.find("e5", at + 1)) {
    const bool starts = at == 0 || !std::isalnum(static_cast<unsigned char>(lower[at - 1]));
    const bool ends =
        at + 2 == lower.size() || !std::isalnum(static_cast<unsigned char>(lower[at + 2]));
    if (starts && ends) return {"query: ", "passage: "};
  }
  return {};
}

}  // namespace kebab::embed
