#include "source/ignore.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kebab::source {
namespace {

using Verdict = IgnoreList::Verdict;

constexpr bool kFile = false;
constexpr bool kDir = true;

Verdict M(const IgnoreList& list, std::string_view path, bool is_dir = kFile) {
  return list.Match(path, is_dir);
}

TEST(IgnoreListTest, BlankLinesAndCommentsAreNotPatterns) {
  IgnoreList list("", "\n   \n# a comment\n\t#not-a-comment-after-tab\n");
  EXPECT_EQ(M(list, "# a comment"), Verdict::kNone);
  EXPECT_EQ(M(list, "\t#not-a-comment-after-tab"), Verdict::kIgnored);
  EXPECT_FALSE(list.empty());
  EXPECT_TRUE(IgnoreList("", "\n# only comments\n\n").empty());
}

TEST(IgnoreListTest, EscapedHashAndBangAreLiterals) {
  IgnoreList list("", "\\#notes.md\n\\!important.md\n");
  EXPECT_EQ(M(list, "#notes.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "!important.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "important.md"), Verdict::kNone);
}

TEST(IgnoreListTest, TrailingSpacesTrimmedUnlessEscaped) {
  IgnoreList list("", "draft.md   \nkeep\\ \n");
  EXPECT_EQ(M(list, "draft.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "draft.md   "), Verdict::kNone);
  EXPECT_EQ(M(list, "keep "), Verdict::kIgnored);
  EXPECT_EQ(M(list, "keep"), Verdict::kNone);
}

TEST(IgnoreListTest, CrlfLinesAndBomAreTolerated) {
  IgnoreList list("", "\xEF\xBB\xBF*.tmp\r\nbuild/\r\n");
  EXPECT_EQ(M(list, "a.tmp"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "build", kDir), Verdict::kIgnored);
}

TEST(IgnoreListTest, NegationLastMatchWins) {
  IgnoreList list("", "*.md\n!keep.md\n");
  EXPECT_EQ(M(list, "drop.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "keep.md"), Verdict::kIncluded);
  EXPECT_EQ(M(list, "sub/keep.md"), Verdict::kIncluded);

  IgnoreList reversed("", "!keep.md\n*.md\n");
  EXPECT_EQ(M(reversed, "keep.md"), Verdict::kIgnored);
}

TEST(IgnoreListTest, NoMatchIsNone) {
  IgnoreList list("", "*.tmp\n");
  EXPECT_EQ(M(list, "notes.md"), Verdict::kNone);
  EXPECT_EQ(M(IgnoreList(), "notes.md"), Verdict::kNone);
}

TEST(IgnoreListTest, TrailingSlashMatchesDirectoriesOnly) {
  IgnoreList list("", "build/\n");
  EXPECT_EQ(M(list, "build", kDir), Verdict::kIgnored);
  EXPECT_EQ(M(list, "build", kFile), Verdict::kNone);
  EXPECT_EQ(M(list, "a/b/build", kDir), Verdict::kIgnored);
}

TEST(IgnoreListTest, PatternWithoutSlashMatchesAtAnyDepth) {
  IgnoreList list("", "scratch.md\n");
  EXPECT_EQ(M(list, "scratch.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a/b/c/scratch.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a/scratch.md.bak"), Verdict::kNone);
}

TEST(IgnoreListTest, LeadingSlashAnchorsToBase) {
  IgnoreList list("", "/todo.md\n");
  EXPECT_EQ(M(list, "todo.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "sub/todo.md"), Verdict::kNone);
}

TEST(IgnoreListTest, MiddleSlashAnchorsToBase) {
  IgnoreList list("", "doc/frotz\n");
  EXPECT_EQ(M(list, "doc/frotz", kDir), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a/doc/frotz", kDir), Verdict::kNone);

  IgnoreList dir_only("", "doc/frotz/\n");
  EXPECT_EQ(M(dir_only, "doc/frotz", kDir), Verdict::kIgnored);
  EXPECT_EQ(M(dir_only, "doc/frotz", kFile), Verdict::kNone);
}

TEST(IgnoreListTest, StarAndQuestionDoNotCrossSlash) {
  IgnoreList list("", "notes/*.md\nfile?.txt\n");
  EXPECT_EQ(M(list, "notes/a.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "notes/sub/a.md"), Verdict::kNone);
  EXPECT_EQ(M(list, "file1.txt"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "file12.txt"), Verdict::kNone);

  IgnoreList slash("", "a?b\na*c\n");
  EXPECT_EQ(M(slash, "a/b"), Verdict::kNone);
  EXPECT_EQ(M(slash, "a/c"), Verdict::kNone);
}

TEST(IgnoreListTest, QuestionMarkMatchesOneCodePoint) {
  IgnoreList list("", "메모?.md\n");
  EXPECT_EQ(M(list, "메모1.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "메모가.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "메모.md"), Verdict::kNone);
}

TEST(IgnoreListTest, LeadingDoubleStarMatchesAnyDepth) {
  IgnoreList list("", "**/foo\n**/logs/debug.log\n");
  EXPECT_EQ(M(list, "foo"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a/foo"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a/b/foo", kDir), Verdict::kIgnored);
  EXPECT_EQ(M(list, "xfoo"), Verdict::kNone);
  EXPECT_EQ(M(list, "logs/debug.log"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "x/logs/debug.log"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "x/logs/y/debug.log"), Verdict::kNone);
}

TEST(IgnoreListTest, TrailingDoubleStarMatchesEverythingInside) {
  IgnoreList list("", "abc/**\n");
  EXPECT_EQ(M(list, "abc/x"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "abc/x/y/z.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "abc", kDir), Verdict::kNone);
  EXPECT_EQ(M(list, "sub/abc/x"), Verdict::kNone);
}

TEST(IgnoreListTest, MiddleDoubleStarMatchesZeroOrMoreDirectories) {
  IgnoreList list("", "a/**/b\n");
  EXPECT_EQ(M(list, "a/b"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a/x/b"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a/x/y/b"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a/xb"), Verdict::kNone);
  EXPECT_EQ(M(list, "a/x/bb"), Verdict::kNone);
}

TEST(IgnoreListTest, OtherDoubleStarsActLikeSingleStar) {
  IgnoreList list("", "foo**bar\n");
  EXPECT_EQ(M(list, "fooXbar"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "foobar"), Verdict::kIgnored);
  EXPECT_EQ(M(IgnoreList("", "x/foo**bar\n"), "x/foo/bar"), Verdict::kNone);
}

TEST(IgnoreListTest, BracketClasses) {
  IgnoreList list("", "[a-c]x.md\nlog[!0-9].txt\n[[:digit:]]*.tmp\n[]]q\n");
  EXPECT_EQ(M(list, "ax.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "cx.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "dx.md"), Verdict::kNone);
  EXPECT_EQ(M(list, "logA.txt"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "log5.txt"), Verdict::kNone);
  EXPECT_EQ(M(list, "7days.tmp"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "days.tmp"), Verdict::kNone);
  EXPECT_EQ(M(list, "]q"), Verdict::kIgnored);
}

TEST(IgnoreListTest, BracketEdgeCases) {
  // Each pattern is anchored ("/...") so the whole path is matched against it.
  const struct {
    const char* pattern;
    const char* path;
    Verdict want;
  } cases[] = {
      {"/a[]-]b", "a-b", Verdict::kIgnored},
      {"/a[]-]b", "a]b", Verdict::kIgnored},
      {"/a[]-]b", "aab", Verdict::kNone},
      {"/[]-a]", "^", Verdict::kIgnored},
      {"/[!]-a]", "^", Verdict::kNone},
      {"/[a-]b]", "-b]", Verdict::kIgnored},
      {"/[a-e-n]", "-", Verdict::kIgnored},
      {"/[a-e-n]", "j", Verdict::kNone},
      {"/[\\1-\\3]", "2", Verdict::kIgnored},
      {"/[[:]ab]", "[ab]", Verdict::kIgnored},
      {"/[[::]ab]", "[ab]", Verdict::kNone},
      {"/[a-c[:digit:]x-z]", "5", Verdict::kIgnored},
      {"/[a-c[:digit:]x-z]", "q", Verdict::kNone},
      {"/foo[/]bar", "foo/bar", Verdict::kNone},
      {"/[!a-z]", "/", Verdict::kNone},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(M(IgnoreList("", std::vector<std::string>{c.pattern}), c.path), c.want)
        << c.pattern << " vs " << c.path;
  }
}

TEST(IgnoreListTest, BracketClassWithHangulRange) {
  IgnoreList list("", "[가-나]*.md\n");
  EXPECT_EQ(M(list, "가족.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "다음.md"), Verdict::kNone);
}

TEST(IgnoreListTest, MalformedPatternsMatchNothing) {
  IgnoreList list("", "[abc\nfoo\\\n[[:nosuch:]]\n");
  EXPECT_EQ(M(list, "[abc"), Verdict::kNone);
  EXPECT_EQ(M(list, "a"), Verdict::kNone);
  EXPECT_EQ(M(list, "foo"), Verdict::kNone);
  EXPECT_EQ(M(list, "foo\\"), Verdict::kNone);
}

TEST(IgnoreListTest, EscapedStarIsLiteral) {
  IgnoreList list("", "\\*.md\n");
  EXPECT_EQ(M(list, "*.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "a.md"), Verdict::kNone);
}

TEST(IgnoreListTest, PatternsAreRelativeToBase) {
  IgnoreList list("notes/sub", "/local.md\n*.tmp\ndeep/x.md\n");
  EXPECT_EQ(M(list, "notes/sub/local.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "local.md"), Verdict::kNone);
  EXPECT_EQ(M(list, "notes/local.md"), Verdict::kNone);
  EXPECT_EQ(M(list, "notes/sub/a/local.md"), Verdict::kNone);
  EXPECT_EQ(M(list, "notes/sub/a/b.tmp"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "notes/b.tmp"), Verdict::kNone);
  EXPECT_EQ(M(list, "notes/subway/b.tmp"), Verdict::kNone);
  EXPECT_EQ(M(list, "notes/sub/deep/x.md"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "notes/sub", kDir), Verdict::kNone);
}

TEST(IgnoreListTest, PatternVectorUsesSameSyntax) {
  IgnoreList list("", std::vector<std::string>{"drafts/", "*.bak", "!keep.bak", "# comment"});
  EXPECT_EQ(M(list, "drafts", kDir), Verdict::kIgnored);
  EXPECT_EQ(M(list, "x.bak"), Verdict::kIgnored);
  EXPECT_EQ(M(list, "keep.bak"), Verdict::kIncluded);
  EXPECT_EQ(M(list, "# comment"), Verdict::kNone);
}

TEST(IgnoreListTest, DegeneratePatternsAreDropped) {
  EXPECT_TRUE(IgnoreList("", "/\n!\n!/\n").empty());
}

TEST(IgnoreListTest, NfdPatternMatchesNfcPath) {
  // "한" written decomposed (as macOS stores names) must still match the NFC workspace path.
  IgnoreList list("", "\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB.md\n");
  EXPECT_EQ(M(list, "\xED\x95\x9C.md"), Verdict::kIgnored);
}

TEST(IgnoreListTest, ManyStarsDoNotBlowUp) {
  std::string pattern;
  for (int i = 0; i < 30; ++i) pattern += "*a";
  pattern += "*b\n";
  IgnoreList list("", pattern);
  EXPECT_EQ(M(list, std::string(200, 'a')), Verdict::kNone);
  EXPECT_EQ(M(list, std::string(40, 'a') + "b"), Verdict::kIgnored);
}

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(EnsureKebabignoreLineTest, AppendsOnceAndKeepsTheUsersLines) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(testing::TempDir()) / "kebab_kebabignore_test";
  fs::remove_all(root);
  fs::create_directories(root);
  ASSERT_TRUE(EnsureKebabignoreLine(root.string(), "/suite.yaml", "# by kebab").ok());
  EXPECT_EQ(ReadAll(root / ".kebabignore"), "# by kebab\n/suite.yaml\n");
  // Present already, anchored or not: nothing changes.
  ASSERT_TRUE(EnsureKebabignoreLine(root.string(), "suite.yaml").ok());
  EXPECT_EQ(ReadAll(root / ".kebabignore"), "# by kebab\n/suite.yaml\n");

  std::ofstream(root / ".kebabignore", std::ios::trunc) << "drafts/";
  ASSERT_TRUE(EnsureKebabignoreLine(root.string(), "_external/", "# unused").ok());
  EXPECT_EQ(ReadAll(root / ".kebabignore"), "drafts/\n_external/\n");
  fs::remove_all(root);
}

}  // namespace
}  // namespace kebab::source
