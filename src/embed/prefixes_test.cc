#include "embed/prefixes.h"

#include <gtest/gtest.h>

namespace kebab::embed {
namespace {

TEST(PrefixesTest, FamilyDefaults) {
  EXPECT_EQ(DefaultPrefixes("multilingual-e5-small").query, "query: ");
  EXPECT_EQ(DefaultPrefixes("multilingual-e5-small-q8_0.gguf").document, "passage: ");
  EXPECT_EQ(DefaultPrefixes("E5-base-v2").query, "query: ");
  EXPECT_EQ(DefaultPrefixes("nomic-embed-text-v1.5").query, "search_query: ");
  EXPECT_EQ(DefaultPrefixes("nomic-embed-text-v1.5").document, "search_document: ");
  EXPECT_EQ(DefaultPrefixes("bge-m3").query, "");
  EXPECT_EQ(DefaultPrefixes("bge-small-en-v1.5").document, "");
  // "e5" only as a word of its own.
  EXPECT_EQ(DefaultPrefixes("model-de5x").query, "");
}

}  // namespace
}  // namespace kebab::embed
