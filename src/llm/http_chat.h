// What the HTTP chat providers (ollama, openai) share: their options, the health report for
// `kebab doctor`, and HttpChat, which streams a provider's reply line by line into a
// Generation. Opening contacts nothing; Generate and Check do. Each call is one independent
// HTTP exchange and the object never changes after opening, so threads may share one.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/http.h"
#include "llm/language_model.h"

namespace kebab::llm {

struct HttpChatOptions {
  std::string endpoint;       // e.g. http://127.0.0.1:11434; openai may end in "/v1"
  std::string model;          // the server's model name
  int context_tokens = 8192;  // the window prompts are packed for; ollama runs with it
  int timeout_secs = 300;     // the longest the server may stay silent, not a total
  std::string api_key;        // sent as "Authorization: Bearer" when not empty
  // Where these options come from, for errors and hints that name the keys to fix.
  std::string config_section = "models.llm";
};

// What `kebab doctor` says about the configured chat model.
struct ChatHealth {
  bool reachable = false;           // the server answered its model list
  bool model_present = false;       // the list names the configured model
  std::string detail;               // one line: what was found, or what went wrong
  std::string fix;                  // the command or setting that fixes it; empty when healthy
  std::vector<std::string> models;  // the models the server lists
};

class HttpChat : public LanguageModel {
 public:
  const ModelRef& model_ref() const override { return ref_; }
  int context_tokens() const override { return options_.context_tokens; }
  // Streams the reply. Errors: LanguageModel's, as each provider maps its server's replies
  // (OllamaChat, OpenAiChat); an error the server reports mid-stream, a reply that breaks the
  // provider's protocol or ends before the model finished are generic, with the server's text.
  Result<Generation> Generate(const GenerateRequest& request, const PieceSink& on_piece) final;
  // Asks the server for its model list: is it there, and does it have options.model?
  virtual ChatHealth Check() const = 0;

 protected:
  // What one line of the reply stream says.
  struct StreamLine {
    std::string piece;                   // reply text (may be empty)
    std::optional<FinishReason> finish;  // the model finished
    std::optional<TokenUsage> usage;
    bool end = false;  // the stream's last message: the model finished
  };

  // `chat_url` is where Generate POSTs; `server` is what to start when nothing answers.
  HttpChat(std::string provider, HttpChatOptions options, std::string chat_url, std::string server);

  const HttpChatOptions& options() const { return options_; }
  const std::string& chat_url() const { return chat_url_; }
  // For core/http.h: errors name the models.llm keys.
  HttpOptions http_options() const;
  // The Authorization header when there is an API key.
  std::vector<std::string> headers() const;
  // GETs the model list at `url`, a JSON object whose array `list_key` holds objects that name
  // a model in `name_key`. Fills reachable and models; on failure, detail and fix say why.
  ChatHealth ListModels(const std::string& url, const char* list_key, const char* name_key) const;

  // The request for `request`, with streaming on.
  virtual nlohmann::json RequestBody(const GenerateRequest& request) const = 0;
  // Reads one non-empty line of the reply stream (no line break). An error the server reports
  // mid-stream, or a line that is not the protocol, is an error.
  virtual Result<StreamLine> ParseLine(std::string_view line) const = 0;
  // The error for an HTTP error status and the whole body that came with it.
  virtual Status HttpError(long status, std::string_view body) const = 0;

 private:
  HttpChatOptions options_;
  ModelRef ref_;
  std::string chat_url_;
  std::string server_;
};

// Config errors for options no server could answer: an empty endpoint or model.
Status ValidateHttpChatOptions(const HttpChatOptions& options);

}  // namespace kebab::llm
