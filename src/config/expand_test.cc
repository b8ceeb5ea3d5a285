#include "config/expand.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "config/config.h"

namespace kebab::config {
namespace {

using internal::ExpandPathChecked;

const Environment kHome = {{"HOME", "/home/u"}};

TEST(ExpandPathTest, TildeAndHome) {
  EXPECT_EQ(ExpandPath("~", kHome, "/base"), "/home/u");
  EXPECT_EQ(ExpandPath("~/notes", kHome, "/base"), "/home/u/notes");
  EXPECT_EQ(ExpandPath("$HOME/notes", kHome, "/base"), "/home/u/notes");
  EXPECT_EQ(ExpandPath("${HOME}/notes", kHome, "/base"), "/home/u/notes");
  // Only a leading "~" means home; "~user" and an inner "~" are ordinary characters.
  EXPECT_EQ(ExpandPath("~user/x", kHome, "/base"), "/base/~user/x");
  EXPECT_EQ(ExpandPath("/a/~/b", kHome, "/base"), "/a/~/b");
}

TEST(ExpandPathTest, VariablesAndFallbacks) {
  const std::string tmpl = "${XDG_DATA_HOME:-~/.local/share}/kebab";
  EXPECT_EQ(ExpandPath(tmpl, kHome, "/"), "/home/u/.local/share/kebab");

  Environment env = kHome;
  env["XDG_DATA_HOME"] = "/xdg/data";
  EXPECT_EQ(ExpandPath(tmpl, env, "/"), "/xdg/data/kebab");

  env["XDG_DATA_HOME"] = "";
  EXPECT_EQ(ExpandPath(tmpl, env, "/"), "/home/u/.local/share/kebab");

  // The XDG spec says relative XDG_* values are invalid and must be ignored.
  env["XDG_DATA_HOME"] = "relative/data";
  EXPECT_EQ(ExpandPath(tmpl, env, "/"), "/home/u/.local/share/kebab");

  env["KB"] = "/kb";
  EXPECT_EQ(ExpandPath("$KB/notes", env, "/"), "/kb/notes");
  EXPECT_EQ(ExpandPath("${NOPE:-${KB:-/other}}/x", env, "/"), "/kb/x");
  EXPECT_EQ(ExpandPath("${NOPE:-${ALSO_NOPE:-/other}}/x", env, "/"), "/other/x");
  EXPECT_EQ(ExpandPath("/x/${NOPE}/y", env, "/"), "/x/y");
}

TEST(ExpandPathTest, DollarWithoutNameIsLiteral) {
  EXPECT_EQ(ExpandPath("/a$/b", kHome, "/"), "/a$/b");
  EXPECT_EQ(ExpandPath("/a/$1", kHome, "/"), "/a/$1");
}

TEST(ExpandPathTest, DataDirToken) {
  EXPECT_EQ(ExpandPath("{data_dir}/kebab.sqlite", kHome, "/", "/d"), "/d/kebab.sqlite");
  // Without a data_dir the token cannot be expanded and stays as written.
  EXPECT_EQ(ExpandPath("/x/{data_dir}", kHome, "/"), "/x/{data_dir}");
}

TEST(ExpandPathTest, RelativeResolvedAndNormalized) {
  EXPECT_EQ(ExpandPath("notes", kHome, "/cfg"), "/cfg/notes");
  EXPECT_EQ(ExpandPath("../notes", kHome, "/cfg/kebab"), "/cfg/notes");
  EXPECT_EQ(ExpandPath("./a/./b/../c/", kHome, "/cfg"), "/cfg/a/c");
  EXPECT_EQ(ExpandPath("/a//b/", kHome, "/cfg"), "/a/b");
  EXPECT_EQ(ExpandPath("/../..", kHome, "/cfg"), "/");
  EXPECT_EQ(ExpandPath("rel", kHome, ""), (std::filesystem::current_path() / "rel").string());
}

TEST(ExpandPathTest, DefaultConfigPath) {
  EXPECT_EQ(DefaultConfigPath(kHome), "/home/u/.config/kebab/config.toml");
  Environment env = kHome;
  env["XDG_CONFIG_HOME"] = "/etc/xdg-user";
  EXPECT_EQ(DefaultConfigPath(env), "/etc/xdg-user/kebab/config.toml");
}

TEST(ExpandPathCheckedTest, AcceptsWhatExpandPathAccepts) {
  Result<std::string> r = ExpandPathChecked("{data_dir}/x", kHome, "/", "/d");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "/d/x");
}

TEST(ExpandPathCheckedTest, ReportsWhatExpandPathGuesses) {
  auto error_of = [](std::string_view value, const Environment& env,
                     std::optional<std::string_view> data_dir = std::nullopt) {
    Result<std::string> r = ExpandPathChecked(value, env, "/base", data_dir);
    EXPECT_FALSE(r.ok()) << value;
    EXPECT_EQ(r.status().code(), ErrorCode::kConfigInvalid);
    return r.status().message();
  };
  EXPECT_NE(error_of("~/x", {}).find("HOME is not set"), std::string::npos);
  EXPECT_NE(error_of("$HOME/x", {{"HOME", ""}}).find("HOME is not set"), std::string::npos);
  EXPECT_NE(error_of("~/x", {{"HOME", "rel"}}).find("not an absolute path"), std::string::npos);
  EXPECT_NE(error_of("${A/x", kHome).find("unterminated"), std::string::npos);
  EXPECT_NE(error_of("${A:=x}", kHome).find("unsupported"), std::string::npos);
  EXPECT_NE(error_of("${}", kHome).find("unsupported"), std::string::npos);
  EXPECT_NE(error_of("{data_dir}/x", kHome).find("{data_dir}"), std::string::npos);
  EXPECT_NE(error_of("${NOPE}", kHome).find("empty path"), std::string::npos);
}

TEST(ExpandPathCheckedTest, HomeFallbackNeedsNoHome) {
  Result<std::string> r = ExpandPathChecked("${HOME:-/nohome}/x", {}, "/", std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "/nohome/x");
}

}  // namespace
}  // namespace kebab::config
