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

}  // namespace
}  // namespace kebab
