#include "core/citation.h"

#include <gtest/gtest.h>

namespace kebab {
namespace {

class CitationRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(CitationRoundTrip, ParseThenFormatIsIdentity) {
  auto c = Citation::Parse(GetParam());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->ToUri(), GetParam());
  auto again = Citation::Parse(c->ToUri());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *c);
}

INSTANTIATE_TEST_SUITE_P(Fragments, CitationRoundTrip,
                         ::testing::Values("notes/a.md#L12-L34", "notes/a.md#L12",
                                           "papers/book.pdf#p=3", "photos/x.png#xywh=1,2,30,40",
                                           "scans/letter.pdf#p=2&xywh=120,340,980,210",
                                           "rec/talk.m4a#t=00:13:42,00:14:10",
                                           "rec/talk.m4a#t=00:00:01.5,00:00:02.25&speaker=S1",
                                           "rec/long.m4a#t=01:02:03.004,10:00:00",
                                           "img/cat.png#caption", "my notes/한글 파일.md#L1-L2",
                                           "odd%23name.md#L3"));

TEST(CitationTest, FieldsOfLineCitation) {
  auto c = Citation::Parse("notes/a.md#L12-L34");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->kind, Citation::Kind::kLine);
  EXPECT_EQ(c->path, "notes/a.md");
  EXPECT_EQ(c->line_start, 12u);
  EXPECT_EQ(c->line_end, 34u);
}

TEST(CitationTest, PathWithHashIsEscaped) {
  Citation c = Citation::Lines("c#/notes.md", 1, 1);
  EXPECT_EQ(c.ToUri(), "c%23/notes.md#L1");
  auto back = Citation::Parse(c.ToUri());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->path, "c#/notes.md");
}

TEST(CitationTest, SecondsAreAcceptedAndWrittenAsClockTime) {
  auto c = Citation::Parse("a.wav#t=822,850.5");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->start_ms, 822000u);
  EXPECT_EQ(c->end_ms, 850500u);
  EXPECT_EQ(c->ToUri(), "a.wav#t=00:13:42,00:14:10.5");
}

TEST(CitationTest, MediaTimesAreSecondsOrClockTime) {
  EXPECT_EQ(ParseMediaTime("62.5"), 62500u);
  EXPECT_EQ(ParseMediaTime("1:02.5"), 62500u);
  EXPECT_EQ(ParseMediaTime("00:01:02.500"), 62500u);
  EXPECT_EQ(ParseMediaTime("1:02:03"), 3723000u);
  for (const char* bad : {"", "x", "-1", "1.2345", "1:2:3:4", "1.5:00"}) {
    EXPECT_EQ(ParseMediaTime(bad), std::nullopt) << bad;
  }
}

TEST(CitationTest, ClockTimeIsAccepted) {
  auto c = Citation::Parse("a.wav#t=00:13:42.000,00:14:10");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->start_ms, 822000u);
  EXPECT_EQ(c->end_ms, 850000u);
}

TEST(CitationTest, RejectsMalformed) {
  for (const char* bad :
       {"notes/a.md", "#L1", "a.md#L0", "a.md#L5-L2", "a.md#Lx", "a.md#p=0", "a.md#xywh=1,2,3",
        "a.md#t=5,1", "a.md#zoom=2", "a.pdf#p=2&zoom=1", "a.pdf#p=0&xywh=1,2,3,4"}) {
    auto c = Citation::Parse(bad);
    EXPECT_FALSE(c.ok()) << bad;
    if (!c.ok()) {
      EXPECT_EQ(c.status().code(), ErrorCode::kInvalidInput);
    }
  }
}

TEST(CitationTest, WireFormIsFlat) {
  Citation c = Citation::Lines("a.md", 3, 7);
  c.section = "§2 Intro";
  auto j = c.ToWire();
  EXPECT_EQ(j["schema_version"], "citation.v1");
  EXPECT_EQ(j["kind"], "line");
  EXPECT_EQ(j["uri"], "a.md#L3-L7");
  EXPECT_EQ(j["start"], 3);
  EXPECT_EQ(j["end"], 7);
  EXPECT_EQ(j["section"], "§2 Intro");
}

TEST(CitationTest, APageSpanCitesItsPageAndCharactersButTheUriOnlyThePage) {
  SourceSpan span;
  span.kind = SourceSpan::Kind::kPage;
  span.page = span.start = span.end = 12;
  span.char_start = 40;
  span.char_end = 310;
  const Citation c = CitationFromSpan("papers/x.pdf", span, "2.1 Ice");
  const nlohmann::json j = c.ToWire();
  EXPECT_EQ(j["kind"], "page");
  EXPECT_EQ(j["uri"], "papers/x.pdf#p=12");
  EXPECT_EQ(j["page"], 12);
  EXPECT_EQ(j["char_start"], 40);
  EXPECT_EQ(j["char_end"], 310);
  EXPECT_EQ(j["section"], "2.1 Ice");
  span.char_start.reset();
  span.char_end.reset();
  EXPECT_FALSE(
      CitationFromSpan("papers/x.pdf", span, std::nullopt).ToWire().contains("char_start"));
}

}  // namespace
}  // namespace kebab

namespace kebab {
namespace {

TEST(CitationTest, ARegionOfAPageNamesThePageAndItsResolution) {
  SourceSpan span;
  span.kind = SourceSpan::Kind::kRegion;
  span.page = 2;
  span.x = 120, span.y = 340, span.w = 980, span.h = 210;
  span.dpi = 300;
  const Citation c = CitationFromSpan("scans/letter.pdf", span, std::string("p. 2"));
  EXPECT_EQ(c.ToUri(), "scans/letter.pdf#p=2&xywh=120,340,980,210");
  const nlohmann::json wire = c.ToWire();
  EXPECT_EQ(wire["kind"], "region");
  EXPECT_EQ(wire["page"], 2);
  EXPECT_EQ(wire["dpi"], 300);
  EXPECT_EQ(wire["unit"], "pixel");
  EXPECT_EQ(wire["w"], 980);
  auto parsed = Citation::Parse(c.ToUri());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->kind, Citation::Kind::kRegion);
  EXPECT_EQ(parsed->page, 2u);
  EXPECT_EQ(parsed->h, 210u);

  span.page = 0;  // a lone image: no page in the URI or the wire
  span.dpi.reset();
  const Citation image = CitationFromSpan("photos/board.jpg", span, std::nullopt);
  EXPECT_EQ(image.ToUri(), "photos/board.jpg#xywh=120,340,980,210");
  EXPECT_FALSE(image.ToWire().contains("page"));
  EXPECT_FALSE(image.ToWire().contains("dpi"));
  // The span's JSON keeps page and dpi, and reads them back.
  span.page = 3;
  span.dpi = 150;
  auto back = SourceSpan::FromJson(span.ToJson());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, span);
}

TEST(CitationTest, ACaptionNamesTheModelThatWroteIt) {
  SourceSpan span;
  span.kind = SourceSpan::Kind::kCaption;
  span.model = "qwen2.5vl:7b";
  const Citation c = CitationFromSpan("photos/board.jpg", span, std::nullopt);
  EXPECT_EQ(c.ToUri(), "photos/board.jpg#caption");
  const nlohmann::json wire = c.ToWire();
  EXPECT_EQ(wire["kind"], "caption");
  EXPECT_EQ(wire["model"], "qwen2.5vl:7b");
  auto back = SourceSpan::FromJson(span.ToJson());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, span);
}

}  // namespace
}  // namespace kebab
