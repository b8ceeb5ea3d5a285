#include "text/analyzer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "text/identifier.h"

namespace kebab::text {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

struct Token {
  std::string term;
  int start;
  int end;
  bool operator==(const Token& o) const {
    return term == o.term && start == o.start && end == o.end;
  }
};

void PrintTo(const Token& t, std::ostream* os) {
  *os << "{\"" << t.term << "\", " << t.start << ", " << t.end << "}";
}

class RecordingSink : public TokenSink {
 public:
  explicit RecordingSink(size_t stop_after = 0) : stop_after_(stop_after) {}
  void OnToken(std::string_view term, int start, int end) override {
    tokens.push_back({std::string(term), start, end});
    if (stop_after_ != 0 && tokens.size() >= stop_after_) Stop();
  }
  // Whole identifiers (identifier_test.cc pins them) are kept apart: at the position of the
  // token before them, they have no range of their own among the tokens.
  void OnColocated(std::string_view term, int start, int end) override {
    colocated.push_back({std::string(term), start, end});
  }
  std::vector<Token> tokens;
  std::vector<Token> colocated;

 private:
  size_t stop_after_;
};

std::vector<Token> Tokens(const Analyzer& analyzer, std::string_view text) {
  RecordingSink sink;
  analyzer.Tokenize(text, sink);
  return sink.tokens;
}

AnalyzerOptions NoStem() {
  return AnalyzerOptions{"none"};
}

TEST(AnalyzerTest, AsciiWordsSplitOnPunctuationAndUnderscore) {
  Analyzer analyzer(NoStem());
  EXPECT_THAT(analyzer.Terms("Hello, World! foo_bar baz-qux (x=1)"),
              ElementsAre("hello", "world", "foo", "bar", "foobar", "baz", "qux", "x", "1"));
  EXPECT_THAT(Tokens(analyzer, "  Hello, World!"),
              ElementsAre(Token{"hello", 2, 7}, Token{"world", 9, 14}));
}

TEST(AnalyzerTest, FoldsCaseAndStripsDiacritics) {
  Analyzer analyzer(NoStem());
  EXPECT_THAT(analyzer.Terms("Café naïve Straße ＡＢＣ ÉCOLE Ωμέγα"),
              ElementsAre("cafe", "naive", "strasse", "abc", "ecole", "ωμεγα"));
  // Byte offsets cover the original (two-byte é) spelling.
  EXPECT_THAT(Tokens(analyzer, "Café au"), ElementsAre(Token{"cafe", 0, 5}, Token{"au", 6, 8}));
  // A decomposed accent (e + U+0301) stays inside the word and is stripped.
  EXPECT_THAT(analyzer.Terms("cafe\xCC\x81 bar"), ElementsAre("cafe", "bar"));
}

TEST(AnalyzerTest, StemsWithSnowballWhenEnabled) {
  Analyzer english(AnalyzerOptions{"english"});
  EXPECT_THAT(english.Terms("running"), ElementsAre("run"));
  EXPECT_EQ(english.Terms("databases"), english.Terms("database"));
  EXPECT_THAT(english.Terms("Running Databases"), ElementsAre("run", "databas"));

  RecordingSink sink;
  english.TokenizeUnstemmed("running", sink);
  EXPECT_THAT(sink.tokens, ElementsAre(Token{"running", 0, 7}));
}

// The stem cache is only built after hundreds of stems; before and after, and when words
// collide in it, the stems are the ones Snowball gives.
TEST(AnalyzerTest, StemsStayExactOnceTheStemCacheIsBuilt) {
  Analyzer english(AnalyzerOptions{"english"});
  const std::vector<std::string> words = {"running",   "databases",  "connections", "runner",
                                          "connected", "relational", "tables",      "queried"};
  std::vector<std::string> expected;
  for (const auto& w : words) {
    expected.push_back(Analyzer(AnalyzerOptions{"english"}).Terms(w).at(0));
  }
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {  // ~24,000 stems
    std::string text;
    std::vector<std::string> want;
    for (int i = 0; i < 8; ++i) {
      const size_t pick = rng() % words.size();
      text += words[pick] + std::to_string(round % 50) + " " + words[pick] + " ";
      // A fresh analyzer never reaches its cache.
      want.push_back(Analyzer(AnalyzerOptions{"english"})
                         .Terms(words[pick] + std::to_string(round % 50))
                         .at(0));
      want.push_back(expected[pick]);
    }
    ASSERT_EQ(english.Terms(text), want) << "round " << round;
  }
}

TEST(AnalyzerTest, DoesNotStemWhenDisabled) {
  EXPECT_THAT(Analyzer(AnalyzerOptions{"none"}).Terms("running databases"),
              ElementsAre("running", "databases"));
  EXPECT_THAT(Analyzer(AnalyzerOptions{""}).Terms("running"), ElementsAre("running"));
}

TEST(AnalyzerTest, KnowsSnowballStemmers) {
  EXPECT_TRUE(Analyzer::IsKnownStemmer(""));
  EXPECT_TRUE(Analyzer::IsKnownStemmer("none"));
  EXPECT_TRUE(Analyzer::IsKnownStemmer("english"));
  EXPECT_TRUE(Analyzer::IsKnownStemmer("german"));
  EXPECT_TRUE(Analyzer::IsKnownStemmer("en"));
  EXPECT_FALSE(Analyzer::IsKnownStemmer("bogus"));
  EXPECT_FALSE(Analyzer::IsKnownStemmer("English"));
  EXPECT_THAT(Analyzer::StemmerNames(), ::testing::Contains("english"));
}

TEST(AnalyzerTest, KoreanRunBecomesOverlappingBigramsWithByteOffsets) {
  Analyzer analyzer;
  EXPECT_THAT(Tokens(analyzer, "데이터베이스는"),
              ElementsAre(Token{"데이", 0, 6}, Token{"이터", 3, 9}, Token{"터베", 6, 12},
                          Token{"베이", 9, 15}, Token{"이스", 12, 18}, Token{"스는", 15, 21}));
  EXPECT_THAT(Tokens(analyzer, "네트워크 설정"),
              ElementsAre(Token{"네트", 0, 6}, Token{"트워", 3, 9}, Token{"워크", 6, 12},
                          Token{"설정", 13, 19}));
}

TEST(AnalyzerTest, SingleHangulCharacterIsAUnigram) {
  Analyzer analyzer;
  EXPECT_THAT(Tokens(analyzer, "나 는"), ElementsAre(Token{"나", 0, 3}, Token{"는", 4, 7}));
}

TEST(AnalyzerTest, DecomposedHangulIndexesLikePrecomposed) {
  Analyzer analyzer;
  // 데이 as conjoining Jamo (NFD, as macOS file names spell it).
  const std::string nfd = "\xE1\x84\x83\xE1\x85\xA6\xE1\x84\x8B\xE1\x85\xB5";
  EXPECT_THAT(Tokens(analyzer, nfd), ElementsAre(Token{"데이", 0, 12}));
}

TEST(AnalyzerTest, JapaneseKanaAndChineseHan) {
  Analyzer analyzer;
  EXPECT_THAT(analyzer.Terms("ひらがなカタカナ"),
              ElementsAre("ひら", "らが", "がな", "なカ", "カタ", "タカ", "カナ"));
  EXPECT_THAT(analyzer.Terms("中文分词"), ElementsAre("中文", "文分", "分词"));
  EXPECT_THAT(analyzer.Terms("人々"), ElementsAre("人々"));
  // The middle dot is punctuation, not part of the run.
  EXPECT_THAT(analyzer.Terms("データ・ベース"), ElementsAre("デー", "ータ", "ベー", "ース"));
  // Half-width katakana (with a separate voiced mark) fold to full width.
  EXPECT_THAT(analyzer.Terms("ｶﾀｶﾅ"), ElementsAre("カタ", "タカ", "カナ"));
  EXPECT_THAT(Tokens(analyzer, "ｶﾞ"), ElementsAre(Token{"ガ", 0, 6}));
}

TEST(AnalyzerTest, CjkAdjacentToLatinIsASeparateRun) {
  Analyzer analyzer(NoStem());
  EXPECT_THAT(Tokens(analyzer, "API를 사용"),
              ElementsAre(Token{"api", 0, 3}, Token{"를", 3, 6}, Token{"사용", 7, 13}));
  EXPECT_THAT(analyzer.Terms("2024년 SQLite와DB"),
              ElementsAre("2024", "년", "sq", "lite", "sqlite", "와", "db"));
}

TEST(AnalyzerTest, DigitsStayInsideWords) {
  Analyzer analyzer;
  EXPECT_THAT(analyzer.Terms("utf8 v2 3.14 H2O"), ElementsAre("utf8", "v2", "3", "14", "h2o"));
}

TEST(AnalyzerTest, InvalidUtf8SeparatesAndNeverCrashes) {
  Analyzer analyzer(NoStem());
  EXPECT_THAT(Tokens(analyzer,
                     "abc\xFF\xFE"
                     "def\xC3"),
              ElementsAre(Token{"abc", 0, 3}, Token{"def", 5, 8}));
  EXPECT_THAT(analyzer.Terms("데\x80이"), ElementsAre("데", "이"));
  // Overlong '/', a UTF-16 surrogate and a truncated sequence are all separators.
  EXPECT_THAT(analyzer.Terms("a\xC0\xAF"
                             "b\xED\xA0\x80"
                             "c\xED\x95"),
              ElementsAre("a", "b", "c"));

  std::mt19937 rng(42);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int round = 0; round < 2000; ++round) {
    std::string text(static_cast<size_t>(byte(rng)), '\0');
    for (char& c : text) c = static_cast<char>(byte(rng));
    for (const Token& t : Tokens(analyzer, text)) {
      ASSERT_FALSE(t.term.empty());
      ASSERT_LE(0, t.start);
      ASSERT_LT(t.start, t.end);
      ASSERT_LE(t.end, static_cast<int>(text.size()));
    }
  }
}

TEST(AnalyzerTest, EmptyAndSeparatorOnlyInputGiveNoTokens) {
  Analyzer analyzer;
  EXPECT_THAT(analyzer.Terms(""), IsEmpty());
  EXPECT_THAT(analyzer.Terms(" \n\t.,;!?—「」"), IsEmpty());
}

TEST(AnalyzerTest, SkipsAbsurdlyLongTokens) {
  Analyzer analyzer(NoStem());
  EXPECT_THAT(analyzer.Terms(std::string(300, 'a') + " ok " + std::string(201, 'b')),
              ElementsAre("ok"));
  EXPECT_THAT(analyzer.Terms(std::string(200, 'c')), ElementsAre(std::string(200, 'c')));
}

TEST(AnalyzerTest, StopsWhenTheSinkAsks) {
  Analyzer analyzer;
  RecordingSink sink(/*stop_after=*/2);
  analyzer.Tokenize("one two three 데이터베이스", sink);
  EXPECT_EQ(sink.tokens.size(), 2u);

  RecordingSink cjk_sink(/*stop_after=*/2);
  analyzer.Tokenize("데이터베이스 more", cjk_sink);
  EXPECT_THAT(cjk_sink.tokens, ElementsAre(Token{"데이", 0, 6}, Token{"이터", 3, 9}));
}

// The byte ranges Tokenize would give, predicted from ScriptRuns (a word of nothing but marks
// folds to an empty term, which Tokenize drops).
std::vector<std::pair<int, int>> RangesFromRuns(const Analyzer& analyzer, std::string_view text) {
  std::vector<std::pair<int, int>> out;
  for (const ScriptRun& run : ScriptRuns(text)) {
    if (run.kind == RunKind::kWord) {
      if (analyzer.Terms(text.substr(run.start, run.end - run.start)).empty()) continue;
      const std::string_view word = text.substr(run.start, run.end - run.start);
      const bool ascii = std::all_of(word.begin(), word.end(),
                                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
      std::vector<IdentifierPart> parts;
      if (ascii) {
        SplitAtCaseChanges(text, run.start, run.end, &parts);
      } else {
        parts.push_back({run.start, run.end});
      }
      for (const IdentifierPart& p : parts) {
        out.emplace_back(static_cast<int>(p.start), static_cast<int>(p.end));
      }
    } else if (run.units.size() == 1) {
      out.emplace_back(static_cast<int>(run.units[0].start), static_cast<int>(run.units[0].end));
    } else {
      for (size_t i = 0; i + 1 < run.units.size(); ++i) {
        out.emplace_back(static_cast<int>(run.units[i].start),
                         static_cast<int>(run.units[i + 1].end));
      }
    }
  }
  return out;
}

std::vector<std::pair<int, int>> TokenRanges(const Analyzer& analyzer, std::string_view text) {
  std::vector<std::pair<int, int>> out;
  for (const Token& t : Tokens(analyzer, text)) out.emplace_back(t.start, t.end);
  return out;
}

TEST(ScriptRunsTest, NamesRunsUnitsAndScripts) {
  const std::string text = "SQLite를 会議の記録 a\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB";
  const std::vector<ScriptRun> runs = ScriptRuns(text);
  ASSERT_EQ(runs.size(), 5u);
  EXPECT_EQ(runs[0].kind, RunKind::kWord);
  EXPECT_EQ(text.substr(runs[0].start, runs[0].end - runs[0].start), "SQLite");
  EXPECT_EQ(runs[1].kind, RunKind::kCjk);
  ASSERT_EQ(runs[1].units.size(), 1u);
  EXPECT_EQ(runs[1].units[0].script, CjkScript::kHangul);
  ASSERT_EQ(runs[2].units.size(), 5u);
  EXPECT_EQ(runs[2].units[0].script, CjkScript::kHan);
  EXPECT_EQ(runs[2].units[2].script, CjkScript::kKana);
  EXPECT_EQ(runs[3].kind, RunKind::kWord);
  // Conjoining Jamo (ᄒ ᅡ ᆫ) form one syllable unit, as the index pairs them.
  ASSERT_EQ(runs[4].units.size(), 1u);
  EXPECT_EQ(runs[4].units[0].end - runs[4].units[0].start, 9u);
  EXPECT_EQ(runs[4].units[0].script, CjkScript::kHangul);
}

TEST(ScriptRunsTest, AgreesWithTokenizeOnEveryRange) {
  Analyzer analyzer(NoStem());
  for (std::string_view text :
       {"데이터베이스는 SQLite를 쓴다", "会議の記録をコミット", "ｶﾞｷﾞ ｱ", "cafe\xCC\x81 x",
        "\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB\xE1\x84\x80\xE1\x85\xB3\xE1\x86\xAF", "책 a 책",
        "가\xCC\x81나", "x\xFF\xFE가나다"}) {
    EXPECT_EQ(RangesFromRuns(analyzer, text), TokenRanges(analyzer, text)) << text;
  }
  const std::vector<std::string> alphabet = {
      "a",    "Z",  "9", " ", "-",        "가",           "나",           "漢",
      "字",   "か", "ｶ", "ﾞ", "\xCC\x81", "\xE1\x84\x92", "\xE1\x85\xA1", "\xE1\x86\xAB",
      "\xFF", "é",  "・"};
  std::mt19937 rng(11);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int len = static_cast<int>(rng() % 12);
    for (int i = 0; i < len; ++i) text += alphabet[rng() % alphabet.size()];
    EXPECT_EQ(RangesFromRuns(analyzer, text), TokenRanges(analyzer, text)) << text;
  }
}

}  // namespace
}  // namespace kebab::text
