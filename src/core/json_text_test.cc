#include "core/json_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace kebab {
namespace {

// What a writer appends to an empty string.
template <typename Writer, typename Value>
std::string Written(Writer writer, const Value& value) {
  std::string out;
  writer(out, value);
  return out;
}

TEST(JsonTextTest, MatchesNlohmannDump) {
  const std::vector<std::string> values = {
      "plain", "q\"uote", "back\\slash", "ctl\x01\x1f", "tab\tnl\n", "한글", ""};
  EXPECT_EQ(Written(AppendJsonStringArray, values), nlohmann::json(values).dump());
  SourceSpan line = SourceSpan::Lines(4, 12);
  EXPECT_EQ(Written(AppendSpanJson, line), line.ToJson().dump());
  SourceSpan page;
  page.kind = SourceSpan::Kind::kPage;
  page.page = 3;
  EXPECT_EQ(Written(AppendSpanJson, page), page.ToJson().dump());
  nlohmann::json arr = nlohmann::json::array({line.ToJson(), page.ToJson()});
  EXPECT_EQ(Written(AppendSpansJson, std::vector<SourceSpan>{line, page}), arr.dump());
}

TEST(JsonTextTest, EscapesAtEveryPositionOfLongStrings) {
  // Strings long enough for the eight-bytes-at-a-time scan, with each character that needs
  // escaping at every offset, between ASCII and multi-byte UTF-8 neighbours.
  const std::string specials[] = {"\"", "\\", "\n", "\t", "\x01", "\x1f", "\x7f", " "};
  for (const std::string& filler : {std::string("abcdefgh"), std::string("é한")}) {
    for (const std::string& special : specials) {
      for (size_t at = 0; at < 24; ++at) {
        std::string text;
        while (text.size() < at) text += filler;
        text += special;
        while (text.size() < 40) text += filler;
        std::string out;
        AppendJsonString(out, text);
        ASSERT_EQ(out, nlohmann::json(text).dump())
            << "special " << int(special[0]) << " at " << at;
      }
    }
  }
}

TEST(JsonTextTest, WritersAppendAfterWhatIsThere) {
  std::string out = "prefix";
  AppendSpanJson(out, SourceSpan::Lines(1, 2));
  AppendJsonStringArray(out, {"a"});
  EXPECT_EQ(out, "prefix{\"end\":2,\"kind\":\"line\",\"start\":1}[\"a\"]");
}

TEST(JsonTextTest, BlockPayloadMatchesNlohmannDumpForEveryKind) {
  std::vector<Block> blocks(8);
  blocks[0].kind = BlockKind::kHeading;
  blocks[0].level = 2;
  blocks[0].text = "Intro \"quoted\"";
  blocks[1].kind = BlockKind::kParagraph;
  blocks[1].text = "line one\nline two\t한글";
  blocks[2].kind = BlockKind::kQuote;
  blocks[2].text = "said \\ so";
  blocks[3].kind = BlockKind::kList;
  blocks[3].ordered = true;
  blocks[3].items = {"first", "second \"item\""};
  blocks[4].kind = BlockKind::kList;
  blocks[5].kind = BlockKind::kCode;
  blocks[5].lang = "c++";
  blocks[5].text = "int main() {\n  return 0;\n}\n";
  blocks[6].kind = BlockKind::kTable;
  blocks[6].headers = {"a", "b"};
  blocks[6].rows = {{"1", "2"}, {"x\x01", ""}};
  blocks[7].kind = BlockKind::kImageRef;
  blocks[7].src = "img/a b.png";
  blocks[7].alt = "an \"alt\"";
  for (const Block& b : blocks) {
    EXPECT_EQ(Written(AppendBlockPayloadJson, b), b.PayloadJson().dump()) << BlockKindName(b.kind);
  }
  Block audio = blocks[7];
  audio.kind = BlockKind::kAudioRef;
  EXPECT_EQ(Written(AppendBlockPayloadJson, audio), audio.PayloadJson().dump());
  // What OCR read keeps its confidence, whole or not.
  for (double confidence : {93.4, 90.0, 0.0, 100.0}) {
    Block ocr = blocks[1];
    ocr.confidence = confidence;
    EXPECT_EQ(Written(AppendBlockPayloadJson, ocr), ocr.PayloadJson().dump()) << confidence;
  }
}

TEST(JsonTextTest, MetadataMatchesNlohmannDump) {
  Metadata m;
  EXPECT_EQ(Written(AppendMetadataJson, m), m.ToJson().dump());
  m.aliases = {"alias \"one\"", "별칭"};
  m.tags = {"a", "b/c"};
  m.created_at = "2026-01-02T03:04:05Z";
  m.updated_at = "2026-02-03T04:05:06Z";
  m.source_type = SourceType::kMarkdown;
  m.trust_level = TrustLevel::kSecondary;
  m.user = {{"zeta", 1}, {"alpha", {"x", "y"}}, {"nested", {{"k", nullptr}}}};
  EXPECT_EQ(Written(AppendMetadataJson, m), m.ToJson().dump());
  // Source code in a repository: each optional field alone, then all of them.
  for (size_t i = 0; i < Metadata::OptionalFieldsOf(m).size(); ++i) {
    Metadata one = m;
    const auto [key, value] = Metadata::OptionalFieldsOf(one)[i];
    *value = "v \"" + std::string(key) + "\"";
    EXPECT_EQ(Written(AppendMetadataJson, one), one.ToJson().dump()) << key;
  }
  m.code_lang = "rust";
  m.repo = "kebab";
  m.git_remote = "https://example.com/kebab.git";
  m.git_branch = "main";
  m.git_commit = "0123456789ab";
  EXPECT_EQ(Written(AppendMetadataJson, m), m.ToJson().dump());
  EXPECT_EQ(Metadata::FromJson(m.ToJson()).ToJson(), m.ToJson());
}

TEST(JsonTextTest, ProvenanceMatchesNlohmannDump) {
  const std::vector<ProvenanceEvent> events = {
      {"2026-01-02T03:04:05Z", "kebab-parse-md", "parsed", "md-cmark-gfm-v1, 3 blocks"},
      {"2026-01-02T03:04:06Z", "agent", "warning", "line\n\"two\""}};
  nlohmann::json expected = nlohmann::json::array();
  for (const auto& e : events) {
    expected.push_back({{"at", e.at}, {"agent", e.agent}, {"kind", e.kind}, {"note", e.note}});
  }
  EXPECT_EQ(Written(AppendProvenanceJson, events), expected.dump());
  EXPECT_EQ(Written(AppendProvenanceJson, std::vector<ProvenanceEvent>{}), "[]");
}

}  // namespace
}  // namespace kebab
