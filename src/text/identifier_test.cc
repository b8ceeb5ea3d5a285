// Identifiers split into their words at underscores and changes of case, and the analyzer
// indexes the words at their own positions and the joined whole beside the last one.
#include "text/identifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "text/analyzer.h"

namespace kebab::text {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> Words(std::string_view text) {
  size_t word_end = 0;
  while (word_end < text.size() && std::isalnum(static_cast<unsigned char>(text[word_end]))) {
    ++word_end;
  }
  std::vector<IdentifierPart> parts;
  const size_t end = ScanIdentifier(text, 0, word_end, &parts);
  std::vector<std::string> out;
  for (const IdentifierPart& p : parts) out.emplace_back(text.substr(p.start, p.end - p.start));
  out.push_back("end=" + std::to_string(end));
  return out;
}

TEST(IdentifierTest, SplitsAtUnderscoresAndChangesOfCase) {
  EXPECT_THAT(Words("parseConfig("), ElementsAre("parse", "Config", "end=11"));
  EXPECT_THAT(Words("ParseConfig"), ElementsAre("Parse", "Config", "end=11"));
  EXPECT_THAT(Words("parse_config"), ElementsAre("parse", "config", "end=12"));
  EXPECT_THAT(Words("PARSE__CONFIG x"), ElementsAre("PARSE", "CONFIG", "end=13"));
  EXPECT_THAT(Words("HTTPServer"), ElementsAre("HTTP", "Server", "end=10"));
  EXPECT_THAT(Words("utf8Decode"), ElementsAre("utf8", "Decode", "end=10"));
  EXPECT_THAT(Words("plain words"), ElementsAre("plain", "end=5"));
  // A trailing underscore, or one before a non-ASCII word, ends the identifier.
  EXPECT_THAT(Words("foo_"), ElementsAre("foo", "end=3"));
  EXPECT_THAT(Words("foo_naïve"), ElementsAre("foo", "end=3"));
}

struct Token {
  std::string term;
  int start, end;
  bool colocated;
  bool operator==(const Token& o) const = default;
};

void PrintTo(const Token& t, std::ostream* os) {
  *os << "{\"" << t.term << "\", " << t.start << ", " << t.end << (t.colocated ? ", colocated" : "")
      << "}";
}

class RecordingSink : public TokenSink {
 public:
  void OnToken(std::string_view term, int start, int end) override {
    tokens.push_back({std::string(term), start, end, false});
  }
  void OnColocated(std::string_view term, int start, int end) override {
    tokens.push_back({std::string(term), start, end, true});
  }
  std::vector<Token> tokens;
};

std::vector<Token> Tokens(std::string_view stemmer, std::string_view text) {
  Analyzer analyzer(AnalyzerOptions{std::string(stemmer)});
  RecordingSink sink;
  analyzer.Tokenize(text, sink);
  return sink.tokens;
}

TEST(IdentifierTest, AnalyzerIndexesEachWordAndTheWholeBesideTheLast) {
  EXPECT_THAT(Tokens("none", "call parseConfig now"),
              ElementsAre(Token{"call", 0, 4, false}, Token{"parse", 5, 10, false},
                          Token{"config", 10, 16, false}, Token{"parseconfig", 5, 16, true},
                          Token{"now", 17, 20, false}));
  EXPECT_THAT(Tokens("none", "parse_config"),
              ElementsAre(Token{"parse", 0, 5, false}, Token{"config", 6, 12, false},
                          Token{"parseconfig", 0, 12, true}));
  // Words are stemmed as words; the whole is stemmed as the word it would be unsplit.
  EXPECT_THAT(Tokens("english", "loadingConfigs"),
              ElementsAre(Token{"load", 0, 7, false}, Token{"config", 7, 14, false},
                          Token{"loadingconfig", 0, 14, true}));
  // A capital only at the start, or a lone word, is a plain word.
  EXPECT_THAT(Tokens("none", "The __init__"),
              ElementsAre(Token{"the", 0, 3, false}, Token{"init", 6, 10, false}));
  // A Hangul particle ends the identifier as it ends any word.
  EXPECT_THAT(Tokens("none", "SQLite를"),
              ElementsAre(Token{"sq", 0, 2, false}, Token{"lite", 2, 6, false},
                          Token{"sqlite", 0, 6, true}, Token{"를", 6, 9, false}));
}

TEST(IdentifierTest, AnalyzerCanKeepIdentifiersWhole) {
  Analyzer analyzer(AnalyzerOptions{.stemmer = "none", .identifier_words = false});
  EXPECT_THAT(analyzer.Terms("parseConfig PostgreSQL parse_config"),
              ElementsAre("parseconfig", "postgresql", "parse", "config"));
}

}  // namespace
}  // namespace kebab::text
