// The HTTP chat providers against tests/tools/fake_ollama.py, which speaks Ollama's protocols
// and has models that fail on purpose: ollama, and openai's parsing and error mapping over
// Ollama's /v1. (openai against a real llama-server: llama_server_chat_test.cc.)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/http.h"
#include "llm/ollama_chat.h"
#include "llm/openai_chat.h"
#include "llm/testing_chat.h"
#include "tests/support/test_server.h"

namespace kebab::llm {
namespace {

using std::chrono::steady_clock;
using testing::ChildProcess;
using testing::FreePort;
using testing::StartPortPrintingServer;
using testing_chat::Ask;
using testing_chat::Generate;

const std::string kFakeOllama = std::string(KEBAB_SOURCE_DIR) + "/tests/tools/fake_ollama.py";

double SecondsSince(steady_clock::time_point start) {
  return std::chrono::duration<double>(steady_clock::now() - start).count();
}

// ---------------------------------------------------------------------------------------------
// ollama (and openai over Ollama's /v1), against the fake server

class FakeOllamaChatTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    server_ =
        StartPortPrintingServer({"/usr/bin/python3", kFakeOllama, "0"},
                                ::testing::TempDir() + "fake_ollama_chat.log", &endpoint_, &error)
            .release();
    ASSERT_NE(server_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static HttpChatOptions Options(const std::string& model) {
    HttpChatOptions options;
    options.endpoint = endpoint_;
    options.model = model;
    options.context_tokens = 4096;
    options.timeout_secs = 10;
    return options;
  }

  static std::unique_ptr<OllamaChat> Ollama(const HttpChatOptions& options) {
    auto chat = OllamaChat::Open(options);
    EXPECT_TRUE(chat.ok()) << chat.status().ToString();
    return chat.ok() ? std::move(chat).value() : nullptr;
  }
  static std::unique_ptr<OpenAiChat> OpenAi(const HttpChatOptions& options) {
    auto chat = OpenAiChat::Open(options);
    EXPECT_TRUE(chat.ok()) << chat.status().ToString();
    return chat.ok() ? std::move(chat).value() : nullptr;
  }

  // The body of the last chat request the fake server received.
  static nlohmann::json LastRequest() {
    auto response = GetJson(endpoint_ + "/_test/last_chat", {}, HttpOptions{});
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    return response.ok() ? nlohmann::json::parse(response->body) : nlohmann::json();
  }

  static ChildProcess* server_;
  static std::string endpoint_;
};
ChildProcess* FakeOllamaChatTest::server_ = nullptr;
std::string FakeOllamaChatTest::endpoint_;

TEST_F(FakeOllamaChatTest, PiecesArriveInOrderAndMakeTheText) {
  auto chat = Ollama(Options("llama3.2"));
  ASSERT_TRUE(chat);
  EXPECT_EQ(chat->model_ref().id, "llama3.2");
  EXPECT_EQ(chat->model_ref().provider, "ollama");
  EXPECT_EQ(chat->context_tokens(), 4096);
  EXPECT_EQ(chat->CountTokens("anything"), std::nullopt);

  std::vector<std::string> pieces;
  auto g = Generate(*chat, Ask("the quick brown fox jumps"), &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(pieces, (std::vector<std::string>{"the ", "quick ", "brown ", "fox ", "jumps"}));
  EXPECT_EQ(g->text, "the quick brown fox jumps");
  EXPECT_EQ(g->finish, FinishReason::kStop);
  EXPECT_EQ(g->usage.prompt_tokens, 7) << "the fake counts the words of both messages";
  EXPECT_EQ(g->usage.completion_tokens, 5);
}

TEST_F(FakeOllamaChatTest, SendsMessagesAndSamplingOptions) {
  auto chat = Ollama(Options("llama3.2"));
  ASSERT_TRUE(chat);
  GenerateRequest request = Ask("one two three four five");
  request.max_tokens = 3;
  request.stop = {"</answer>", "END"};
  request.temperature = 0.7;
  request.top_p = 0.9;
  request.seed = 42;
  std::vector<std::string> pieces;
  auto g = Generate(*chat, request, &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->text, "one two three ");
  EXPECT_EQ(g->finish, FinishReason::kLength) << "num_predict ran out";
  EXPECT_EQ(g->usage.completion_tokens, 3);

  const nlohmann::json sent = LastRequest();
  EXPECT_EQ(sent["model"], "llama3.2");
  EXPECT_EQ(sent["stream"], true);
  EXPECT_EQ(sent["messages"], nlohmann::json::parse(R"([
      {"role": "system", "content": "Be brief."},
      {"role": "user", "content": "one two three four five"}])"));
  const nlohmann::json& options = sent["options"];
  EXPECT_EQ(options["num_predict"], 3);
  EXPECT_EQ(options["num_ctx"], 4096);
  EXPECT_EQ(options["stop"], nlohmann::json({"</answer>", "END"}));
  EXPECT_DOUBLE_EQ(options["temperature"].get<double>(), 0.7);
  EXPECT_DOUBLE_EQ(options["top_p"].get<double>(), 0.9);
  EXPECT_EQ(options["seed"], 42);
}

// The header of a 48 x 32 JPEG (start of image, a baseline frame header, end of image), base64:
// all the fake vision model reads of an image.
constexpr char kTinyJpegBase64[] = "/9j/wAARCAAgADADASIAAhEBAxEB/9k=";

TEST_F(FakeOllamaChatTest, ImagesGoWithTheUserTurnInEachProtocol) {
  GenerateRequest request = Ask("Caption this image.");
  request.images_jpeg_base64 = {kTinyJpegBase64};
  std::vector<std::string> pieces;

  auto ollama = Ollama(Options("llava:7b"));
  ASSERT_TRUE(ollama);
  auto g = Generate(*ollama, request, &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->text, "A kebab-shop photo of 48 by 32 pixels.");
  nlohmann::json sent = LastRequest();
  EXPECT_EQ(sent["messages"][1], nlohmann::json::parse(R"({"role": "user",
      "content": "Caption this image.", "images": ["/9j/wAARCAAgADADASIAAhEBAxEB/9k="]})"));

  auto openai = OpenAi(Options("llava:7b"));
  ASSERT_TRUE(openai);
  pieces.clear();
  g = Generate(*openai, request, &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->text, "A kebab-shop photo of 48 by 32 pixels.");
  sent = LastRequest();
  EXPECT_EQ(sent["messages"][1], nlohmann::json::parse(R"({"role": "user", "content": [
      {"type": "text", "text": "Caption this image."},
      {"type": "image_url", "image_url":
          {"url": "data:image/jpeg;base64,/9j/wAARCAAgADADASIAAhEBAxEB/9k="}}]})"));

  // A model without vision refuses images, as Ollama does: the server's words come back.
  auto blind = Ollama(Options("llama3.2"));
  ASSERT_TRUE(blind);
  g = Generate(*blind, request, &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("does not support image input"), std::string::npos)
      << g.status().ToString();
}

TEST_F(FakeOllamaChatTest, UnsetLimitsAreLeftToTheServer) {
  auto chat = Ollama(Options("llama3.2"));
  ASSERT_TRUE(chat);
  GenerateRequest request;  // no system prompt, no seed, no stop strings
  request.user = "alpha beta STOP gamma";
  request.max_tokens = 0;
  std::vector<std::string> pieces;
  ASSERT_TRUE(Generate(*chat, request, &pieces).ok());
  const nlohmann::json sent = LastRequest();
  EXPECT_EQ(sent["messages"].size(), 1u) << "an empty system prompt is not sent";
  EXPECT_FALSE(sent["options"].contains("num_predict"));
  EXPECT_FALSE(sent["options"].contains("seed"));
  EXPECT_FALSE(sent["options"].contains("stop"));

  request.stop = {"STOP"};
  auto g = Generate(*chat, request, &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->text, "alpha beta ") << "the stop string and what follows are not in the text";
  EXPECT_EQ(g->finish, FinishReason::kStop);
}

TEST_F(FakeOllamaChatTest, InvalidUtf8InThePromptIsReplacedNotThrown) {
  auto chat = Ollama(Options("llama3.2"));
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  auto g = Generate(*chat, Ask("caf\xc3 ok"), &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->text, "caf\xef\xbf\xbd ok") << "U+FFFD stands for the broken byte";
}

TEST_F(FakeOllamaChatTest, SinkThatSaysStopAbortsAndKeepsTheTextSoFar) {
  auto chat = Ollama(Options("llama3.2"));
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  auto g = Generate(*chat, Ask("a b c d e f g h"), &pieces, /*stop_after=*/2);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->finish, FinishReason::kAborted);
  EXPECT_EQ(pieces, (std::vector<std::string>{"a ", "b "})) << "no piece after the stop";
  EXPECT_EQ(g->text, "a b ");
}

TEST_F(FakeOllamaChatTest, MissingModelIsModelNotPulledWithThePullCommand) {
  for (const std::string model : {"missing", "mistral"}) {
    auto chat = Ollama(Options(model));
    ASSERT_TRUE(chat) << "opening contacts nothing, so it cannot fail on the model";
    std::vector<std::string> pieces;
    auto g = Generate(*chat, Ask("hello"), &pieces);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.status().code(), ErrorCode::kModelNotPulled) << g.status().ToString();
    EXPECT_EQ(g.status().hint(), "ollama pull " + model);
    EXPECT_NE(g.status().message().find("not found"), std::string::npos) << g.status().message();
    EXPECT_TRUE(pieces.empty());
  }
}

TEST_F(FakeOllamaChatTest, ServerErrorCarriesTheServersText) {
  auto chat = Ollama(Options("broken"));
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  auto g = Generate(*chat, Ask("hello"), &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kGeneric) << g.status().ToString();
  EXPECT_NE(g.status().message().find("HTTP 500"), std::string::npos) << g.status().message();
  EXPECT_NE(g.status().message().find("llama runner process has terminated"), std::string::npos)
      << g.status().message();
}

TEST_F(FakeOllamaChatTest, ErrorLineMidStreamIsAnError) {
  auto chat = Ollama(Options("crash"));
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  auto g = Generate(*chat, Ask("first second third"), &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kGeneric) << g.status().ToString();
  EXPECT_NE(g.status().message().find("llama runner process has terminated"), std::string::npos)
      << g.status().message();
  EXPECT_EQ(pieces, std::vector<std::string>{"first "}) << "what came before the error";
}

TEST_F(FakeOllamaChatTest, ReplyThatIsNotNdjsonIsAnError) {
  auto chat = Ollama(Options("garbage"));
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  auto g = Generate(*chat, Ask("hello"), &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kGeneric) << g.status().ToString();
  EXPECT_NE(g.status().message().find("not a JSON object"), std::string::npos)
      << g.status().message();
}

TEST_F(FakeOllamaChatTest, NothingListeningIsModelUnreachable) {
  HttpChatOptions options = Options("llama3.2");
  options.endpoint = "http://127.0.0.1:" + std::to_string(FreePort());
  auto chat = Ollama(options);
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  auto g = Generate(*chat, Ask("hello"), &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kModelUnreachable) << g.status().ToString();
  EXPECT_NE(g.status().message().find(options.endpoint + "/api/chat"), std::string::npos)
      << g.status().message();
  EXPECT_NE(g.status().hint().find("ollama serve"), std::string::npos) << g.status().hint();
  EXPECT_NE(g.status().hint().find("models.llm.endpoint"), std::string::npos) << g.status().hint();
}

TEST_F(FakeOllamaChatTest, SilenceAfterAPieceIsTimeout) {
  HttpChatOptions options = Options("stall");
  options.timeout_secs = 1;
  auto chat = Ollama(options);
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  const auto start = steady_clock::now();
  auto g = Generate(*chat, Ask("first second third"), &pieces);
  const double secs = SecondsSince(start);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kTimeout) << g.status().ToString();
  EXPECT_NE(g.status().hint().find("models.llm.request_timeout_secs"), std::string::npos)
      << g.status().hint();
  EXPECT_EQ(pieces, std::vector<std::string>{"first "});
  EXPECT_GE(secs, 0.9);
  EXPECT_LT(secs, 3.0) << "gave up after about the configured second of silence";
}

TEST_F(FakeOllamaChatTest, ACancelFlagStopsASilentServer) {
  HttpChatOptions options = Options("stall");
  options.timeout_secs = 20;
  auto chat = Ollama(options);
  ASSERT_TRUE(chat);
  std::atomic<bool> cancel{false};
  GenerateRequest request = Ask("first second third");
  request.cancel = &cancel;
  std::thread ctrl_c([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  std::vector<std::string> pieces;
  const auto start = steady_clock::now();
  auto g = chat->Generate(request, [&](std::string_view piece) {
    pieces.emplace_back(piece);
    return true;
  });
  ctrl_c.join();
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->finish, FinishReason::kAborted);
  EXPECT_EQ(g->text, "first ") << "the piece before the silence is kept";
  EXPECT_LT(SecondsSince(start), 3.0) << "not the 20 s silence limit";
}

TEST_F(FakeOllamaChatTest, SilenceBeforeTheFirstByteIsTimeout) {
  HttpChatOptions options = Options("slow");
  options.timeout_secs = 1;
  auto chat = Ollama(options);
  ASSERT_TRUE(chat);
  std::vector<std::string> pieces;
  const auto start = steady_clock::now();
  auto g = Generate(*chat, Ask("hello"), &pieces);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kTimeout) << g.status().ToString();
  EXPECT_LT(SecondsSince(start), 3.0) << "not the server's 5 s";
}

TEST_F(FakeOllamaChatTest, CheckFindsModelsWithOrWithoutTheirTag) {
  for (const std::string model : {"llama3.2", "llama3.2:latest", "qwen2.5:0.5b"}) {
    const ChatHealth health = Ollama(Options(model))->Check();
    EXPECT_TRUE(health.reachable) << model << ": " << health.detail;
    EXPECT_TRUE(health.model_present) << model << ": " << health.detail;
    EXPECT_TRUE(health.fix.empty()) << health.fix;
  }
  const ChatHealth tagged = Ollama(Options("llama3.2"))->Check();
  EXPECT_NE(tagged.detail.find("llama3.2:latest"), std::string::npos) << tagged.detail;
  EXPECT_EQ(tagged.models,
            (std::vector<std::string>{"llama3.2:latest", "qwen2.5:0.5b", "llava:7b"}));

  for (const std::string model : {"mistral", "qwen2.5:7b"}) {
    const ChatHealth health = Ollama(Options(model))->Check();
    EXPECT_TRUE(health.reachable) << health.detail;
    EXPECT_FALSE(health.model_present) << model;
    EXPECT_EQ(health.fix, "ollama pull " + model);
    EXPECT_NE(health.detail.find(model), std::string::npos) << health.detail;
  }
}

TEST_F(FakeOllamaChatTest, CheckSaysWhenNothingAnswers) {
  HttpChatOptions options = Options("llama3.2");
  options.endpoint = "http://127.0.0.1:" + std::to_string(FreePort());
  const ChatHealth health = Ollama(options)->Check();
  EXPECT_FALSE(health.reachable);
  EXPECT_FALSE(health.model_present);
  EXPECT_NE(health.detail.find(options.endpoint + "/api/tags"), std::string::npos) << health.detail;
  EXPECT_NE(health.fix.find("models.llm.endpoint"), std::string::npos) << health.fix;
}

TEST_F(FakeOllamaChatTest, OpenRejectsOptionsNoServerCouldAnswer) {
  HttpChatOptions no_model = Options("");
  HttpChatOptions no_endpoint = Options("llama3.2");
  no_endpoint.endpoint.clear();
  for (const HttpChatOptions& options : {no_model, no_endpoint}) {
    auto ollama = OllamaChat::Open(options);
    auto openai = OpenAiChat::Open(options);
    ASSERT_FALSE(ollama.ok());
    ASSERT_FALSE(openai.ok());
    EXPECT_EQ(ollama.status().code(), ErrorCode::kConfigInvalid);
    EXPECT_EQ(openai.status().code(), ErrorCode::kConfigInvalid);
    EXPECT_NE(ollama.status().hint().find("models.llm."), std::string::npos);
  }
}

TEST_F(FakeOllamaChatTest, OpenAiParsesEventsAndSendsItsOptions) {
  // Ollama serves the OpenAI protocol too, at /v1; the endpoint may name it already.
  auto chat = OpenAi(Options("llama3.2"));
  auto with_v1 = OpenAi([] {
    HttpChatOptions options = Options("llama3.2");
    options.endpoint += "/v1/";
    return options;
  }());
  ASSERT_TRUE(chat && with_v1);
  EXPECT_EQ(chat->model_ref().provider, "openai");
  EXPECT_EQ(chat->context_tokens(), 4096);

  GenerateRequest request = Ask("one two three four five");
  request.max_tokens = 4;
  request.stop = {"four"};
  request.temperature = 0.5;
  request.top_p = 0.8;
  request.seed = 9;
  std::vector<std::string> pieces;
  auto g = Generate(*chat, request, &pieces);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(pieces, (std::vector<std::string>{"one ", "two ", "three "}));
  EXPECT_EQ(g->text, "one two three ");
  EXPECT_EQ(g->finish, FinishReason::kStop) << "the stop string came before max_tokens ran out";
  EXPECT_EQ(g->usage.prompt_tokens, 7);
  EXPECT_EQ(g->usage.completion_tokens, 3);

  const nlohmann::json sent = LastRequest();
  EXPECT_EQ(sent["model"], "llama3.2");
  EXPECT_EQ(sent["stream"], true);
  EXPECT_EQ(sent["stream_options"]["include_usage"], true);
  EXPECT_EQ(sent["max_tokens"], 4);
  EXPECT_EQ(sent["stop"], nlohmann::json({"four"}));
  EXPECT_DOUBLE_EQ(sent["temperature"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(sent["top_p"].get<double>(), 0.8);
  EXPECT_EQ(sent["seed"], 9);
  EXPECT_EQ(sent["messages"].size(), 2u);

  request.stop.clear();
  pieces.clear();
  auto length = Generate(*with_v1, request, &pieces);
  ASSERT_TRUE(length.ok()) << length.status().ToString();
  EXPECT_EQ(length->text, "one two three four ");
  EXPECT_EQ(length->finish, FinishReason::kLength);

  pieces.clear();
  auto aborted = Generate(*chat, request, &pieces, /*stop_after=*/1);
  ASSERT_TRUE(aborted.ok()) << aborted.status().ToString();
  EXPECT_EQ(aborted->finish, FinishReason::kAborted);
  EXPECT_EQ(aborted->text, "one ");
}

TEST_F(FakeOllamaChatTest, OpenAiErrorsMapLikeOllamas) {
  std::vector<std::string> pieces;
  auto missing = Generate(*OpenAi(Options("mistral")), Ask("hello"), &pieces);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kModelNotPulled) << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("HTTP 404"), std::string::npos);
  EXPECT_NE(missing.status().hint().find("ollama pull mistral"), std::string::npos)
      << missing.status().hint();

  auto broken = Generate(*OpenAi(Options("broken")), Ask("hello"), &pieces);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), ErrorCode::kGeneric) << broken.status().ToString();
  EXPECT_NE(broken.status().message().find("llama runner process has terminated"),
            std::string::npos);

  auto crash = Generate(*OpenAi(Options("crash")), Ask("first second"), &pieces);
  ASSERT_FALSE(crash.ok());
  EXPECT_EQ(crash.status().code(), ErrorCode::kGeneric) << crash.status().ToString();
  EXPECT_NE(crash.status().message().find("llama runner process has terminated"),
            std::string::npos);

  HttpChatOptions stall = Options("stall");
  stall.timeout_secs = 1;
  const auto start = steady_clock::now();
  auto timeout = Generate(*OpenAi(stall), Ask("first second"), &pieces);
  ASSERT_FALSE(timeout.ok());
  EXPECT_EQ(timeout.status().code(), ErrorCode::kTimeout) << timeout.status().ToString();
  EXPECT_LT(SecondsSince(start), 3.0);
}

TEST_F(FakeOllamaChatTest, OpenAiCheckReadsTheModelList) {
  const ChatHealth listed = OpenAi(Options("qwen2.5:0.5b"))->Check();
  EXPECT_TRUE(listed.reachable) << listed.detail;
  EXPECT_TRUE(listed.model_present) << listed.detail;
  const ChatHealth unlisted = OpenAi(Options("gpt-4o"))->Check();
  EXPECT_TRUE(unlisted.reachable) << unlisted.detail;
  EXPECT_FALSE(unlisted.model_present);
  EXPECT_NE(unlisted.detail.find("llama3.2:latest, qwen2.5:0.5b, llava:7b"), std::string::npos)
      << unlisted.detail;
  EXPECT_NE(unlisted.fix.find("models.llm.model"), std::string::npos) << unlisted.fix;
}

}  // namespace
}  // namespace kebab::llm
