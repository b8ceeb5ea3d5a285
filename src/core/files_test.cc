#include "core/files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kebab {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(FilesTest, WritesThenReplacesWholeAndLeavesNoTempFile) {
  const fs::path dir = fs::path(testing::TempDir()) / "kebab_files_test";
  fs::remove_all(dir);
  const fs::path file = dir / "sub" / "a.txt";
  ASSERT_TRUE(WriteFileAtomically(file.string(), "first").ok());
  EXPECT_EQ(Read(file), "first");
  ASSERT_TRUE(WriteFileAtomically(file.string(), std::string("sec\0nd", 6)).ok());
  EXPECT_EQ(Read(file), std::string("sec\0nd", 6));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(file.parent_path())) ++entries;
  EXPECT_EQ(entries, 1);
  fs::remove_all(dir);
}

TEST(FilesTest, AParentThatIsAFileIsAnIoError) {
  const fs::path dir = fs::path(testing::TempDir()) / "kebab_files_test_blocked";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "plain") << "x";
  const Status st = WriteFileAtomically((dir / "plain" / "a.txt").string(), "y");
  EXPECT_EQ(st.code(), ErrorCode::kIoError);
  EXPECT_NE(st.message().find("plain"), std::string::npos) << st.message();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kebab
