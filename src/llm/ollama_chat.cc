#include "llm/ollama_chat.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace kebab::llm {
namespace {

// `name` with Ollama's implicit ":latest" when it has no tag ("llama3.2" → "llama3.2:latest";
// "host:5000/ns/m" has a port, not a tag, before its last "/").
std::string WithDefaultTag(std::string_view name) {
  const size_t slash = name.rfind('/');
  const size_t colon = name.rfind(':');
  const bool tagged =
      colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash);
  return tagged ? std::string(name) : std::string(name) + ":latest";
}

int IntOr(const nlohmann::json& object, const char* key, int fallback) {
  return object.contains(key) && object[key].is_number_integer() ? object[key].get<int>()
                                                                 : fallback;
}

}  // namespace

OllamaChat::OllamaChat(const HttpChatOptions& options)
    : HttpChat("ollama", options, JoinUrl(options.endpoint, "api/chat"),
               "Ollama (`ollama serve`)") {}

Result<std::unique_ptr<OllamaChat>> OllamaChat::Open(const HttpChatOptions& options) {
  KEBAB_RETURN_IF_ERROR(ValidateHttpChatOptions(options));
  return std::unique_ptr<OllamaChat>(new OllamaChat(options));
}

nlohmann::json OllamaChat::RequestBody(const GenerateRequest& request) const {
  nlohmann::json messages = nlohmann::json::array();
  if (!request.system.empty()) {
    messages.push_back({{"role", "system"}, {"content", request.system}});
  }
  nlohmann::json user = {{"role", "user"}, {"content", request.user}};
  if (!request.images_jpeg_base64.empty()) user["images"] = request.images_jpeg_base64;
  messages.push_back(std::move(user));
  // Ollama's own default window (2048 or 4096 tokens, by version) would silently cut the
  // prompts kebab packs for context_tokens, so the window is always sent.
  nlohmann::json sampling = {{"temperature", request.temperature},
                             {"top_p", request.top_p},
                             {"num_ctx", options().context_tokens}};
  if (request.max_tokens > 0) sampling["num_predict"] = request.max_tokens;
  if (request.seed) sampling["seed"] = *request.seed;
  if (!request.stop.empty()) sampling["stop"] = request.stop;
  return {{"model", options().model},
          {"messages", std::move(messages)},
          {"stream", true},
          {"options", std::move(sampling)}};
}

// {"message": {"role": "assistant", "content": "..."}, "done": false} per piece; the last line
// has "done": true, "done_reason" and the token counts. A failure mid-stream is {"error": ...}.
Result<OllamaChat::StreamLine> OllamaChat::ParseLine(std::string_view line) const {
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    return GenericError("sent a line that is not a JSON object: " + ServerErrorText(line));
  }
  if (j.contains("error")) return GenericError("the server failed: " + ServerErrorText(line));
  StreamLine out;
  if (j.contains("message") && j["message"].is_object()) {
    const nlohmann::json& message = j["message"];
    if (message.contains("content") && message["content"].is_string()) {
      out.piece = message["content"].get<std::string>();
    }
  }
  if (j.value("done", false)) {
    out.end = true;
    const bool length = j.value("done_reason", "") == "length";
    out.finish = length ? FinishReason::kLength : FinishReason::kStop;
    out.usage = TokenUsage{.prompt_tokens = IntOr(j, "prompt_eval_count", 0),
                           .completion_tokens = IntOr(j, "eval_count", 0)};
  }
  return out;
}

Status OllamaChat::HttpError(long status, std::string_view body) const {
  const std::string text = ServerErrorText(body);
  // Ollama answers a model it does not have with 404 {"error": "model \"x\" not found, try
  // pulling it first"}; any other 404 means the endpoint is not an Ollama server.
  if (status == 404 && text.find("model") != std::string::npos &&
      text.find("not found") != std::string::npos) {
    return Status(ErrorCode::kModelNotPulled,
                  "ollama at " + options().endpoint + " does not have model \"" + options().model +
                      "\": " + text,
                  "ollama pull " + options().model);
  }
  return GenericError(
      "ollama at " + chat_url() + " answered HTTP " + std::to_string(status) + ": " + text,
      status >= 500 ? "check the Ollama server's log"
                    : "check that " + options().config_section + ".endpoint is an Ollama server");
}

ChatHealth OllamaChat::Check() const {
  ChatHealth health = ListModels(JoinUrl(options().endpoint, "api/tags"), "models", "name");
  if (!health.reachable) return health;
  const std::string wanted = WithDefaultTag(options().model);
  const auto found =
      std::find_if(health.models.begin(), health.models.end(),
                   [&](const std::string& m) { return WithDefaultTag(m) == wanted; });
  const std::string where = "ollama at " + options().endpoint;
  health.model_present = found != health.models.end();
  if (health.model_present) {
    health.detail = where + " has " + *found;
  } else {
    health.detail = where + " does not have model \"" + options().model + "\"";
    health.fix = "ollama pull " + options().model;
  }
  return health;
}

}  // namespace kebab::llm
