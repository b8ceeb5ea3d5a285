#include "core/ids.h"

#include <gtest/gtest.h>

#include "core/hash.h"

namespace kebab {
namespace {

TEST(CanonicalJsonTest, SortsKeysAndDropsWhitespace) {
  nlohmann::json j =
      nlohmann::json::parse(R"({ "b": 1, "a": [ 2, "x" ], "c": { "z": 0, "y": 1 } })");
  EXPECT_EQ(CanonicalJson(j), R"({"a":[2,"x"],"b":1,"c":{"y":1,"z":0}})");
}

TEST(CanonicalJsonTest, NormalizesStringsToNfc) {
  // "한" decomposed into conjoining jamo (NFD) vs the precomposed syllable (NFC).
  nlohmann::json nfd = {{"t", "\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB"}};
  nlohmann::json nfc = {{"t", "\xED\x95\x9C"}};
  EXPECT_EQ(CanonicalJson(nfd), CanonicalJson(nfc));
}

TEST(IdFromTest, DeterministicOver1000Runs) {
  nlohmann::json tuple = {{"kind", "doc"}, {"workspace_path", "notes/a.md"}, {"n", 3}};
  const std::string first = IdFrom(tuple);
  ASSERT_EQ(first.size(), 32u);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(IdFrom(tuple), first);
}

TEST(IdFromTest, KeyOrderDoesNotMatter) {
  auto a = nlohmann::json::parse(R"({"kind":"asset","asset_blake3":"ff","x":[1,2]})");
  auto b = nlohmann::json::parse(R"({"x":[1,2],"asset_blake3":"ff","kind":"asset"})");
  EXPECT_EQ(IdFrom(a), IdFrom(b));
}

TEST(IdFromTest, ArrayOrderMatters) {
  EXPECT_NE(IdFrom({{"a", {1, 2}}}), IdFrom({{"a", {2, 1}}}));
}

TEST(IdFromTest, IsLowercaseHex) {
  for (char c : IdFrom({{"k", "v"}})) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
}

TEST(WorkspacePathTest, Normalizes) {
  EXPECT_EQ(NormalizeWorkspacePath("./a/b.md"), "a/b.md");
  EXPECT_EQ(NormalizeWorkspacePath("a//b.md"), "a/b.md");
  EXPECT_EQ(NormalizeWorkspacePath("a\\b.md"), "a/b.md");
  EXPECT_EQ(NormalizeWorkspacePath("a/./b/"), "a/b");
}

TEST(RecipeTest, DotSlashPathGivesSameDocId) {
  EXPECT_EQ(DocId("./a/b.md", "asset1", "md-v1"), DocId("a/b.md", "asset1", "md-v1"));
}

TEST(RecipeTest, NfcAndNfdKoreanPathsGiveSameDocId) {
  const std::string nfd = "\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB.md";  // 한.md, decomposed
  const std::string nfc = "\xED\x95\x9C.md";
  EXPECT_EQ(DocId(nfd, "asset1", "md-v1"), DocId(nfc, "asset1", "md-v1"));
}

TEST(RecipeTest, EveryInputChangesTheId) {
  const std::string base = DocId("a.md", "asset1", "p1");
  EXPECT_NE(base, DocId("b.md", "asset1", "p1"));
  EXPECT_NE(base, DocId("a.md", "asset2", "p1"));
  EXPECT_NE(base, DocId("a.md", "asset1", "p2"));
  EXPECT_NE(ChunkId("d", "c1", {"b1"}, "h1"), ChunkId("d", "c1", {"b1"}, "h2"));
  EXPECT_NE(AssetId("00"), AssetId("01"));
}

}  // namespace
}  // namespace kebab

namespace kebab {
namespace {

TEST(CanonicalJsonTest, MatchesNlohmannCompactDumpForNfcInput) {
  // The fast writer must produce exactly what a sorted, compact nlohmann dump produces for
  // already-normalized input, escapes included.
  nlohmann::json j = {{"text", "tab\there \"quoted\" back\\slash \x01 ctrl 한글"},
                      {"n", 42},
                      {"f", 0.5},
                      {"b", true},
                      {"z", nullptr},
                      {"arr", {1, "two", nlohmann::json::object()}},
                      {"nested", {{"y", "\n"}, {"x", nlohmann::json::array()}}}};
  EXPECT_EQ(CanonicalJson(j), j.dump());
}

}  // namespace
}  // namespace kebab

namespace kebab {
namespace {

TEST(RecipeTest, DirectBlockAndChunkIdsMatchTheGenericRecipe) {
  const std::vector<std::string> path = {"Intro \"quoted\"", "데이터\tbase"};
  SourceSpan region;
  region.kind = SourceSpan::Kind::kRegion;
  region.x = 0.25;
  region.y = 10;
  region.w = 1e-7;
  region.h = 3.5;
  SourceSpan page;
  page.kind = SourceSpan::Kind::kPage;
  page.page = 4;
  page.char_start = 10;
  for (const SourceSpan& span : {SourceSpan::Lines(3, 9), region, page}) {
    EXPECT_EQ(BlockId("d1", "paragraph", path, 7, span), IdFrom({{"kind", "block"},
                                                                 {"doc_id", "d1"},
                                                                 {"block_kind", "paragraph"},
                                                                 {"heading_path", path},
                                                                 {"ordinal", 7},
                                                                 {"source_span", span.ToJson()}}));
  }
  const std::vector<std::string> blocks = {"b1", "b2"};
  EXPECT_EQ(ChunkId("d1", "md-heading-v2", blocks, "ph#seg1"),
            IdFrom({{"kind", "chunk"},
                    {"doc_id", "d1"},
                    {"chunker_version", "md-heading-v2"},
                    {"block_ids", blocks},
                    {"policy_hash", "ph#seg1"}}));
}

TEST(RecipeTest, DirectDocAndAssetIdsMatchTheGenericRecipe) {
  const std::string nfd_path = "./notes//\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab \"q\".md";
  EXPECT_EQ(DocId(nfd_path, "asset1", "md-v1"),
            IdFrom({{"kind", "doc"},
                    {"workspace_path", NormalizeWorkspacePath(nfd_path)},
                    {"asset_id", "asset1"},
                    {"parser_version", "md-v1"}}));
  const std::string checksum(64, 'a');
  EXPECT_EQ(AssetId(checksum), IdFrom({{"kind", "asset"}, {"asset_blake3", checksum}}));
}

TEST(IdFromTest, IsThePrefixOfTheFullDigest) {
  const nlohmann::json tuple = {{"kind", "doc"}, {"n", 1}};
  EXPECT_EQ(IdFrom(tuple), Blake3Hex(CanonicalJson(tuple)).substr(0, 32));
}

TEST(RandomHexTest, HexOfTheAskedLengthAndNeverTheSameTwice) {
  const std::string a = RandomHex(32), b = RandomHex(32);
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
  EXPECT_EQ(RandomHex(0), "");
}

}  // namespace
}  // namespace kebab
