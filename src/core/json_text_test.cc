#include "core/json_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace kebab {
namespace {

TEST(JsonTextTest, MatchesNlohmannDump) {
  const std::vector<std::string> values = {
      "plain", "q\"uote", "back\\slash", "ctl\x01\x1f", "tab\tnl\n", "한글", ""};
  EXPECT_EQ(JsonStringArray(values), nlohmann::json(values).dump());
  SourceSpan line = SourceSpan::Lines(4, 12);
  EXPECT_EQ(SpanJson(line), line.ToJson().dump());
  SourceSpan page;
  page.kind = SourceSpan::Kind::kPage;
  page.page = 3;
  EXPECT_EQ(SpanJson(page), page.ToJson().dump());
  nlohmann::json arr = nlohmann::json::array({line.ToJson(), page.ToJson()});
  EXPECT_EQ(SpansJson({line, page}), arr.dump());
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
    EXPECT_EQ(BlockPayloadJson(b), b.PayloadJson().dump()) << BlockKindName(b.kind);
  }
  Block audio = blocks[7];
  audio.kind = BlockKind::kAudioRef;
  EXPECT_EQ(BlockPayloadJson(audio), audio.PayloadJson().dump());
}

}  // namespace
}  // namespace kebab
