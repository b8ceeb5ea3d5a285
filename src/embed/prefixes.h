// Query and passage prefixes by model family: retrieval models are trained with them, and
// leaving them out costs recall. A configured prefix always wins over the family default.
#pragma once

#include <string>
#include <string_view>

namespace kebab::embed {

struct Prefixes {
  std::string query;
  std::string document;
};

// The family defaults for a model known by `name` (a model name or GGUF file name):
// e5 → "query: " / "passage: ", nomic-embed → "search_query: " / "search_document: ",
// anything else (bge, MiniLM, ...) → none.
Prefixes DefaultPrefixes(std::string_view name);

}  // namespace kebab::embed
