#include "parse/language.h"

#include <gtest/gtest.h>

namespace kebab::parse {
namespace {

TEST(DetectLanguageTest, CommonLanguages) {
  EXPECT_EQ(DetectLanguage("The quick brown fox jumps over the lazy dog while the farmer "
                           "watches from the porch."),
            "en");
  EXPECT_EQ(DetectLanguage("한국어 문서를 색인할 때는 조사 때문에 단어 경계가 흐려진다."), "ko");
  EXPECT_EQ(DetectLanguage("日本語の文章を正しく判定できるかどうかを確認します。"), "ja");
  EXPECT_EQ(DetectLanguage("Der schnelle braune Fuchs springt über den faulen Hund und läuft "
                           "dann in den Wald."),
            "de");
}

TEST(DetectLanguageTest, ChineseVariantsAreZh) {
  EXPECT_EQ(DetectLanguage("这是一个用于测试语言检测的中文句子，我们希望它能够被正确识别。"), "zh");
  EXPECT_EQ(DetectLanguage("這是一個用於測試語言檢測的繁體中文句子，我們希望它能夠被正確識別。"),
            "zh");
}

TEST(DetectLanguageTest, UnsureIsUnd) {
  EXPECT_EQ(DetectLanguage(""), "und");
  EXPECT_EQ(DetectLanguage("hi"), "und");
  EXPECT_EQ(DetectLanguage("1234 5678 !!!"), "und");
}

TEST(DetectLanguageTest, InvalidUtf8DoesNotCrash) {
  std::string text = "Das ist ein ganz normaler deutscher Satz \xFF\xFE über Sprachen.";
  std::string lang = DetectLanguage(text);
  EXPECT_TRUE(lang == "de" || lang == "und") << lang;
  std::string big(3u << 20, 'a');
  EXPECT_FALSE(DetectLanguage(big).empty());
}

std::string WithoutUrls(std::string_view text) {
  std::string out = "kept:";
  AppendWithoutUrls(text, out);
  return out;
}

TEST(AppendWithoutUrlsTest, DropsUrlWordsAndKeepsTheRest) {
  EXPECT_EQ(WithoutUrls("More information: <https://git-scm.com/docs/git-commit>."),
            "kept:More information: ");
  EXPECT_EQ(WithoutUrls("see www.example.org or ftp://host/x, then go"), "kept:see  or  then go");
  EXPECT_EQ(WithoutUrls("https://a.b/c"), "kept:");
  EXPECT_EQ(WithoutUrls("two\nhttps://a.b\nlines\thttp://c.d\tend"), "kept:two\n\nlines\t\tend");
  // "www." inside a word, and "//" or ":" alone, are not URLs.
  EXPECT_EQ(WithoutUrls("awww.ok a//b c: d"), "kept:awww.ok a//b c: d");
  EXPECT_EQ(WithoutUrls("awww.x://y z"), "kept: z");  // a word holding "://" is one
  EXPECT_EQ(WithoutUrls("한국어 문서 https://ko.wikipedia.org/wiki/한국어 끝"),
            "kept:한국어 문서  끝");
  EXPECT_EQ(WithoutUrls(""), "kept:");
}

}  // namespace
}  // namespace kebab::parse
