// GitRepos against repositories made by the real `git` (loose refs, packed refs, a detached
// HEAD, a linked worktree, a submodule-style `gitdir:` file) and hand-written broken ones.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "source/walker.h"

namespace kebab::source {
namespace {

namespace fs = std::filesystem;

class GitReposTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("git --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "git is not installed";
    std::string tmpl = (fs::path(testing::TempDir()) / "kebab_git_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = fs::canonical(tmpl).string();
  }
  void TearDown() override {
    std::error_code ec;
    if (!root_.empty()) fs::remove_all(root_, ec);
  }

  // Runs `git` with its arguments in `dir` (relative to the test root); true on success.
  bool Git(const std::string& dir, const std::string& args) {
    const std::string cmd = "cd '" + root_ + "/" + dir +
                            "' && git -c user.name=t -c user.email=t@example.com "
                            "-c init.defaultBranch=main " +
                            args + " >/dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
  }
  std::string Head(const std::string& dir) {
    std::ifstream in(root_ + "/" + dir + "/.git/HEAD");
    std::string line;
    std::getline(in, line);
    return line;
  }
  std::string Sha(const std::string& dir) {
    const std::string out = root_ + "/sha.txt";
    const std::string cmd = "cd '" + root_ + "/" + dir + "' && git rev-parse HEAD > '" + out + "'";
    if (std::system(cmd.c_str()) != 0) return "";
    std::ifstream in(out);
    std::string sha;
    in >> sha;
    return sha;
  }

  std::string root_;
};

TEST_F(GitReposTest, ReadsNameRemoteBranchAndCommitOfTheNearestRepository) {
  fs::create_directories(root_ + "/widgets/src/net");
  ASSERT_TRUE(Git("widgets", "init -q"));
  ASSERT_TRUE(Git("widgets", "remote add origin https://alice:s3cret@github.com/acme/widgets.git"));
  ASSERT_TRUE(Git("widgets", "commit -q --allow-empty -m first"));
  GitRepos repos;
  const GitRepo* repo = repos.Resolve(root_ + "/widgets/src/net");
  ASSERT_NE(repo, nullptr);
  EXPECT_EQ(repo->root, root_ + "/widgets");
  EXPECT_EQ(repo->name, "widgets");
  // The credential never reaches the index.
  EXPECT_EQ(repo->remote, "https://github.com/acme/widgets.git");
  EXPECT_EQ(repo->branch, "main");
  EXPECT_EQ(repo->commit, Sha("widgets"));
  EXPECT_EQ(repos.Find(root_ + "/widgets/src/net"), repo);
  EXPECT_EQ(repos.Find(root_ + "/widgets/src"), repo);  // resolved on the way up
  EXPECT_EQ(repos.Resolve(root_ + "/widgets"), repo);
  // Outside any repository.
  fs::create_directories(root_ + "/notes");
  EXPECT_EQ(repos.Resolve(root_ + "/notes"), nullptr);
  EXPECT_EQ(repos.Find(root_ + "/never-resolved"), nullptr);
}

TEST_F(GitReposTest, PackedRefsDetachedHeadAndNoRemote) {
  fs::create_directories(root_ + "/tool");
  ASSERT_TRUE(Git("tool", "init -q"));
  ASSERT_TRUE(Git("tool", "commit -q --allow-empty -m one"));
  ASSERT_TRUE(Git("tool", "pack-refs --all"));
  ASSERT_FALSE(fs::exists(root_ + "/tool/.git/refs/heads/main"));
  {
    GitRepos repos;
    const GitRepo* repo = repos.Resolve(root_ + "/tool");
    ASSERT_NE(repo, nullptr);
    EXPECT_EQ(repo->name, "tool");  // no remote: the folder's name
    EXPECT_EQ(repo->remote, "");
    EXPECT_EQ(repo->branch, "main");
    EXPECT_EQ(repo->commit, Sha("tool"));
  }
  const std::string sha = Sha("tool");
  ASSERT_TRUE(Git("tool", "checkout -q --detach"));
  ASSERT_EQ(Head("tool"), sha);
  GitRepos repos;
  const GitRepo* repo = repos.Resolve(root_ + "/tool");
  ASSERT_NE(repo, nullptr);
  EXPECT_EQ(repo->branch, "");
  EXPECT_EQ(repo->commit, sha);
}

TEST_F(GitReposTest, LinkedWorktreeReadsItsOwnHeadAndTheSharedRemote) {
  fs::create_directories(root_ + "/main");
  ASSERT_TRUE(Git("main", "init -q"));
  ASSERT_TRUE(Git("main", "remote add upstream git@example.com:team/app.git"));
  ASSERT_TRUE(Git("main", "commit -q --allow-empty -m one"));
  ASSERT_TRUE(Git("main", "worktree add -q -b feature ../feature"));
  ASSERT_TRUE(fs::is_regular_file(root_ + "/feature/.git"));
  GitRepos repos;
  const GitRepo* repo = repos.Resolve(root_ + "/feature");
  ASSERT_NE(repo, nullptr);
  EXPECT_EQ(repo->root, root_ + "/feature");
  EXPECT_EQ(repo->name, "app");  // scp-style remote, not origin: the only one there is
  EXPECT_EQ(repo->remote, "git@example.com:team/app.git");
  EXPECT_EQ(repo->branch, "feature");
  EXPECT_EQ(repo->commit, Sha("main"));
}

TEST_F(GitReposTest, BrokenOrEmptyRepositoriesGiveWhatTheyCan) {
  // A `gitdir:` file pointing nowhere: a repository without branch or commit, never a crash.
  fs::create_directories(root_ + "/dangling");
  std::ofstream(root_ + "/dangling/.git") << "gitdir: ../nowhere/.git\n";
  // A fresh repository: a branch, no commit yet.
  fs::create_directories(root_ + "/fresh");
  ASSERT_TRUE(Git("fresh", "init -q"));
  // A `.git` file that says nothing useful is not a repository.
  fs::create_directories(root_ + "/junk/sub");
  std::ofstream(root_ + "/junk/.git") << "garbage\n";
  GitRepos repos;
  const GitRepo* dangling = repos.Resolve(root_ + "/dangling");
  ASSERT_NE(dangling, nullptr);
  EXPECT_EQ(dangling->name, "dangling");
  EXPECT_EQ(dangling->branch, "");
  EXPECT_EQ(dangling->commit, "");
  const GitRepo* fresh = repos.Resolve(root_ + "/fresh");
  ASSERT_NE(fresh, nullptr);
  EXPECT_EQ(fresh->branch, "main");
  EXPECT_EQ(fresh->commit, "");
  EXPECT_EQ(repos.Resolve(root_ + "/junk/sub"), nullptr);
}

}  // namespace
}  // namespace kebab::source
