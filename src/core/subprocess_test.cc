#include "core/subprocess.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace kebab {
namespace {

using std::chrono::milliseconds;

std::vector<std::string> Lines(const std::vector<std::string>& argv, std::string_view input,
                               SubprocessResult* result,
                               milliseconds timeout = milliseconds(10000)) {
  std::vector<std::string> lines;
  Result<SubprocessResult> r = RunSubprocess(argv, input, timeout, [&](std::string_view line) {
    lines.emplace_back(line);
    return true;
  });
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (r.ok()) *result = *r;
  return lines;
}

TEST(SubprocessTest, InputGoesInAndLinesComeOutInOrder) {
  SubprocessResult result;
  // More input than a pipe holds, so writing and reading must interleave.
  std::string input;
  for (int i = 0; i < 20000; ++i) input += "line " + std::to_string(i) + "\n";
  const std::vector<std::string> lines = Lines({"/bin/cat"}, input, &result);
  ASSERT_EQ(lines.size(), 20000u);
  EXPECT_EQ(lines.front(), "line 0");
  EXPECT_EQ(lines.back(), "line 19999");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_FALSE(result.timed_out);
}

TEST(SubprocessTest, ALastLineWithoutNewlineAndStderrAreKept) {
  SubprocessResult result;
  const std::vector<std::string> lines =
      Lines({"/bin/sh", "-c", "printf 'a\\nb'; echo oops >&2; exit 3"}, "", &result);
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.stderr_tail, "oops\n");
}

TEST(SubprocessTest, PastTheDeadlineTheChildIsKilled) {
  SubprocessResult result;
  const auto started = std::chrono::steady_clock::now();
  Lines({"/bin/sh", "-c", "echo started; exec sleep 30"}, "", &result, milliseconds(300));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.signal, SIGKILL);
}

TEST(SubprocessTest, ACrashIsItsSignalAndAChildThatStopsReadingIsNoSigpipe) {
  SubprocessResult result;
  Lines({"/bin/sh", "-c", "kill -SEGV $$"}, "", &result);
  EXPECT_EQ(result.signal, SIGSEGV);
  // The child exits without reading 8 MB of input: the write fails with EPIPE, not SIGPIPE.
  Lines({"/bin/true"}, std::string(8 << 20, 'x'), &result);
  EXPECT_EQ(result.exit_code, 0);
}

TEST(SubprocessTest, OnLineCanStopTheChild) {
  int seen = 0;
  Result<SubprocessResult> r =
      RunSubprocess({"/bin/sh", "-c", "while true; do echo y; done"}, "", milliseconds(10000),
                    [&](std::string_view) { return ++seen < 5; });
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->stopped);
  EXPECT_EQ(seen, 5);
}

TEST(SubprocessTest, AMissingProgramIsAnIoError) {
  Result<SubprocessResult> r = RunSubprocess({"/no/such/program"}, "", milliseconds(1000),
                                             [](std::string_view) { return true; });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kIoError);
  EXPECT_NE(r.status().message().find("/no/such/program"), std::string::npos);
}

TEST(SubprocessTest, HelpersAreFoundInTheInstalledLayoutThenBesideTheExecutable) {
  namespace fs = std::filesystem;
  const fs::path prefix = fs::path(testing::TempDir()) / "kebab_subprocess_test_prefix";
  fs::remove_all(prefix);
  fs::create_directories(prefix / "bin");
  const std::string bin = (prefix / "bin").string();
  // The build tree: no libexec/kebab above, so the helper is beside kebab.
  EXPECT_EQ(FindHelper(bin, "kebab-pdf"), (prefix / "bin" / "kebab-pdf").string());
  // Installed: <prefix>/bin/kebab finds <prefix>/libexec/kebab/kebab-pdf.
  fs::create_directories(prefix / "libexec" / "kebab");
  std::ofstream(prefix / "libexec" / "kebab" / "kebab-pdf") << "#!/bin/sh\n";
  EXPECT_EQ(FindHelper(bin, "kebab-pdf"), (prefix / "libexec" / "kebab" / "kebab-pdf").string());
  // Only the helpers that are there: the others are still looked for beside kebab.
  EXPECT_EQ(FindHelper(bin, "kebab-ocr"), (prefix / "bin" / "kebab-ocr").string());
  fs::remove_all(prefix);
}

TEST(SubprocessTest, AHelperNamedByItsVariableIsThatPath) {
  ::setenv("KEBAB_SUBPROCESS_TEST_WORKER", "/opt/elsewhere/kebab-pdf", 1);
  EXPECT_EQ(HelperPath("KEBAB_SUBPROCESS_TEST_WORKER", "kebab-pdf"), "/opt/elsewhere/kebab-pdf");
  // Empty counts as unset.
  ::setenv("KEBAB_SUBPROCESS_TEST_WORKER", "", 1);
  EXPECT_EQ(HelperPath("KEBAB_SUBPROCESS_TEST_WORKER", "kebab-pdf"),
            FindHelper(ExecutableDir(), "kebab-pdf"));
  ::unsetenv("KEBAB_SUBPROCESS_TEST_WORKER");
}

}  // namespace
}  // namespace kebab
