#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "core/ids.h"
#include "search/search.h"

namespace kebab::search {
namespace {

namespace fs = std::filesystem;

class LexicalSearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kebab-search-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    auto s = store::Store::Open((dir_ / "k.sqlite").string(), {});
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    for (int i = 0; i < 25; ++i) Add("doc" + std::to_string(i) + ".md", "shared words here");
    Add("ko.md", "데이터베이스를 설계한다");
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  void Add(const std::string& path, const std::string& text,
           MediaKind media = MediaKind::kMarkdown) {
    store::DocumentWrite w;
    w.asset.asset_id = AssetId(path);
    w.asset.source_uri = "/ws/" + path;
    w.asset.workspace_path = path;
    w.asset.media = media;
    w.doc.asset_id = w.asset.asset_id;
    w.doc.workspace_path = path;
    w.doc.parser_version = "p";
    w.doc.doc_id = DocId(path, w.doc.asset_id, "p");
    Chunk c;
    c.doc_id = w.doc.doc_id;
    c.text = text;
    c.heading_path = {"Notes"};
    c.section_label = "§1 Notes";
    c.source_spans = {SourceSpan::Lines(3, 4)};
    c.chunker_version = "md-heading-v2";
    c.chunk_id = ChunkId(c.doc_id, "md-heading-v2", {}, path);
    w.chunks = {c};
    ASSERT_TRUE(store_->WriteDocument(w).ok());
  }

  fs::path dir_;
  std::unique_ptr<store::Store> store_;
};

TEST_F(LexicalSearchTest, HitsCarryCitationsAndNormalizedScores) {
  auto r = LexicalSearch(*store_, {.query = "데이터베이스", .k = 5});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->hits.size(), 1u);
  const SearchHit& h = r->hits[0];
  EXPECT_EQ(h.rank, 1);
  EXPECT_EQ(h.score_kind, "bm25");
  EXPECT_GT(h.score, 0);
  EXPECT_LT(h.score, 1);
  EXPECT_EQ(h.citation.ToUri(), "ko.md#L3-L4");
  EXPECT_EQ(h.citation.section, "§1 Notes");
  EXPECT_FALSE(r->next_cursor);
}

TEST_F(LexicalSearchTest, MediaFilterKeepsOnlyThatMediaKind) {
  Add("paper.pdf", "shared words in a paper", MediaKind::kPdf);
  SearchFilters pdf;
  pdf.media = {MediaKind::kPdf};
  auto only_pdf = LexicalSearch(*store_, {.query = "shared", .k = 50, .filters = pdf});
  ASSERT_TRUE(only_pdf.ok()) << only_pdf.status().ToString();
  ASSERT_EQ(only_pdf->hits.size(), 1u);
  EXPECT_EQ(only_pdf->hits[0].citation.path, "paper.pdf");

  SearchFilters either;
  either.media = {MediaKind::kMarkdown, MediaKind::kPdf};
  auto both = LexicalSearch(*store_, {.query = "shared", .k = 50, .filters = either});
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->hits.size(), 26u);

  SearchFilters images;
  images.media = {MediaKind::kImage};
  auto none = LexicalSearch(*store_, {.query = "shared", .k = 50, .filters = images});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->hits.empty());
}

TEST_F(LexicalSearchTest, CursorPagesThroughAllHitsThenGoesStale) {
  SearchRequest req{.query = "shared", .k = 10};
  std::set<std::string> seen;
  int pages = 0;
  while (true) {
    auto r = LexicalSearch(*store_, req);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    for (const auto& h : r->hits) seen.insert(h.chunk.chunk.chunk_id);
    ++pages;
    if (!r->next_cursor) break;
    req.cursor = r->next_cursor;
  }
  EXPECT_EQ(seen.size(), 25u);
  EXPECT_EQ(pages, 3);

  auto first = LexicalSearch(*store_, {.query = "shared", .k = 10});
  ASSERT_TRUE(first.ok() && first->next_cursor);
  ASSERT_TRUE(store_->BumpCorpusRevision().ok());
  auto stale = LexicalSearch(*store_, {.query = "shared", .k = 10, .cursor = first->next_cursor});
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.status().code(), ErrorCode::kStaleCursor);
}

TEST_F(LexicalSearchTest, CursorOfAnotherQueryIsRejected) {
  auto first = LexicalSearch(*store_, {.query = "shared", .k = 10});
  ASSERT_TRUE(first.ok() && first->next_cursor);
  auto other = LexicalSearch(*store_, {.query = "words", .k = 10, .cursor = first->next_cursor});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), ErrorCode::kInvalidInput);
}

TEST_F(LexicalSearchTest, MaxTokensTruncatesAndOffersCursor) {
  auto r = LexicalSearch(*store_, {.query = "shared", .k = 10, .max_tokens = 300});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->truncated);
  EXPECT_GE(r->hits.size(), 1u);
  EXPECT_LT(r->hits.size(), 10u);
  EXPECT_TRUE(r->next_cursor);
}

TEST_F(LexicalSearchTest, ZeroHitsIsAnEmptyResponseNotAnError) {
  auto r = LexicalSearch(*store_, {.query = "zzzqqq", .k = 10});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->hits.empty());
  ASSERT_TRUE(r->hint.has_value());
  EXPECT_NE(r->hint->find("other or fewer words"), std::string::npos);
  SearchFilters lang;
  lang.lang = "xx";
  auto filtered = LexicalSearch(*store_, {.query = "shared", .k = 10, .filters = lang});
  ASSERT_TRUE(filtered.ok());
  ASSERT_TRUE(filtered->hint.has_value());
  EXPECT_NE(filtered->hint->find("fewer filters"), std::string::npos);
}

std::vector<std::string> Paths(const SearchResponse& r) {
  std::vector<std::string> out;
  for (const SearchHit& h : r.hits) out.push_back(h.citation.path);
  return out;
}

TEST_F(LexicalSearchTest, KoreanQuestionFindsThePassageWithoutItsParticles) {
  Add("minutes.md", "회의록 작성 날짜");
  Add("meeting.md", "회의 일정");
  auto r = LexicalSearch(*store_, {.query = "회의록을 작성한 날짜는?", .k = 5});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // More of the question's material first: the minutes hold all three words, the meeting
  // note only the bigram 회의.
  EXPECT_EQ(Paths(*r), (std::vector<std::string>{"minutes.md", "meeting.md"}));
  // The other way round: a bare noun finds the word with its particle.
  auto bare = LexicalSearch(*store_, {.query = "데이터베이스 설계", .k = 5});
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(Paths(*bare), (std::vector<std::string>{"ko.md"}));
}

TEST_F(LexicalSearchTest, ChineseQuestionCreditsPartialMatches) {
  Add("zh-commit.md", "如何提交文件到仓库");
  Add("zh-files.md", "文件管理");
  auto r = LexicalSearch(*store_, {.query = "提交的文件", .k = 5});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Paths(*r), (std::vector<std::string>{"zh-commit.md", "zh-files.md"}));
}

TEST_F(LexicalSearchTest, JapaneseQuestionCreditsPartialMatches) {
  Add("ja-commit.md", "変更をコミットする");
  Add("ja-community.md", "コミュニティ");
  auto r = LexicalSearch(*store_, {.query = "コミットの変更", .k = 5});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Paths(*r), (std::vector<std::string>{"ja-commit.md", "ja-community.md"}));
}

TEST_F(LexicalSearchTest, ShortQueryFindsWordsItsLastWordBegins) {
  Add("k8s.md", "kubernetes cluster notes");
  Add("kube.md", "kube is short for it");
  auto r = LexicalSearch(*store_, {.query = "kube", .k = 5});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // The exact word first, then the words it begins.
  EXPECT_EQ(Paths(*r), (std::vector<std::string>{"kube.md", "k8s.md"}));
}

TEST_F(LexicalSearchTest, MixedScriptQuestionAndOperatorsInPlainText) {
  Add("sqlite.md", "SQLite 설정 방법");
  auto r = LexicalSearch(*store_, {.query = "SQLite를 설정하는 방법은?", .k = 5});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_FALSE(r->hits.empty());
  EXPECT_EQ(r->hits[0].citation.path, "sqlite.md");
  // FTS5 operators and column syntax typed as words are searched as words.
  auto ops = LexicalSearch(*store_, {.query = "shared AND NEAR(words) text:here*", .k = 3});
  ASSERT_TRUE(ops.ok()) << ops.status().ToString();
  EXPECT_EQ(ops->hits.size(), 3u);
}

}  // namespace
}  // namespace kebab::search
