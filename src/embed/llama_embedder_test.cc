#include "embed/llama_embedder.h"

#include <gtest/gtest.h>
#include <llama.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace kebab::embed {
namespace {

const std::string kModels = KEBAB_TINY_MODEL_DIR;
const std::string kBert = kModels + "/bge-tiny.gguf";              // WordPiece, CLS pooling
const std::string kXlmr = kModels + "/multilingual-e5-tiny.gguf";  // SentencePiece, mean

std::unique_ptr<LlamaEmbedder> OpenModel(const std::string& path,
                                         LlamaEmbedderOptions options = {}) {
  options.model_path = path;
  options.threads = 2;
  auto e = LlamaEmbedder::Open(options);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? std::move(e).value() : nullptr;
}

std::vector<Vector> EmbedAll(LlamaEmbedder& e, const std::vector<std::string>& texts,
                             Purpose purpose = Purpose::kDocument) {
  auto v = e.Embed(texts, purpose);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? std::move(v).value() : std::vector<Vector>{};
}

double Norm(const Vector& v) {
  double s = 0;
  for (float x : v) s += static_cast<double>(x) * x;
  return std::sqrt(s);
}

double MaxDiff(const Vector& a, const Vector& b) {
  double d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    d = std::max(d, double(std::fabs(a[i] - b[i])));
  return d;
}

class LlamaEmbedderTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LlamaEmbedderTest, VectorsHaveTheModelsDimensionsAndUnitLength) {
  auto e = OpenModel(GetParam());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->space().dimensions, 64);
  EXPECT_EQ(e->space().provider, "llama");
  auto v = EmbedAll(*e, {"hello world", "a second, longer sentence about databases"});
  ASSERT_EQ(v.size(), 2u);
  for (const Vector& x : v) {
    ASSERT_EQ(x.size(), 64u);
    EXPECT_NEAR(Norm(x), 1.0, 1e-5);
  }
  EXPECT_GT(MaxDiff(v[0], v[1]), 1e-3) << "different texts, different vectors";
}

TEST_P(LlamaEmbedderTest, SameInputSameVectorAcrossCallsAndInstances) {
  auto a = OpenModel(GetParam());
  auto b = OpenModel(GetParam());
  ASSERT_TRUE(a && b);
  const std::vector<std::string> texts = {"determinism matters", "데이터베이스는 빠르다"};
  auto first = EmbedAll(*a, texts);
  auto again = EmbedAll(*a, texts);
  auto other = EmbedAll(*b, texts);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first, again);
  EXPECT_EQ(first, other);
}

TEST_P(LlamaEmbedderTest, FewerThreadsGiveTheSameVectors) {
  auto e = OpenModel(GetParam());
  ASSERT_TRUE(e);
  // Over 64 tokens in the batch, so it computes on every configured thread (shorter ones, such
  // as queries, always compute on one).
  std::string long_text;
  for (int i = 0; i < 12; ++i) long_text += "threads change the speed of a batch, ";
  const std::vector<std::string> texts = {long_text, "not the vectors"};
  auto two = EmbedAll(*e, texts);
  e->LimitThreads(1);
  auto one = EmbedAll(*e, texts);
  e->LimitThreads(0);
  auto restored = EmbedAll(*e, texts);
  ASSERT_EQ(one.size(), 2u);
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_LT(MaxDiff(two[i], one[i]), 1e-5) << texts[i];
  EXPECT_EQ(two, restored);
}

TEST_P(LlamaEmbedderTest, ABatchEmbedsLikeOneTextAtATime) {
  auto e = OpenModel(GetParam());
  ASSERT_TRUE(e);
  const std::vector<std::string> texts = {"short", "a somewhat longer text with more tokens in it",
                                          "세 번째 문장", "fourth"};
  auto batched = EmbedAll(*e, texts);
  ASSERT_EQ(batched.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    auto single = EmbedAll(*e, {texts[i]});
    ASSERT_EQ(single.size(), 1u);
    EXPECT_LT(MaxDiff(batched[i], single[0]), 1e-4) << texts[i];
  }
}

TEST_P(LlamaEmbedderTest, LongInputsAreCutToTheContextAndCounted) {
  auto e = OpenModel(GetParam());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->max_tokens(), 128);
  std::string long_text;
  for (int i = 0; i < 400; ++i) long_text += "word" + std::to_string(i) + " ";
  int truncated = 0;
  auto v = e->Embed({long_text, "short"}, Purpose::kDocument, &truncated);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->size(), 2u);
  EXPECT_EQ(truncated, 1);
}

INSTANTIATE_TEST_SUITE_P(TinyModels, LlamaEmbedderTest, ::testing::Values(kBert, kXlmr),
                         [](const auto& info) {
                           return info.param == kBert ? std::string("BertWordPiece")
                                                      : std::string("XlmrSentencePiece");
                         });

TEST(LlamaEmbedderPrefixTest, E5ModelsPrefixQueriesAndPassagesDifferently) {
  auto e = OpenModel(kXlmr);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->prefixes().query, "query: ");
  EXPECT_EQ(e->prefixes().document, "passage: ");
  auto q = EmbedAll(*e, {"how to index files"}, Purpose::kQuery);
  auto d = EmbedAll(*e, {"how to index files"}, Purpose::kDocument);
  ASSERT_EQ(q.size(), 1u);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_GT(MaxDiff(q[0], d[0]), 1e-3);
  // The prefix is literally prepended: without configured prefixes, embedding the prefixed
  // text gives the same vector.
  auto bare = OpenModel(kXlmr, {.query_prefix = "", .document_prefix = ""});
  ASSERT_TRUE(bare);
  EXPECT_EQ(q, EmbedAll(*bare, {"query: how to index files"}, Purpose::kQuery));
}

TEST(LlamaEmbedderPrefixTest, BgeHasNoPrefixesUnlessConfigured) {
  auto e = OpenModel(kBert);
  ASSERT_TRUE(e);
  EXPECT_EQ(EmbedAll(*e, {"same text"}, Purpose::kQuery),
            EmbedAll(*e, {"same text"}, Purpose::kDocument));
  auto custom = OpenModel(kBert, {.query_prefix = "Represent this sentence: "});
  ASSERT_TRUE(custom);
  EXPECT_NE(EmbedAll(*custom, {"same text"}, Purpose::kQuery),
            EmbedAll(*custom, {"same text"}, Purpose::kDocument));
}

TEST(LlamaEmbedderTokenizerTest, XlmrVocabularyCoversKorean) {
  auto e = OpenModel(kXlmr);
  ASSERT_TRUE(e);
  auto tokens = e->Tokenize("데이터베이스는 빠르다");
  ASSERT_GT(tokens.size(), 3u);
  // Between <s> and </s>, the pieces spell the text back: nothing fell to <unk>.
  std::string spelled;
  for (size_t i = 1; i + 1 < tokens.size(); ++i) spelled += e->TokenPiece(tokens[i]);
  EXPECT_EQ(spelled, "\u2581데이터베이스는\u2581빠르다");
}

TEST(LlamaEmbedderErrorsTest, MissingFileIsModelNotPulled) {
  auto e = LlamaEmbedder::Open({.model_path = "/nonexistent/model.gguf"});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), ErrorCode::kModelNotPulled);
  EXPECT_NE(e.status().hint().find("kebab models pull"), std::string::npos);
}

TEST(LlamaEmbedderErrorsTest, AFileThatIsNotGgufIsInvalidInput) {
  const std::string path = ::testing::TempDir() + "/not-a-model.gguf";
  std::ofstream(path) << "this is not a GGUF file";
  auto e = LlamaEmbedder::Open({.model_path = path});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), ErrorCode::kInvalidInput);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace kebab::embed
