#include "source/walker.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace kebab::source {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string MakeTempDir() {
  std::string tmpl = (fs::path(testing::TempDir()) / "kebab_walker_XXXXXX").string();
  const char* dir = mkdtemp(tmpl.data());
  return dir == nullptr ? std::string() : std::string(dir);
}

class WalkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = MakeTempDir();
    ASSERT_FALSE(root_.empty());
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
    for (const std::string& dir : extra_dirs_) fs::remove_all(dir, ec);
  }

  void Write(const std::string& rel, const std::string& content = "# note\n") {
    const fs::path path = fs::path(root_) / rel;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
  }
  void Mkdir(const std::string& rel) { fs::create_directories(fs::path(root_) / rel); }
  void Link(const std::string& target, const std::string& rel) {
    const fs::path path = fs::path(root_) / rel;
    fs::create_directories(path.parent_path());
    ASSERT_EQ(symlink(target.c_str(), path.c_str()), 0) << rel;
  }
  std::string OtherDir() {
    extra_dirs_.push_back(MakeTempDir());
    return extra_dirs_.back();
  }

  WalkResult WalkRoot(WalkOptions options = {}) {
    options.root = root_;
    Result<WalkResult> result = Walk(options);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? std::move(result).value() : WalkResult{};
  }

  static std::vector<std::string> Paths(const WalkResult& r) {
    std::vector<std::string> paths;
    for (const FoundFile& f : r.files) paths.push_back(f.workspace_path);
    return paths;
  }
  static uint64_t Count(const WalkResult& r, std::string_view reason) {
    const auto it = r.skipped.counts.find(std::string(reason));
    return it == r.skipped.counts.end() ? 0 : it->second;
  }
  static std::vector<std::string> Examples(const WalkResult& r, std::string_view reason) {
    const auto it = r.skipped.examples.find(std::string(reason));
    return it == r.skipped.examples.end() ? std::vector<std::string>{} : it->second;
  }

  std::string root_;
  std::vector<std::string> extra_dirs_;
};

TEST_F(WalkerTest, FindsMarkdownSortedWithFileFacts) {
  Write("b.md", "hello");
  Write("a.md");
  Write("a/z.markdown");
  Write("a.b/x.mdx");
  Write("A.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("A.md", "a.b/x.mdx", "a.md", "a/z.markdown", "b.md"));
  const FoundFile& b = r.files.back();
  EXPECT_EQ(b.abs_path, root_ + "/b.md");
  EXPECT_EQ(b.size, 5u);
  EXPECT_EQ(b.media, MediaKind::kMarkdown);
  struct stat st;
  ASSERT_EQ(stat(b.abs_path.c_str(), &st), 0);
  EXPECT_EQ(b.mtime_ns,
            static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec);
  EXPECT_EQ(r.skipped.Total(), 0u);
  EXPECT_THAT(r.warnings, IsEmpty());
}

TEST_F(WalkerTest, RootWithTrailingSlashGivesCleanPaths) {
  Write("n.md");
  WalkOptions options;
  options.root = root_ + "//";
  Result<WalkResult> r = Walk(options);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->files.size(), 1u);
  EXPECT_EQ(r->files[0].abs_path, root_ + "/n.md");
  EXPECT_EQ(r->files[0].workspace_path, "n.md");
}

TEST_F(WalkerTest, NestedGitignoreAppliesOnlyBelowItsDirectory) {
  Write(".gitignore", "secret.md\n");
  Write("sub/.gitignore", "local.md\n");
  Write("sub/deep/.gitignore", "/only-here.md\n");
  for (const char* f :
       {"secret.md", "sub/secret.md", "local.md", "sub/local.md", "sub/deep/local.md",
        "sub/deep/only-here.md", "sub/only-here.md", "other/local.md", "keep.md"}) {
    Write(f);
  }
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("keep.md", "local.md", "other/local.md", "sub/only-here.md"));
  EXPECT_EQ(Count(r, kSkipGitignore), 5u);
  EXPECT_THAT(Examples(r, kSkipGitignore),
              ElementsAre("secret.md", "sub/local.md", "sub/secret.md", "sub/deep/local.md",
                          "sub/deep/only-here.md"));
}

TEST_F(WalkerTest, NegationReincludesFiles) {
  Write(".gitignore", "drafts/*.md\n!drafts/final.md\nimportant.md\n");
  Write("sub/.gitignore", "!important.md\n");
  for (const char* f : {"drafts/a.md", "drafts/final.md", "important.md", "sub/important.md"}) {
    Write(f);
  }
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("drafts/final.md", "sub/important.md"));
  EXPECT_EQ(Count(r, kSkipGitignore), 2u);
}

TEST_F(WalkerTest, ExcludedDirectoryCannotBeReincludedAndCountsOnce) {
  Write(".gitignore", "build/\n!build/keep.md\n");
  Write("build/keep.md");
  Write("build/a.md");
  Write("build/deeper/b.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), IsEmpty());
  EXPECT_EQ(Count(r, kSkipGitignore), 1u);
  EXPECT_THAT(Examples(r, kSkipGitignore), ElementsAre("build"));
}

TEST_F(WalkerTest, KebabignoreAtRootAndInSubdirectory) {
  Write(".kebabignore", "private/\nboth.md\n");
  Write("notes/.kebabignore", "*.draft.md\n");
  Write(".gitignore", "both.md\n");
  for (const char* f : {"private/p.md", "notes/x.draft.md", "notes/x.md", "y.draft.md", "both.md",
                        "notes/private/q.md"}) {
    Write(f);
  }
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("notes/x.md", "y.draft.md"));
  EXPECT_EQ(Count(r, kSkipKebabignore), 3u);
  EXPECT_THAT(Examples(r, kSkipKebabignore),
              ElementsAre("private", "notes/private", "notes/x.draft.md"));
  // A path both files ignore is charged to .gitignore, which is checked first.
  EXPECT_EQ(Count(r, kSkipGitignore), 1u);
}

TEST_F(WalkerTest, ConfigExcludesAreCheckedBeforeIgnoreFiles) {
  Write(".gitignore", "old.md\n");
  for (const char* f : {"archive/a.md", "x/archive/b.md", "n.old.md", "top.md", "sub/top.md",
                        "old.md", "keep.md"}) {
    Write(f);
  }
  WalkOptions options;
  options.exclude = {"archive/", "*.old.md", "/top.md", "old.md"};
  const WalkResult r = WalkRoot(options);
  EXPECT_THAT(Paths(r), ElementsAre("keep.md", "sub/top.md"));
  EXPECT_EQ(Count(r, kSkipConfigExclude), 5u);
  EXPECT_EQ(Count(r, kSkipGitignore), 0u);
}

TEST_F(WalkerTest, EveryBlacklistedDirectoryIsSkippedAndCountedOnce) {
  for (const char* d : {"node_modules", "target", "__pycache__", ".venv", "venv"}) {
    Write(std::string(d) + "/a.md");
    Write(std::string(d) + "/more/b.md");
  }
  Write("pkg/node_modules/lodash/readme.md");
  Write("target.md");
  Write("docs/venv.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("docs/venv.md", "target.md"));
  EXPECT_EQ(Count(r, kSkipBuiltinBlacklist), 6u);
  EXPECT_THAT(Examples(r, kSkipBuiltinBlacklist),
              ElementsAre(".venv", "__pycache__", "node_modules", "target", "venv"));
}

TEST_F(WalkerTest, CodeInVendoredDirectoriesIsSkippedButTheirDocumentsAreKept) {
  Write("app/main.go", "package main\n");
  Write("app/vendor/github.com/x/y/y.go", "package y\n");
  Write("app/vendor/README.md");
  Write("web/dist/bundle.js", "var a;\n");
  Write("web/dist/deep/more/c.ts", "let b;\n");
  Write("build/notes.md");
  Write("build/gen.c", "int x;\n");
  Write("vendored.go", "package v\n");  // a file's own name never counts
  WalkOptions options;
  options.media = {MediaKind::kMarkdown, MediaKind::kCode};
  options.code_skip_dirs = {"vendor", "dist", "build"};
  const WalkResult r = WalkRoot(options);
  EXPECT_THAT(Paths(r),
              ElementsAre("app/main.go", "app/vendor/README.md", "build/notes.md", "vendored.go"));
  EXPECT_EQ(Count(r, kSkipVendored), 4u);
  EXPECT_THAT(Examples(r, kSkipVendored),
              ElementsAre("app/vendor/github.com/x/y/y.go", "build/gen.c", "web/dist/bundle.js",
                          "web/dist/deep/more/c.ts"));
  // With no names configured, nothing is vendored.
  options.code_skip_dirs.clear();
  EXPECT_EQ(WalkRoot(options).files.size(), 8u);
}

TEST_F(WalkerTest, BlacklistIsChargedBeforeGitignore) {
  Write(".gitignore", "node_modules/\n");
  Write("node_modules/x.md");
  const WalkResult r = WalkRoot();
  EXPECT_EQ(Count(r, kSkipBuiltinBlacklist), 1u);
  EXPECT_EQ(Count(r, kSkipGitignore), 0u);
}

TEST_F(WalkerTest, GitDirectoriesAreSkippedSilently) {
  Write(".git/HEAD", "ref: refs/heads/main\n");
  Write(".git/notes.md");
  Write("sub/.git/x.md");
  Write("n.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("n.md"));
  EXPECT_EQ(r.skipped.Total(), 0u);
}

TEST_F(WalkerTest, UnsupportedFilesAreTalliedByExtension) {
  for (const char* f :
       {"a.png", "b.PNG", "c.pdf", "Makefile", ".env", "x.tar.gz", "d.py", "sub/e.png"}) {
    Write(f, "data");
  }
  Write(".gitignore", "nothing-matches\n");
  Write("sub/.kebabignore", "nothing-matches\n");
  Write(".DS_Store", "finder");
  Write("._n.md", "appledouble");
  Write("n.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("n.md"));
  EXPECT_EQ(Count(r, kSkipUnsupported), 8u);
  EXPECT_EQ(r.skipped.by_extension,
            (std::map<std::string, uint64_t>{
                {".png", 3}, {".pdf", 1}, {"(none)", 2}, {".gz", 1}, {".py", 1}}));
  EXPECT_EQ(r.skipped.Total(), 8u);
}

TEST_F(WalkerTest, ReturnsExactlyTheMediaAskedFor) {
  for (const char* f : {"a.md", "b.pdf", "c.PDF", "d.png", "e.py"}) Write(f, "data");
  WalkOptions pdf_and_code;
  pdf_and_code.media = {MediaKind::kPdf, MediaKind::kCode};
  WalkResult r = WalkRoot(pdf_and_code);
  EXPECT_THAT(Paths(r), ElementsAre("b.pdf", "c.PDF", "e.py"));
  EXPECT_EQ(r.files[0].media, MediaKind::kPdf);
  EXPECT_EQ(r.files[2].media, MediaKind::kCode);
  EXPECT_EQ(r.skipped.by_extension, (std::map<std::string, uint64_t>{{".md", 1}, {".png", 1}}));

  WalkOptions none;
  none.media = {};
  r = WalkRoot(none);
  EXPECT_THAT(Paths(r), IsEmpty());
  EXPECT_EQ(Count(r, kSkipUnsupported), 5u);
}

TEST_F(WalkerTest, FilesOverTheSizeCapAreSkipped) {
  Write("small.md", "12345");
  Write("exact.md", std::string(10, 'x'));
  Write("big.md", std::string(11, 'x'));
  WalkOptions options;
  options.max_file_bytes = 10;
  const WalkResult r = WalkRoot(options);
  EXPECT_THAT(Paths(r), ElementsAre("exact.md", "small.md"));
  EXPECT_EQ(Count(r, kSkipSizeExceeded), 1u);
  EXPECT_THAT(Examples(r, kSkipSizeExceeded), ElementsAre("big.md"));
}

TEST_F(WalkerTest, ExamplesAreCappedAtFiveInWalkOrder) {
  Write(".gitignore", "*.tmp.md\n");
  for (int i = 6; i >= 0; --i) Write("f" + std::to_string(i) + ".tmp.md");
  const WalkResult r = WalkRoot();
  EXPECT_EQ(Count(r, kSkipGitignore), 7u);
  EXPECT_THAT(Examples(r, kSkipGitignore),
              ElementsAre("f0.tmp.md", "f1.tmp.md", "f2.tmp.md", "f3.tmp.md", "f4.tmp.md"));
}

TEST_F(WalkerTest, SymlinkedDirectoryAndFileAreFollowed) {
  const std::string outside = OtherDir();
  ASSERT_FALSE(outside.empty());
  std::ofstream(outside + "/n.md") << "outside";
  fs::create_directories(outside + "/deep");
  std::ofstream(outside + "/deep/m.md") << "m";
  std::ofstream(outside + "/.gitignore") << "ignored.md\n";
  std::ofstream(outside + "/ignored.md") << "i";
  Link(outside, "linked");
  Link(outside + "/n.md", "file-link.md");

  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("file-link.md", "linked/deep/m.md", "linked/n.md"));
  EXPECT_EQ(r.files[0].size, 7u);
  EXPECT_EQ(r.files[2].abs_path, root_ + "/linked/n.md");
  // The linked directory's own .gitignore applies under the link's path.
  EXPECT_THAT(Examples(r, kSkipGitignore), ElementsAre("linked/ignored.md"));
}

TEST_F(WalkerTest, SymlinksAreSkippedSilentlyWhenNotFollowing) {
  const std::string outside = OtherDir();
  std::ofstream(outside + "/n.md") << "outside";
  Link(outside, "linked");
  Link(outside + "/n.md", "file-link.md");
  Link("/nonexistent/kebab", "broken.md");
  Write("real.md");
  WalkOptions options;
  options.follow_symlinks = false;
  const WalkResult r = WalkRoot(options);
  EXPECT_THAT(Paths(r), ElementsAre("real.md"));
  EXPECT_EQ(r.skipped.Total(), 0u);
}

TEST_F(WalkerTest, SymlinkLoopsAreDetectedAndCounted) {
  Write("a/x.md");
  Link("..", "a/up");        // back to the root
  Link(".", "a/self");       // to itself
  Link(root_, "b/to-root");  // absolute path to the root
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("a/x.md"));
  EXPECT_EQ(Count(r, kSkipSymlinkLoop), 3u);
  EXPECT_THAT(Examples(r, kSkipSymlinkLoop), ElementsAre("a/self", "a/up", "b/to-root"));
}

TEST_F(WalkerTest, MutuallyLinkedDirectoriesTerminate) {
  Write("p/a.md");
  Write("q/b.md");
  Link("../q", "p/to-q");
  Link("../p", "q/to-p");
  const WalkResult r = WalkRoot();
  // Each directory is entered once more through the other's link, then the cycle closes.
  EXPECT_THAT(Paths(r), ElementsAre("p/a.md", "p/to-q/b.md", "q/b.md", "q/to-p/a.md"));
  EXPECT_EQ(Count(r, kSkipSymlinkLoop), 2u);
}

TEST_F(WalkerTest, BrokenSymlinkIsUnreadable) {
  Link("does-not-exist.md", "broken.md");
  Write("ok.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("ok.md"));
  EXPECT_EQ(Count(r, kSkipUnreadable), 1u);
  EXPECT_THAT(Examples(r, kSkipUnreadable), ElementsAre("broken.md"));
}

TEST_F(WalkerTest, FifoIsNotReturned) {
  ASSERT_EQ(mkfifo((root_ + "/pipe.md").c_str(), 0600), 0);
  Write("ok.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("ok.md"));
}

TEST_F(WalkerTest, SpacesAndHangulAreNfcWorkspacePaths) {
  // "메모" with its syllables decomposed into jamo, the way macOS file systems store names.
  const std::string nfd_memo = "\xE1\x84\x86\xE1\x85\xA6\xE1\x84\x86\xE1\x85\xA9";
  Write("my notes/" + nfd_memo + " 1.md", "x");
  // Decomposed jamo (U+11xx) sort before "가" but the composed "메" sorts after it, so the
  // output order must come from the normalized paths.
  Write("my notes/가.md", "z");
  Write("한글 폴더/첫 번째.md", "y");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r),
              ElementsAre("my notes/가.md", "my notes/메모 1.md", "한글 폴더/첫 번째.md"));
  EXPECT_EQ(r.files[1].abs_path, root_ + "/my notes/" + nfd_memo + " 1.md");
  EXPECT_TRUE(fs::exists(r.files[1].abs_path));
}

TEST_F(WalkerTest, IgnorePatternsMatchHangulPaths) {
  Write(".gitignore", "임시/\n* 초안.md\n");
  Write("임시/a.md");
  Write("회의 초안.md");
  Write("회의.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("회의.md"));
  EXPECT_EQ(Count(r, kSkipGitignore), 2u);
}

TEST_F(WalkerTest, OutputIsDeterministic) {
  for (int i = 0; i < 50; ++i) {
    Write("d" + std::to_string(i % 7) + "/f" + std::to_string(i) + ".md");
    Write("d" + std::to_string(i % 5) + "/g" + std::to_string(i) + ".png");
  }
  const WalkResult a = WalkRoot();
  const WalkResult b = WalkRoot();
  EXPECT_EQ(Paths(a), Paths(b));
  EXPECT_EQ(a.skipped.examples, b.skipped.examples);
  EXPECT_EQ(a.files.size(), 50u);
  EXPECT_TRUE(std::is_sorted(
      a.files.begin(), a.files.end(),
      [](const FoundFile& x, const FoundFile& y) { return x.workspace_path < y.workspace_path; }));
}

TEST_F(WalkerTest, UnreadableIgnoreFileWarnsAndIsIgnored) {
  Mkdir(".gitignore");  // a directory where the ignore file should be: read() fails
  Write("n.md");
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), ElementsAre("n.md"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_THAT(r.warnings[0], HasSubstr("cannot read " + root_ + "/.gitignore"));
}

TEST_F(WalkerTest, MissingRootIsIoError) {
  WalkOptions options;
  options.root = root_ + "/missing";
  Result<WalkResult> r = Walk(options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kIoError);
  EXPECT_THAT(r.status().message(), HasSubstr(root_ + "/missing"));
  EXPECT_FALSE(r.status().hint().empty());
}

TEST_F(WalkerTest, RootThatIsAFileIsIoError) {
  Write("file.md");
  WalkOptions options;
  options.root = root_ + "/file.md";
  Result<WalkResult> r = Walk(options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kIoError);
  EXPECT_THAT(r.status().message(), HasSubstr("not a directory"));
}

TEST_F(WalkerTest, EmptyRootIsIoError) {
  Result<WalkResult> r = Walk(WalkOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kIoError);
}

TEST_F(WalkerTest, UnreadableDirectoryWarnsAndContinues) {
  if (geteuid() == 0) GTEST_SKIP() << "root can read any directory";
  Write("locked/a.md");
  Write("open.md");
  ASSERT_EQ(chmod((root_ + "/locked").c_str(), 0), 0);
  const WalkResult r = WalkRoot();
  chmod((root_ + "/locked").c_str(), 0700);
  EXPECT_THAT(Paths(r), ElementsAre("open.md"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_THAT(r.warnings[0], HasSubstr("cannot read directory " + root_ + "/locked"));
  EXPECT_THAT(r.unreadable_dirs, ElementsAre("locked"));  // so ingest keeps its documents
}

TEST_F(WalkerTest, UnreadableFileIsCounted) {
  if (geteuid() == 0) GTEST_SKIP() << "root can read any file";
  Write("secret.md");
  ASSERT_EQ(chmod((root_ + "/secret.md").c_str(), 0), 0);
  const WalkResult r = WalkRoot();
  EXPECT_THAT(Paths(r), IsEmpty());
  EXPECT_EQ(Count(r, kSkipUnreadable), 1u);
}

// PathRules answers one path at a time what a walk decides for the whole tree.
TEST_F(WalkerTest, PathRulesAgreeWithTheWalk) {
  Write(".gitignore", "build/\n*.log\n!keep.log\n");
  Write("notes/.kebabignore", "private.md\n");
  Write("notes/.gitignore", "!build/\n");
  for (const char* rel :
       {"a.md", "x.log", "keep.log", "build/out.md", "notes/build/b.md", "notes/private.md",
        "notes/ok.md", "drafts/d.md", "node_modules/m.md", ".git/HEAD.md", "deep/er/._mac.md",
        ".#lock.md", "notes/#auto.md#", "notes/ok.md~", ".ok.md.swp"}) {
    Write(rel);
  }
  WalkOptions options;
  options.exclude = {"drafts/"};
  options.media = {MediaKind::kMarkdown, MediaKind::kOther};
  const WalkResult walk = WalkRoot(options);
  std::set<std::string> walked;
  for (const FoundFile& f : walk.files) walked.insert(f.workspace_path);
  PathRules rules(root_, options.exclude);
  for (const char* rel :
       {"a.md", "x.log", "keep.log", "build/out.md", "notes/build/b.md", "notes/private.md",
        "notes/ok.md", "drafts/d.md", "node_modules/m.md", ".git/HEAD.md", "deep/er/._mac.md",
        ".#lock.md", "notes/#auto.md#", "notes/ok.md~", ".ok.md.swp"}) {
    EXPECT_EQ(rules.Skips(rel, false), walked.count(rel) == 0) << rel;
  }
  EXPECT_TRUE(walked.count("a.md") && walked.count("notes/ok.md") && walked.count("keep.log"));
  EXPECT_EQ(walk.skipped.counts.count("unsupported"), 0u);  // editors' files are not counted
  EXPECT_TRUE(rules.Skips("build", true));
  EXPECT_FALSE(rules.Skips("notes/build", true));
  EXPECT_TRUE(PathRules(root_, {}, {"*.md"}).Skips("notes/ok.md", false));
  // A changed ignore file counts once forgotten.
  Write("notes/.kebabignore", "ok.md\n");
  EXPECT_FALSE(rules.Skips("notes/ok.md", false));
  rules.Forget();
  EXPECT_TRUE(rules.Skips("notes/ok.md", false));
  EXPECT_FALSE(rules.Skips("notes/private.md", false));
}

}  // namespace
}  // namespace kebab::source
