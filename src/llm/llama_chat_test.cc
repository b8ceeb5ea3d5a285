#include "llm/llama_chat.h"

#include <gtest/gtest.h>
#include <llama.h>

#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/unicode.h"
#include "llm/testing_chat.h"

namespace kebab::llm {
namespace {

using testing_chat::Concat;

const std::string kModels = KEBAB_TINY_MODEL_DIR;
// Random weights around Qwen2's tokenizer and ChatML template: 2 layers, 512-token context.
const std::string kQwen = kModels + "/qwen2-tiny.gguf";

std::unique_ptr<LlamaChat> OpenChat(int context_tokens = 8192) {
  LlamaChatOptions options;
  options.model_path = kQwen;
  options.context_tokens = context_tokens;
  options.threads = 1;  // ctest runs tests side by side
  auto chat = LlamaChat::Open(options);
  EXPECT_TRUE(chat.ok()) << chat.status().ToString();
  return chat.ok() ? std::move(chat).value() : nullptr;
}

GenerateRequest Request(int max_tokens, double temperature = 0.0) {
  GenerateRequest r;
  r.system = "You answer questions about the user's notes.";
  r.user = "What does the index store?";
  r.max_tokens = max_tokens;
  r.temperature = temperature;
  return r;
}

// A generation with every piece the sink saw.
struct Streamed {
  Generation gen;
  std::vector<std::string> pieces;
};

Streamed Generate(LanguageModel& model, const GenerateRequest& request) {
  Streamed run;
  auto gen = model.Generate(request, [&](std::string_view piece) {
    run.pieces.emplace_back(piece);
    return true;
  });
  EXPECT_TRUE(gen.ok()) << gen.status().ToString();
  if (gen.ok()) run.gen = std::move(gen).value();
  return run;
}

TEST(LlamaChatTest, OpensWithTheFilesStemAndTheTrainedContextAsCap) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  EXPECT_EQ(chat->model_ref().id, "qwen2-tiny");
  EXPECT_EQ(chat->model_ref().provider, "llama");
  EXPECT_EQ(chat->context_tokens(), 512);  // asked for 8192; the model was made for 512
  auto small = OpenChat(100);
  ASSERT_TRUE(small);
  EXPECT_EQ(small->context_tokens(), 100);
}

TEST(LlamaChatTest, PiecesStreamAndAddUpToTheText) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  Streamed run = Generate(*chat, Request(24));
  EXPECT_GT(run.pieces.size(), 1u);
  for (const std::string& p : run.pieces) EXPECT_FALSE(p.empty());
  EXPECT_EQ(Concat(run.pieces), run.gen.text);
  EXPECT_FALSE(run.gen.text.empty());
  EXPECT_GT(run.gen.usage.prompt_tokens, 10);
}

TEST(LlamaChatTest, MaxTokensEndsWithLength) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  Streamed run = Generate(*chat, Request(7));
  EXPECT_EQ(run.gen.usage.completion_tokens, 7);
  EXPECT_EQ(run.gen.finish, FinishReason::kLength);
}

TEST(LlamaChatTest, AFullContextEndsWithLength) {
  auto chat = OpenChat(64);
  ASSERT_TRUE(chat);
  Streamed run = Generate(*chat, Request(/*max_tokens=*/0));  // 0: as many as the context holds
  EXPECT_EQ(run.gen.finish, FinishReason::kLength);
  EXPECT_EQ(run.gen.usage.prompt_tokens + run.gen.usage.completion_tokens, 64);
}

TEST(LlamaChatTest, GreedyRunsAreIdentical) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  Streamed a = Generate(*chat, Request(32));
  Streamed b = Generate(*chat, Request(32));
  EXPECT_EQ(a.gen.text, b.gen.text);
  EXPECT_EQ(a.pieces, b.pieces);
  auto other = OpenChat();
  ASSERT_TRUE(other);
  EXPECT_EQ(Generate(*other, Request(32)).gen.text, a.gen.text);
}

TEST(LlamaChatTest, SampledRunsRepeatPerSeed) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  GenerateRequest r = Request(32, /*temperature=*/0.9);
  r.top_p = 0.95;
  r.seed = 7;
  const std::string first = Generate(*chat, r).gen.text;
  EXPECT_EQ(Generate(*chat, r).gen.text, first);
  r.seed = 8;
  EXPECT_NE(Generate(*chat, r).gen.text, first);
  // No seed: a fixed default, not a random one.
  r.seed.reset();
  const std::string unseeded = Generate(*chat, r).gen.text;
  EXPECT_EQ(Generate(*chat, r).gen.text, unseeded);
  // And sampling differs from greedy.
  EXPECT_NE(Generate(*chat, Request(32)).gen.text, first);
}

// Three printable ASCII bytes from the second half of `text`, to use as a stop string.
std::string MiddleStop(const std::string& text) {
  for (size_t i = text.size() / 2; i + 3 <= text.size(); ++i) {
    bool printable = true;
    for (size_t k = 0; k < 3; ++k) {
      printable = printable && std::isprint(static_cast<unsigned char>(text[i + k]));
    }
    if (printable) return text.substr(i, 3);
  }
  return {};
}

TEST(LlamaChatTest, AStopStringEndsTheTextBeforeIt) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  Streamed free_run = Generate(*chat, Request(48));
  const std::string stop = MiddleStop(free_run.gen.text);
  ASSERT_FALSE(stop.empty()) << free_run.gen.text;
  const size_t at = free_run.gen.text.find(stop);
  ASSERT_GT(at, 0u);

  GenerateRequest r = Request(48);
  r.stop = {"a stop string that never comes", stop};
  Streamed run = Generate(*chat, r);
  EXPECT_EQ(run.gen.finish, FinishReason::kStop);
  EXPECT_EQ(run.gen.text, free_run.gen.text.substr(0, at));
  EXPECT_EQ(Concat(run.pieces), run.gen.text);
  EXPECT_LT(run.gen.usage.completion_tokens, 48);
}

TEST(LlamaChatTest, ASinkReturningFalseAbortsWithTheTextSoFar) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  auto gen = chat->Generate(Request(64), [&](std::string_view piece) {
    pieces.emplace_back(piece);
    return pieces.size() < 3;
  });
  ASSERT_TRUE(gen.ok()) << gen.status().ToString();
  EXPECT_EQ(gen->finish, FinishReason::kAborted);
  EXPECT_EQ(pieces.size(), 3u);
  EXPECT_EQ(gen->text, Concat(pieces));
  EXPECT_LT(gen->usage.completion_tokens, 64);
}

TEST(LlamaChatTest, ACancelFlagStopsEvenThePromptsEvaluation) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  std::atomic<bool> cancel{true};
  GenerateRequest r = Request(64);
  r.cancel = &cancel;
  int pieces = 0;
  auto gen = chat->Generate(r, [&](std::string_view) { return ++pieces > 0; });
  ASSERT_TRUE(gen.ok()) << gen.status().ToString();
  EXPECT_EQ(gen->finish, FinishReason::kAborted);
  EXPECT_EQ(pieces, 0) << "llama.cpp's abort callback stopped the prompt's evaluation";
  EXPECT_TRUE(gen->text.empty());

  // Set mid-generation (here from the sink, as a signal handler would between pieces).
  cancel = false;
  auto partial = chat->Generate(r, [&](std::string_view) {
    cancel = true;
    return true;
  });
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->finish, FinishReason::kAborted);
  EXPECT_FALSE(partial->text.empty());
  EXPECT_LT(partial->usage.completion_tokens, 64);

  // The model still works afterwards.
  cancel = false;
  EXPECT_EQ(Generate(*chat, Request(4)).gen.usage.completion_tokens, 4);
}

TEST(LlamaChatTest, APromptLongerThanTheContextIsInvalidInput) {
  auto chat = OpenChat(64);
  ASSERT_TRUE(chat);
  GenerateRequest r = Request(8);
  for (int i = 0; i < 40; ++i) r.user += " the index stores chunks";
  auto gen = chat->Generate(r, [](std::string_view) { return true; });
  ASSERT_FALSE(gen.ok());
  EXPECT_EQ(gen.status().code(), ErrorCode::kInvalidInput);
  EXPECT_NE(gen.status().message().find("context is 64"), std::string::npos)
      << gen.status().message();
  // The model still works afterwards.
  EXPECT_EQ(Generate(*chat, Request(4)).gen.usage.completion_tokens, 4);
}

TEST(LlamaChatTest, KoreanPromptsGiveValidUtf8AtEveryPiece) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  GenerateRequest r = Request(48, /*temperature=*/1.0);
  r.system = "당신은 사용자의 노트에 대해 답합니다.";
  r.user = "색인은 무엇을 저장하나요? 한국어로 답하세요.";
  // Random weights make random tokens, so byte-level pieces that split characters come up;
  // several seeds make that near certain.
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    r.seed = seed;
    std::string so_far;
    auto gen = chat->Generate(r, [&](std::string_view piece) {
      so_far += piece;
      EXPECT_TRUE(IsValidUtf8(so_far)) << "seed " << seed;
      return true;
    });
    ASSERT_TRUE(gen.ok()) << gen.status().ToString();
    EXPECT_EQ(gen->text, so_far);
    EXPECT_TRUE(IsValidUtf8(gen->text));
  }
}

TEST(LlamaChatTest, ChatMarkupInAMessageIsPlainText) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  GenerateRequest plain = Request(1);
  plain.user = "ab";
  GenerateRequest marked = Request(1);
  marked.user = "a<|im_end|>b";
  const int base = Generate(*chat, plain).gen.usage.prompt_tokens;
  // As the control token it would add one token; as text it adds its pieces.
  EXPECT_GE(Generate(*chat, marked).gen.usage.prompt_tokens, base + 3);
}

TEST(LlamaChatTest, CountTokensMatchesTheModelsTokenizer) {
  auto chat = OpenChat();
  ASSERT_TRUE(chat);
  llama_model_params params = llama_model_default_params();
  params.vocab_only = true;
  llama_model* vocab_model = llama_model_load_from_file(kQwen.c_str(), params);
  ASSERT_NE(vocab_model, nullptr);
  const llama_vocab* vocab = llama_model_get_vocab(vocab_model);
  for (const std::string text : {"", "hello world", "색인은 무엇을 저장하나요?",
                                 "<|im_end|> is text here", "  spaced\n\nlines\t"}) {
    std::vector<llama_token> tokens(text.size() + 8);
    const int n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()),
                                 tokens.data(), static_cast<int32_t>(tokens.size()), false, false);
    EXPECT_EQ(chat->CountTokens(text), n) << text;
  }
  llama_model_free(vocab_model);
  EXPECT_EQ(chat->CountTokens("hello world"), 2);  // "hello", " world"
}

TEST(LlamaChatTest, AMissingFileIsModelNotPulled) {
  LlamaChatOptions options;
  options.model_path = kModels + "/no-such-model.gguf";
  auto chat = LlamaChat::Open(options);
  ASSERT_FALSE(chat.ok());
  EXPECT_EQ(chat.status().code(), ErrorCode::kModelNotPulled);
}

TEST(LlamaChatTest, AFileThatIsNotAModelIsInvalidInput) {
  const std::string path = ::testing::TempDir() + "/llama_chat_test_garbage.gguf";
  std::ofstream(path) << "not a gguf file at all";
  LlamaChatOptions options;
  options.model_path = path;
  auto chat = LlamaChat::Open(options);
  ASSERT_FALSE(chat.ok());
  EXPECT_EQ(chat.status().code(), ErrorCode::kInvalidInput);
  EXPECT_NE(chat.status().message().find(path), std::string::npos);
  std::filesystem::remove(path);
}

TEST(LlamaChatTest, AnEmbeddingModelIsInvalidInput) {
  LlamaChatOptions options;
  options.model_path = kModels + "/bge-tiny.gguf";
  auto chat = LlamaChat::Open(options);
  ASSERT_FALSE(chat.ok());
  EXPECT_EQ(chat.status().code(), ErrorCode::kInvalidInput);
  EXPECT_NE(chat.status().message().find("embedding model"), std::string::npos);
}

TEST(OpenLlamaChatTest, TakesContextAndIdFromTheConfig) {
  config::LlmConfig llm;
  llm.provider = "llama";
  llm.model = "qwen2-tiny";
  llm.context_tokens = 256;
  llm.threads = 1;
  auto model = OpenLlamaChat(llm, kQwen);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ((*model)->model_ref().id, "qwen2-tiny");
  EXPECT_EQ((*model)->context_tokens(), 256);
  EXPECT_TRUE((*model)->CountTokens("hello world").has_value());

  llm.model = kQwen;  // a path: the file's stem names it
  auto by_path = OpenLlamaChat(llm, kQwen);
  ASSERT_TRUE(by_path.ok());
  EXPECT_EQ((*by_path)->model_ref().id, "qwen2-tiny");
}

}  // namespace
}  // namespace kebab::llm
