// Document-level behaviour of ParseMarkdown: front matter, metadata, title, language,
// encodings, provenance, size and concurrency.
#include "parse/markdown.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/time.h"
#include "core/unicode.h"
#include "parse/parse_test_util.h"
#include "tests/support/sanitizers.h"

namespace kebab::parse {
namespace {

using ::testing::ElementsAre;
using testing::ExpectAllSpansHold;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::ParseText;
using testing::ReadFixture;

TEST(MarkdownTest, YamlFrontMatterFillsMetadata) {
  std::string source = ReadFixture("yaml_front_matter.md");
  CanonicalDocument doc = ParseText(source);
  EXPECT_THAT(doc.warnings, IsEmpty());
  EXPECT_EQ(doc.title, "Front Matter Title");
  EXPECT_EQ(doc.lang, "en");  // from "en-US"
  const Metadata& m = doc.metadata;
  EXPECT_THAT(m.aliases, ElementsAre("FMT", "Front matter"));
  EXPECT_THAT(m.tags, ElementsAre("search", "rag", "kebab"));  // trimmed, de-duplicated
  EXPECT_EQ(m.created_at, "2024-01-05T00:00:00Z");
  EXPECT_EQ(m.updated_at, "2024-02-01T01:30:00Z");  // +09:00 normalized to UTC
  EXPECT_EQ(m.source_type, SourceType::kPaper);
  EXPECT_EQ(m.trust_level, TrustLevel::kSecondary);
  EXPECT_EQ(m.user, nlohmann::json::parse(R"({
    "rating": 5, "ratio": 0.75, "draft": false, "quoted_number": "42", "version": 1.1,
    "empty": null,
    "authors": [{"name": "Kim", "orcid": "0000-0001"}, {"name": "Lee"}],
    "nested": {"depth": {"level": 2, "ok": "yes"}}})"));
  // Body lines keep their file line numbers (the front matter takes lines 1-22).
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].span, SourceSpan::Lines(23, 23));
  EXPECT_EQ(doc.blocks[1].span, SourceSpan::Lines(25, 26));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownTest, TomlFrontMatterFillsMetadata) {
  std::string source = ReadFixture("toml_front_matter.md");
  CanonicalDocument doc = ParseText(source);
  EXPECT_THAT(doc.warnings, IsEmpty());
  EXPECT_EQ(doc.title, "TOML Title");
  const Metadata& m = doc.metadata;
  EXPECT_THAT(m.tags, ElementsAre("alpha", "beta", "gamma"));  // comma-separated string
  EXPECT_THAT(m.aliases, ElementsAre("Only Alias"));           // a single string
  EXPECT_EQ(m.created_at, "2023-12-24T00:00:00Z");             // TOML local date
  EXPECT_EQ(m.updated_at, "2024-03-01T08:00:00Z");             // TOML offset date-time
  EXPECT_EQ(m.user, nlohmann::json::parse(R"({
    "weight": 10, "score": 2.5, "published": true, "categories": ["docs", "toml"],
    "extra": {"author": "Park"}})"));
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].span, SourceSpan::Lines(16, 16));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownTest, BomBeforeFrontMatterIsTolerated) {
  std::string source = ReadFixture("bom_front_matter.md");
  ASSERT_TRUE(source.starts_with("\xEF\xBB\xBF"));
  CanonicalDocument doc = ParseText(source);
  EXPECT_THAT(doc.warnings, IsEmpty());
  EXPECT_EQ(doc.title, "BOM note");
  EXPECT_THAT(doc.metadata.tags, ElementsAre("bom", "utf8"));
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].span, SourceSpan::Lines(6, 6));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownTest, MalformedFrontMatterWarnsAndKeepsTheBody) {
  std::string source = ReadFixture("malformed_front_matter.md");
  CanonicalDocument doc = ParseText(source);
  ASSERT_EQ(doc.warnings.size(), 1u);
  EXPECT_THAT(doc.warnings[0], ::testing::StartsWith("malformed front matter: "));
  EXPECT_THAT(doc.metadata.tags, IsEmpty());  // keys ignored
  EXPECT_EQ(doc.title, "Still indexed");
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].span, SourceSpan::Lines(5, 5));
  EXPECT_EQ(doc.blocks[1].span, SourceSpan::Lines(7, 7));

  CanonicalDocument scalar = ParseText("---\njust a sentence\n---\nBody.\n");
  EXPECT_THAT(scalar.warnings, ElementsAre("malformed front matter: not a mapping"));
  ASSERT_EQ(scalar.blocks.size(), 1u);
  EXPECT_EQ(scalar.blocks[0].span, SourceSpan::Lines(4, 4));

  CanonicalDocument toml = ParseText("+++\ntitle = \n+++\nBody.\n");
  ASSERT_EQ(toml.warnings.size(), 1u);
  EXPECT_THAT(toml.warnings[0], ::testing::StartsWith("malformed front matter: line 2"));
  EXPECT_EQ(toml.title, "Body.");
}

TEST(MarkdownTest, UnterminatedFrontMatterIsBody) {
  std::string source = ReadFixture("unterminated.md");
  CanonicalDocument doc = ParseText(source);
  EXPECT_THAT(doc.warnings, IsEmpty());
  EXPECT_THAT(doc.metadata.user, IsEmpty());
  EXPECT_EQ(doc.title, "Real heading");
  ASSERT_EQ(doc.blocks.size(), 3u);
  EXPECT_EQ(doc.blocks[0].text, "title: not front matter");
  EXPECT_EQ(doc.blocks[0].span, SourceSpan::Lines(2, 2));
  ExpectAllSpansHold(doc, source);
}

TEST(MarkdownTest, FrontMatterValueProblemsAreWarnings) {
  CanonicalDocument doc = ParseText(
      "---\ncreated_at: last tuesday\nupdated_at: 2024-13-01\nsource_type: blog\n"
      "trust_level: high\ntitle: [a, b]\n---\nBody text.\n");
  EXPECT_EQ(doc.metadata.created_at, "2025-01-02T03:04:05Z");  // discovered_at
  EXPECT_EQ(doc.metadata.updated_at, "2025-01-02T03:04:05Z");
  EXPECT_EQ(doc.metadata.source_type, SourceType::kMarkdown);
  EXPECT_EQ(doc.metadata.trust_level, TrustLevel::kPrimary);
  EXPECT_EQ(doc.title, "Body text.");
  EXPECT_EQ(doc.warnings.size(), 5u);
  std::string all;
  for (const std::string& w : doc.warnings) all += w + "\n";
  EXPECT_THAT(all, HasSubstr("front matter created_at: 'last tuesday'"));
  EXPECT_THAT(all, HasSubstr("front matter updated_at: '2024-13-01'"));
  EXPECT_THAT(all, HasSubstr("front matter source_type: 'blog'"));
  EXPECT_THAT(all, HasSubstr("front matter trust_level: 'high'"));
  EXPECT_THAT(all, HasSubstr("front matter title: expected a string"));
}

TEST(MarkdownTest, TagsAndAliasesForms) {
  CanonicalDocument list = ParseText("---\ntags:\n  - a\n  - ' b '\n  - a\n  - 7\n---\nx\n");
  EXPECT_THAT(list.metadata.tags, ElementsAre("a", "b", "7"));
  CanonicalDocument comma = ParseText("---\ntags: \"x, y,, x ,z\"\naliases: Solo\n---\nx\n");
  EXPECT_THAT(comma.metadata.tags, ElementsAre("x", "y", "z"));
  EXPECT_THAT(comma.metadata.aliases, ElementsAre("Solo"));
  CanonicalDocument none = ParseText("---\ntags:\naliases: []\n---\nx\n");
  EXPECT_THAT(none.metadata.tags, IsEmpty());
  EXPECT_THAT(none.metadata.aliases, IsEmpty());
  EXPECT_THAT(none.warnings, IsEmpty());
}

TEST(MarkdownTest, TitleFallbacks) {
  EXPECT_EQ(ParseText("---\ntitle: From FM\n---\n# H1\n").title, "From FM");
  EXPECT_EQ(ParseText("Intro.\n\n## Second\n\n# First\n").title, "First");
  EXPECT_EQ(ParseText("Intro.\n\n## Only H2\n\n### Three\n").title, "Only H2");
  EXPECT_EQ(ParseText("A first\nparagraph.\n\n- list\n").title, "A first paragraph.");
  // 80 code points, cut on a character boundary.
  std::string korean;
  for (int i = 0; i < 100; ++i) korean += "가";
  std::string title = ParseText(korean + "\n").title;
  EXPECT_EQ(Utf8Length(title), 80u);
  EXPECT_TRUE(IsValidUtf8(title));
  // Headings, paragraphs and prose-less documents fall back to the file name.
  EXPECT_EQ(ParseText("```\ncode only\n```\n", "dir/my.notes.md").title, "my.notes");
  EXPECT_EQ(ParseText("", "empty.md").title, "empty");
  EXPECT_EQ(ParseText("<!-- only html -->\n", "html.md").title, "html");
}

TEST(MarkdownTest, TitleAndTextAreNfc) {
  const std::string nfd = "Cafe\xCC\x81";  // "Café" with a combining acute accent
  const std::string nfc = "Caf\xC3\xA9";
  CanonicalDocument heading = ParseText("# " + nfd + "\n\n" + nfd + " text\n");
  EXPECT_EQ(heading.title, nfc);
  EXPECT_EQ(heading.blocks[0].heading_path[0], nfc);
  EXPECT_EQ(heading.blocks[1].text, nfc + " text");
  CanonicalDocument fm = ParseText("---\ntitle: " + nfd + "\ntags: [" + nfd + "]\n---\nx\n");
  EXPECT_EQ(fm.title, nfc);
  EXPECT_THAT(fm.metadata.tags, ElementsAre(nfc));
}

TEST(MarkdownTest, LanguageFromFrontMatterOrDetection) {
  EXPECT_EQ(ParseText(ReadFixture("korean.md")).lang, "ko");
  EXPECT_EQ(ParseText(ReadFixture("simple.md")).lang, "en");
  // Mostly English with a short Korean section: the language with the most text wins.
  EXPECT_EQ(ParseText(ReadFixture("mixed.md")).lang, "en");
  EXPECT_EQ(ParseText("---\nlang: ja\n---\n" + ReadFixture("korean.md")).lang, "ja");
  EXPECT_EQ(ParseText("```\nint main() {}\n```\n").lang, "und");
  EXPECT_EQ(ParseText("").lang, "und");
}

// tldr-pages style: short prose, then command lines in inline code. The commands are English
// words whatever the page's language; they stay in the blocks but out of language detection.
TEST(MarkdownTest, CommandLinesDoNotDecideTheLanguage) {
  const std::string page =
      "# git commit\n\n"
      "> Simpan perubahan ke repositori lokal.\n\n"
      "- Simpan perubahan yang sudah ditandai dengan sebuah pesan:\n\n"
      "`git commit --message \"update the release notes and the build configuration files\"`\n\n"
      "- Simpan semua berkas yang sudah diubah atau dihapus:\n\n"
      "`git commit --all --message \"remove the old deployment scripts from the repository\"`\n\n"
      "- Ubah pesan dari perubahan terakhir:\n\n"
      "`git commit --amend --message \"fix the broken link in the documentation index page\"`\n";
  CanonicalDocument doc = ParseText(page);
  EXPECT_EQ(doc.lang, "id");
  ASSERT_EQ(doc.blocks.back().kind, BlockKind::kParagraph);
  EXPECT_THAT(doc.blocks.back().text, HasSubstr("fix the broken link"));
  EXPECT_EQ(ParseText("`ls -la`\n\n`git status --short`\n").lang, "und");
}

// A tldr-pages page in Korean (pages.ko/common/git-merge-base.md): with its link's letters in
// the sample, CLD2 was unsure of it ("und"). URLs are left out of the sample it sees, and stay
// in the blocks.
TEST(MarkdownTest, UrlsDoNotDecideTheLanguage) {
  const std::string page =
      "# git merge-base\n\n"
      "> 두 커밋의 공통 조상을 찾습니다.\n"
      "> 더 많은 정보: <https://git-scm.com/docs/git-merge-base>.\n\n"
      "- 두 커밋의 최상의 공통 조상을 출력:\n\n"
      "`git merge-base {{commit_1}} {{commit_2}}`\n\n"
      "- 두 커밋의 모든 최상의 공통 조상을 출력:\n\n"
      "`git merge-base {{[-a|--all]}} {{commit_1}} {{commit_2}}`\n\n"
      "- 특정 커밋이 다른 커밋의 조상인지 확인:\n\n"
      "`git merge-base --is-ancestor {{ancestor_commit}} {{commit}}`\n";
  CanonicalDocument doc = ParseText(page);
  EXPECT_EQ(doc.lang, "ko");
  ASSERT_GE(doc.blocks.size(), 2u);
  EXPECT_THAT(doc.blocks[1].text, HasSubstr("https://git-scm.com/docs/git-merge-base"));
}

TEST(MarkdownTest, DefaultsAndProvenance) {
  CanonicalDocument doc = ParseText(ReadFixture("simple.md"), "notes/simple.md");
  EXPECT_EQ(doc.workspace_path, "notes/simple.md");
  EXPECT_EQ(doc.asset_id, "asset-notes/simple.md");
  EXPECT_EQ(doc.parser_version, kMarkdownParserVersion);
  EXPECT_EQ(doc.metadata.created_at, "2025-01-02T03:04:05Z");
  EXPECT_EQ(doc.metadata.updated_at, "2025-01-02T03:04:05Z");
  EXPECT_EQ(doc.metadata.source_type, SourceType::kMarkdown);
  EXPECT_EQ(doc.metadata.trust_level, TrustLevel::kPrimary);
  EXPECT_THAT(doc.metadata.user, IsEmpty());
  ASSERT_EQ(doc.provenance.size(), 1u);
  EXPECT_EQ(doc.provenance[0].agent, "kebab-parse-md");
  EXPECT_EQ(doc.provenance[0].kind, "parsed");
  EXPECT_TRUE(ParseRfc3339(doc.provenance[0].at).has_value());
}

TEST(MarkdownTest, BinaryContentIsRejected) {
  std::string binary = "# Title\n";
  binary.push_back('\0');
  binary += "more";
  MarkdownInput input;
  input.bytes = binary;
  input.workspace_path = "blob.md";
  Result<CanonicalDocument> doc = ParseMarkdown(input);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(doc.status().message(), "binary content, not Markdown");

  // UTF-16 text is full of NUL bytes too.
  std::string utf16("\xFF\xFE#\0 \0T\0", 8);
  input.bytes = utf16;
  EXPECT_EQ(ParseMarkdown(input).status().code(), ErrorCode::kInvalidInput);

  // Only the first 8 KiB are probed; a later NUL becomes U+FFFD.
  std::string late(9000, 'a');
  late += '\0';
  late += "b\n";
  CanonicalDocument parsed = ParseText(late);
  ASSERT_EQ(parsed.blocks.size(), 1u);
  EXPECT_THAT(parsed.blocks[0].text, HasSubstr("\xEF\xBF\xBD"));
}

TEST(MarkdownTest, InvalidUtf8IsReplacedWithAWarning) {
  std::string source = "# Bad \xFF byte\n\nText \xC3\x28 here.\n";
  CanonicalDocument doc = ParseText(source);
  EXPECT_THAT(doc.warnings, ElementsAre("invalid UTF-8 replaced with U+FFFD"));
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.title, "Bad \xEF\xBF\xBD byte");
  EXPECT_EQ(doc.blocks[1].text, "Text \xEF\xBF\xBD( here.");
  EXPECT_EQ(doc.blocks[1].span, SourceSpan::Lines(3, 3));
  for (const Block& block : doc.blocks) EXPECT_TRUE(IsValidUtf8(block.text));
}

TEST(MarkdownTest, ConcurrentParsesMatchSequentialOnes) {
  // Strikethrough and autolinks depend on cmark-gfm state shared across threads.
  std::string source;
  for (int i = 0; i < 200; ++i) {
    source += "## Part " + std::to_string(i) + "\n\nSome ~~old~~ text at www.example.com/" +
              std::to_string(i) + " with `code`.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n";
  }
  CanonicalDocument expected = ParseText(source);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        CanonicalDocument doc = ParseText(source);
        if (doc.blocks.size() != expected.blocks.size()) {
          ++mismatches[t];
          continue;
        }
        for (size_t i = 0; i < doc.blocks.size(); ++i) {
          if (doc.blocks[i].PayloadJson() != expected.blocks[i].PayloadJson() ||
              doc.blocks[i].block_id != expected.blocks[i].block_id)
            ++mismatches[t];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_THAT(mismatches, ElementsAre(0, 0, 0, 0));
  EXPECT_EQ(expected.blocks[1].text, "Some old text at www.example.com/0 with code.");
}

TEST(MarkdownTest, FiftyMegabyteDocumentParses) {
  // Prose-heavy sections like real notes, 35 lines and 7 blocks each, so every span in the
  // document is known without re-reading it.
  constexpr const char* kWords[] = {"search", "index",  "chunk", "token", "query", "vector",
                                    "rank",   "answer", "line",  "span",  "block", "kebab",
                                    "local",  "notes",  "the",   "a",     "with",  "of"};
  uint32_t seed = 1;
  auto words = [&](int n) {
    std::string out;
    for (int i = 0; i < n; ++i) {
      seed = seed * 1664525u + 1013904223u;
      if (i > 0) out += ' ';
      out += kWords[(seed >> 16) % std::size(kWords)];
    }
    return out;
  };
  std::string source;
  source.reserve(51u << 20);
  int sections = 0;
  while (source.size() < (50u << 20)) {
    std::string n = std::to_string(++sections);
    source += "## Section " + n + "\n\n";
    for (int p = 0; p < 3; ++p) {
      for (int l = 0; l < 4; ++l) source += words(24) + ".\n";
      source += "\n";
    }
    for (int i = 0; i < 4; ++i) source += "- " + words(10) + "\n";
    source += "\n```python\n";
    for (int i = 0; i < 6; ++i) source += "x" + std::to_string(i) + " = f(" + n + ")\n";
    source += "```\n\n| key | value |\n|-----|-------|\n| n | " + n + " |\n\n";
  }
  auto started = std::chrono::steady_clock::now();
  CanonicalDocument doc = ParseText(source, "big.md");
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  RecordProperty("parse_seconds", std::to_string(seconds));
  EXPECT_LT(seconds, 60.0 * sanitizer::kTimeBoundScale);  // linear time; about 5 s on one core

  ASSERT_EQ(doc.blocks.size(), static_cast<size_t>(sections) * 7);
  const uint32_t offsets[7][2] = {{1, 1}, {3, 6}, {8, 11}, {13, 16}, {18, 21}, {23, 30}, {32, 34}};
  const BlockKind kinds[7] = {BlockKind::kHeading,   BlockKind::kParagraph, BlockKind::kParagraph,
                              BlockKind::kParagraph, BlockKind::kList,      BlockKind::kCode,
                              BlockKind::kTable};
  int wrong = 0;
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    const Block& block = doc.blocks[i];
    uint32_t base = static_cast<uint32_t>(i / 7) * 35;
    std::string heading = "Section " + std::to_string(i / 7 + 1);
    bool ok = block.kind == kinds[i % 7] &&
              block.span == SourceSpan::Lines(base + offsets[i % 7][0], base + offsets[i % 7][1]) &&
              block.heading_path.size() == 1 && block.heading_path[0] == heading;
    if (!ok && ++wrong <= 3) ADD_FAILURE() << "block " << i << " is off";
  }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace kebab::parse
