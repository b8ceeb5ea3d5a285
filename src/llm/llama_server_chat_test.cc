// The openai provider against a real llama-server running the tiny random-weight Qwen2 model.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "llm/openai_chat.h"
#include "llm/testing_chat.h"
#include "tests/support/test_server.h"

namespace kebab::llm {
namespace {

using testing::ChildProcess;
using testing::FreePort;
using testing_chat::Ask;
using testing_chat::Concat;
using testing_chat::Generate;

const std::string kLlamaServer = KEBAB_LLAMA_SERVER;
const std::string kChatModel = std::string(KEBAB_TINY_MODEL_DIR) + "/qwen2-tiny.gguf";

class LlamaServerChatTest : public ::testing::Test {
 protected:
  static constexpr const char* kApiKey = "kebab-test-key";
  static constexpr const char* kAlias = "qwen2-tiny";

  static void SetUpTestSuite() {
    const int port = FreePort();
    ASSERT_GT(port, 0);
    std::string error;
    // One slot, so every request sees the same server state.
    server_ =
        testing::StartHttpServer(
            {kLlamaServer, "-m", kChatModel, "--alias", kAlias, "--host", "127.0.0.1", "--port",
             std::to_string(port), "-t", "2", "-np", "1", "--no-webui", "--api-key", kApiKey},
            port, "/health", ::testing::TempDir() + "llama_server_chat.log", 30000, &error)
            .release();
    ASSERT_NE(server_, nullptr) << error;
    endpoint_ = "http://127.0.0.1:" + std::to_string(port);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static HttpChatOptions Options() {
    HttpChatOptions options;
    options.endpoint = endpoint_;
    options.model = kAlias;
    options.context_tokens = 512;
    options.timeout_secs = 20;
    options.api_key = kApiKey;
    return options;
  }

  static std::unique_ptr<OpenAiChat> Open(const HttpChatOptions& options = Options()) {
    auto chat = OpenAiChat::Open(options);
    EXPECT_TRUE(chat.ok()) << chat.status().ToString();
    return chat.ok() ? std::move(chat).value() : nullptr;
  }

  static ChildProcess* server_;
  static std::string endpoint_;
};
ChildProcess* LlamaServerChatTest::server_ = nullptr;
std::string LlamaServerChatTest::endpoint_;

// The model's weights are random, so its text is noise: these tests pin properties of the
// stream, never the words.
TEST_F(LlamaServerChatTest, StreamsSeveralPiecesThatMakeTheText) {
  auto chat = Open();
  ASSERT_TRUE(chat);
  GenerateRequest request = Ask("Tell me about write-ahead logs.");
  request.max_tokens = 12;
  std::vector<std::string> pieces;
  auto g = Generate(*chat, request, &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_GE(pieces.size(), 2u);
  EXPECT_FALSE(g->text.empty());
  EXPECT_EQ(g->text, Concat(pieces));
  EXPECT_GT(g->usage.prompt_tokens, 5);
  EXPECT_GT(g->usage.completion_tokens, 0);
  EXPECT_LE(g->usage.completion_tokens, 12);
}

TEST_F(LlamaServerChatTest, MaxTokensEndsWithLength) {
  auto chat = Open();
  ASSERT_TRUE(chat);
  GenerateRequest request = Ask("Count to one hundred.");
  request.max_tokens = 5;
  std::vector<std::string> pieces;
  auto g = Generate(*chat, request, &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->finish, FinishReason::kLength);
  EXPECT_EQ(g->usage.completion_tokens, 5);
}

TEST_F(LlamaServerChatTest, SameSeedSameSampledText) {
  auto chat = Open();
  ASSERT_TRUE(chat);
  GenerateRequest request = Ask("Say something.");
  request.max_tokens = 10;
  request.temperature = 0.9;
  request.seed = 1234;
  std::vector<std::string> first_pieces, second_pieces;
  auto first = Generate(*chat, request, &first_pieces);
  auto second = Generate(*chat, request, &second_pieces);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_FALSE(first->text.empty());
  EXPECT_EQ(first->text, second->text);
}

TEST_F(LlamaServerChatTest, SinkThatSaysStopAborts) {
  auto chat = Open();
  ASSERT_TRUE(chat);
  GenerateRequest request = Ask("Go on and on.");
  request.max_tokens = 50;
  std::vector<std::string> pieces;
  auto g = Generate(*chat, request, &pieces, /*stop_after=*/1);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->finish, FinishReason::kAborted);
  EXPECT_EQ(pieces.size(), 1u);
  EXPECT_EQ(g->text, pieces[0]);
}

TEST_F(LlamaServerChatTest, PromptLongerThanTheContextIsInvalidInput) {
  auto chat = Open();
  ASSERT_TRUE(chat);
  std::string long_prompt;
  for (int i = 0; i < 700; ++i) long_prompt += "word ";
  std::vector<std::string> pieces;
  auto g = Generate(*chat, Ask(long_prompt), &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kInvalidInput) << g.status().ToString();
  EXPECT_NE(g.status().message().find("context"), std::string::npos) << g.status().message();
}

TEST_F(LlamaServerChatTest, WrongApiKeyIsRefusedWithAHint) {
  HttpChatOptions options = Options();
  options.api_key = "not-the-key";
  std::vector<std::string> pieces;
  auto g = Generate(*Open(options), Ask("hello"), &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kModelUnreachable) << g.status().ToString();
  EXPECT_NE(g.status().message().find("401"), std::string::npos) << g.status().message();
  EXPECT_NE(g.status().hint().find("OPENAI_API_KEY"), std::string::npos);
}

TEST_F(LlamaServerChatTest, NothingListeningIsModelUnreachable) {
  HttpChatOptions options = Options();
  options.endpoint = "http://127.0.0.1:" + std::to_string(FreePort()) + "/v1";
  std::vector<std::string> pieces;
  auto g = Generate(*Open(options), Ask("hello"), &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kModelUnreachable) << g.status().ToString();
  EXPECT_NE(g.status().message().find(options.endpoint + "/chat/completions"), std::string::npos)
      << g.status().message();
}

TEST_F(LlamaServerChatTest, CheckFindsTheServedModel) {
  const ChatHealth health = Open()->Check();
  EXPECT_TRUE(health.reachable) << health.detail;
  EXPECT_TRUE(health.model_present) << health.detail;
  EXPECT_EQ(health.models, std::vector<std::string>{kAlias});

  HttpChatOptions other = Options();
  other.model = "gpt-4o";
  const ChatHealth unlisted = Open(other)->Check();
  EXPECT_TRUE(unlisted.reachable);
  EXPECT_FALSE(unlisted.model_present);
  EXPECT_NE(unlisted.detail.find(kAlias), std::string::npos) << unlisted.detail;
}

}  // namespace
}  // namespace kebab::llm
