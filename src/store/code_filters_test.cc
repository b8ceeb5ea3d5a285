// The code filters (language, repository, symbol glob) inside the store's queries, and the
// per-language and per-repository counts of Stats.
#include <gtest/gtest.h>

#include <algorithm>

#include "store/store.h"
#include "store/store_file_test.h"
#include "store/testing.h"

namespace kebab::store {
namespace {

class CodeFiltersTest : public StoreFileTest {
 protected:
  // A code document whose chunks are headed by `symbols`, each chunk's text "retry <symbol>".
  static DocumentWrite CodeDoc(const std::string& path, const std::string& lang,
                               const std::optional<std::string>& repo,
                               const std::vector<std::string>& symbols) {
    std::vector<std::string> texts;
    for (const std::string& s : symbols) texts.push_back("retry " + s);
    DocumentWrite w = MakeTestDocument(path, texts);
    w.asset.media = MediaKind::kCode;
    w.doc.metadata.code_lang = lang;
    w.doc.metadata.repo = repo;
    if (repo) w.doc.metadata.git_remote = "https://example.com/team/" + *repo + ".git";
    for (size_t i = 0; i < symbols.size(); ++i) w.chunks[i].heading_path = {symbols[i]};
    return w;
  }

  std::vector<std::string> Paths(Store& s, const SearchFilters& f) {
    auto rows = s.LexicalSearch({.match = "retry", .filters = f, .limit = 20});
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    std::vector<std::string> out;
    if (rows.ok()) {
      for (const LexicalRow& r : *rows)
        out.push_back(r.chunk.doc_path + "|" + r.chunk.chunk.heading_path.at(0));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  void SetUp() override {
    StoreFileTest::SetUp();
    store_ = Open();
    ASSERT_TRUE(store_);
    ASSERT_TRUE(store_
                    ->WriteDocument(CodeDoc("api/src/retry.rs", "rust", "api",
                                            {"retry::Backoff::next", "retry::run [part 2/3]"}))
                    .ok());
    ASSERT_TRUE(
        store_->WriteDocument(CodeDoc("api/tools/retry.py", "python", "api", {"tools.retry"}))
            .ok());
    ASSERT_TRUE(store_
                    ->WriteDocument(
                        CodeDoc("web/src/retry.ts", "typescript", "web", {"src/retry.Retrier.run"}))
                    .ok());
    ASSERT_TRUE(
        store_->WriteDocument(CodeDoc("scripts/retry.sh", "shell", std::nullopt, {"retry"})).ok());
    // Prose whose section heading looks like a symbol: never a code hit.
    DocumentWrite note = MakeTestDocument("notes/retry.md", {"retry notes"});
    note.chunks[0].heading_path = {"retry::run"};
    ASSERT_TRUE(store_->WriteDocument(note).ok());
  }

  std::unique_ptr<Store> store_;
};

TEST_F(CodeFiltersTest, LanguagesKeepOnlyTheirCode) {
  EXPECT_EQ(Paths(*store_, {.code_langs = {"rust", "shell"}}),
            (std::vector<std::string>{"api/src/retry.rs|retry::Backoff::next",
                                      "api/src/retry.rs|retry::run [part 2/3]",
                                      "scripts/retry.sh|retry"}));
  EXPECT_TRUE(Paths(*store_, {.code_langs = {"go"}}).empty());
}

TEST_F(CodeFiltersTest, ARepositoryIsNamedOrGivenByItsRemote) {
  const std::vector<std::string> web = {"web/src/retry.ts|src/retry.Retrier.run"};
  EXPECT_EQ(Paths(*store_, {.repos = {"web"}}), web);
  EXPECT_EQ(Paths(*store_, {.repos = {"https://example.com/team/web.git"}}), web);
  EXPECT_EQ(Paths(*store_, {.repos = {"api"}}).size(), 3u);
  EXPECT_TRUE(Paths(*store_, {.repos = {"team"}}).empty());
}

TEST_F(CodeFiltersTest, ASymbolGlobSeesTheSymbolWithoutItsPartAndNeverProse) {
  EXPECT_EQ(Paths(*store_, {.symbol_glob = "retry::run"}),
            (std::vector<std::string>{"api/src/retry.rs|retry::run [part 2/3]"}));
  EXPECT_EQ(Paths(*store_, {.symbol_glob = "*run"}),
            (std::vector<std::string>{"api/src/retry.rs|retry::run [part 2/3]",
                                      "web/src/retry.ts|src/retry.Retrier.run"}));
  EXPECT_EQ(Paths(*store_, {.symbol_glob = "retry"}),
            (std::vector<std::string>{"scripts/retry.sh|retry"}));
  // GLOB is case-sensitive, as symbols are.
  EXPECT_TRUE(Paths(*store_, {.symbol_glob = "*backoff*"}).empty());
}

TEST_F(CodeFiltersTest, FiltersCombineWithEachOther) {
  EXPECT_EQ(Paths(*store_, {.code_langs = {"rust", "typescript"}, .symbol_glob = "*.run"}),
            (std::vector<std::string>{"web/src/retry.ts|src/retry.Retrier.run"}));
}

TEST_F(CodeFiltersTest, StatsCountDocumentsAndChunksPerLanguageAndRepository) {
  auto stats = store_->Stats();
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->code_lang_breakdown,
            (std::map<std::string, int64_t>{
                {"python", 1}, {"rust", 1}, {"shell", 1}, {"typescript", 1}}));
  EXPECT_EQ(stats->code_lang_chunk_breakdown,
            (std::map<std::string, int64_t>{
                {"python", 1}, {"rust", 2}, {"shell", 1}, {"typescript", 1}}));
  EXPECT_EQ(stats->repo_breakdown, (std::map<std::string, int64_t>{{"api", 2}, {"web", 1}}));
  EXPECT_EQ(stats->repo_chunk_breakdown, (std::map<std::string, int64_t>{{"api", 3}, {"web", 1}}));
}

}  // namespace
}  // namespace kebab::store
