// The fixture of the store module's tests: a store file of the test's own, in a fresh
// directory named after the test and removed after it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "store/store.h"

namespace kebab::store {

class StoreFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("kebab-" + std::string(test->test_suite_name()) + "-" + std::to_string(::getpid()) +
            "-" + test->name());
    std::filesystem::remove_all(dir_);
    path_ = (dir_ / "kebab.sqlite").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<Store> Open(const std::string& stemmer = "english", bool readonly = false) {
    auto s = Store::Open(path_, {.readonly = readonly, .stemmer = stemmer});
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s).value() : nullptr;
  }

  // SQLite's integrity check and FTS5's both pass.
  static void ExpectIntact(Store& s) {
    auto ic = s.IntegrityCheck();
    ASSERT_TRUE(ic.ok());
    EXPECT_EQ(*ic, "ok");
    auto fts = s.FullTextIntegrityCheck();
    ASSERT_TRUE(fts.ok());
    EXPECT_EQ(*fts, "ok");
  }

  std::filesystem::path dir_;
  std::string path_;
};

}  // namespace kebab::store
