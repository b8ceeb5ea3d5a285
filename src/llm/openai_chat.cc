#include "llm/openai_chat.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace kebab::llm {
namespace {

std::string StringOr(const nlohmann::json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_string()
             ? object[key].get<std::string>()
             : std::string();
}

int IntOr(const nlohmann::json& object, const char* key) {
  return object.contains(key) && object[key].is_number_integer() ? object[key].get<int>() : 0;
}

// The prompt did not fit: llama-server says "exceed_context_size_error", OpenAI
// "context_length_exceeded".
bool IsContextOverflow(std::string_view body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("error")) return false;
  const nlohmann::json& e = j["error"];
  return StringOr(e, "type") == "exceed_context_size_error" ||
         StringOr(e, "code") == "context_length_exceeded";
}

}  // namespace

OpenAiChat::OpenAiChat(const HttpChatOptions& options)
    : HttpChat("openai", options, OpenAiUrl(options.endpoint, "chat/completions"),
               "the OpenAI-compatible server") {}

Result<std::unique_ptr<OpenAiChat>> OpenAiChat::Open(const HttpChatOptions& options) {
  KEBAB_RETURN_IF_ERROR(ValidateHttpChatOptions(options));
  return std::unique_ptr<OpenAiChat>(new OpenAiChat(options));
}

nlohmann::json OpenAiChat::RequestBody(const GenerateRequest& request) const {
  nlohmann::json messages = nlohmann::json::array();
  if (!request.system.empty()) {
    messages.push_back({{"role", "system"}, {"content", request.system}});
  }
  if (request.images_jpeg_base64.empty()) {
    messages.push_back({{"role", "user"}, {"content", request.user}});
  } else {
    // Vision: the turn becomes a list of parts, the images as data URLs.
    nlohmann::json parts = nlohmann::json::array({{{"type", "text"}, {"text", request.user}}});
    for (const std::string& image : request.images_jpeg_base64) {
      parts.push_back(
          {{"type", "image_url"}, {"image_url", {{"url", "data:image/jpeg;base64," + image}}}});
    }
    messages.push_back({{"role", "user"}, {"content", std::move(parts)}});
  }
  nlohmann::json body = {{"model", options().model},
                         {"messages", std::move(messages)},
                         {"stream", true},
                         // The token counts come in one last event, after finish_reason.
                         {"stream_options", {{"include_usage", true}}},
                         {"temperature", request.temperature},
                         {"top_p", request.top_p}};
  if (request.max_tokens > 0) body["max_tokens"] = request.max_tokens;
  if (request.seed) body["seed"] = *request.seed;
  if (!request.stop.empty()) body["stop"] = request.stop;
  return body;
}

// Server-sent events: "data: {json}" lines, each event ended by a blank line, and a last
// "data: [DONE]". Each chunk carries choices[0].delta.content; one carries finish_reason, and
// with include_usage a last one carries "usage" (and no choices). Lines starting ":" are
// comments (keep-alives); llama-server reports a failure mid-stream as an "error: {json}" line.
Result<OpenAiChat::StreamLine> OpenAiChat::ParseLine(std::string_view line) const {
  StreamLine out;
  if (line.starts_with("error:")) {
    return GenericError("the server failed: " + ServerErrorText(line.substr(6)));
  }
  if (!line.starts_with("data:")) return out;  // comments, event:, id:, retry:
  std::string_view data = line.substr(5);
  if (data.starts_with(' ')) data.remove_prefix(1);
  if (data == "[DONE]") {
    out.end = true;
    return out;
  }
  const nlohmann::json j = nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    return GenericError("sent an event that is not a JSON object: " + ServerErrorText(data));
  }
  if (j.contains("error")) return GenericError("the server failed: " + ServerErrorText(data));
  if (j.contains("choices") && j["choices"].is_array() && !j["choices"].empty()) {
    const nlohmann::json& choice = j["choices"][0];
    if (choice.is_object() && choice.contains("delta")) {
      out.piece = StringOr(choice["delta"], "content");
    }
    if (const std::string reason = StringOr(choice, "finish_reason"); !reason.empty()) {
      out.finish = reason == "length" ? FinishReason::kLength : FinishReason::kStop;
    }
  }
  if (j.contains("usage") && j["usage"].is_object()) {
    out.usage = TokenUsage{.prompt_tokens = IntOr(j["usage"], "prompt_tokens"),
                           .completion_tokens = IntOr(j["usage"], "completion_tokens")};
  }
  return out;
}

Status OpenAiChat::HttpError(long status, std::string_view body) const {
  const std::string text = ServerErrorText(body);
  const std::string what =
      "openai endpoint " + chat_url() + " answered HTTP " + std::to_string(status) + ": " + text;
  if (status == 401 || status == 403) {
    return Status(ErrorCode::kModelUnreachable, what,
                  "set OPENAI_API_KEY to a key this server accepts");
  }
  // OpenAI: "The model `x` does not exist or you do not have access to it."; Ollama's /v1:
  // "model \"x\" not found, try pulling it first". Any other 404 is a wrong endpoint.
  if (status == 404 && text.find("model") != std::string::npos) {
    return Status(ErrorCode::kModelNotPulled, what,
                  "load model \"" + options().model + "\" on the server (Ollama: ollama pull " +
                      options().model + "), or set " + options().config_section +
                      ".model to one GET " + OpenAiUrl(options().endpoint, "models") + " lists");
  }
  if (status == 400 && IsContextOverflow(body)) {
    return InvalidInput(what, "give the server a larger context, or lower " +
                                  options().config_section + ".context_tokens to the server's");
  }
  return GenericError(what, status >= 500 ? "check the server's log"
                                          : "check " + options().config_section + ".endpoint and " +
                                                options().config_section + ".model");
}

ChatHealth OpenAiChat::Check() const {
  ChatHealth health = ListModels(OpenAiUrl(options().endpoint, "models"), "data", "id");
  if (!health.reachable) return health;
  const std::string where = "openai endpoint " + options().endpoint;
  health.model_present =
      std::find(health.models.begin(), health.models.end(), options().model) != health.models.end();
  if (health.model_present) {
    health.detail = where + " serves " + options().model;
  } else {
    std::string listed;
    for (const std::string& m : health.models) listed += (listed.empty() ? "" : ", ") + m;
    health.detail = where + " does not list model \"" + options().model +
                    "\" (it lists: " + (listed.empty() ? "nothing" : listed) + ")";
    health.fix = "set " + options().config_section + ".model to a listed model, or load \"" +
                 options().model + "\" on the server";
  }
  return health;
}

}  // namespace kebab::llm
