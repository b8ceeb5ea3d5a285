#include "llm/open.h"

#include <cstdlib>

#include "llm/llama_chat.h"
#include "llm/ollama_chat.h"
#include "llm/openai_chat.h"
#include "models/models.h"

namespace kebab::llm {

Result<std::unique_ptr<LanguageModel>> OpenLanguageModel(const config::Config& config) {
  const config::LlmConfig& lc = config.llm;
  if (lc.provider == "none" || lc.model.empty()) {
    return Status(ErrorCode::kConfigInvalid, "no language model is configured",
                  "set models.llm.provider and models.llm.model in " + config.config_path);
  }
  if (lc.provider == "llama") {
    auto model = OpenLlamaChat(lc, models::ModelFilePath(config, lc.model));
    // A bare name is a file `kebab models pull` puts in place: say how.
    if (!model.ok() && model.status().code() == ErrorCode::kModelNotPulled &&
        models::IsBareModelName(lc.model)) {
      return model.status().WithHint(models::PullHint(lc.model));
    }
    return model;
  }
  KEBAB_ASSIGN_OR_RETURN(auto chat,
                         OpenChatServer(lc.provider, {.endpoint = lc.endpoint,
                                                      .model = lc.model,
                                                      .context_tokens = lc.context_tokens,
                                                      .timeout_secs = lc.request_timeout_secs}));
  return std::unique_ptr<LanguageModel>(std::move(chat));
}

Result<std::unique_ptr<HttpChat>> OpenChatServer(std::string_view provider,
                                                 HttpChatOptions options) {
  if (provider == "ollama") {
    KEBAB_ASSIGN_OR_RETURN(auto chat, OllamaChat::Open(options));
    return std::unique_ptr<HttpChat>(std::move(chat));
  }
  if (provider == "openai") {
    if (const char* key = std::getenv("OPENAI_API_KEY"); key != nullptr) options.api_key = key;
    KEBAB_ASSIGN_OR_RETURN(auto chat, OpenAiChat::Open(options));
    return std::unique_ptr<HttpChat>(std::move(chat));
  }
  return Status(ErrorCode::kConfigInvalid,
                "language model provider \"" + std::string(provider) + "\" is not supported",
                "use provider = \"llama\", \"ollama\" or \"openai\"");
}

Result<std::string> CheckChatServer(const HttpChat& chat, std::string_view note) {
  const ModelRef& ref = chat.model_ref();
  const std::string name = ref.provider + ":" + ref.id;
  const ChatHealth health = chat.Check();
  // Single-model OpenAI-compatible servers (llama-server) list only their own alias and
  // answer any model name, so an unlisted model there is a note, not a failure.
  if (health.reachable && !health.model_present && ref.provider == "openai") {
    return name + " (" + health.detail + "; a single-model server answers any name)";
  }
  if (!health.reachable || !health.model_present) {
    return Status(health.reachable ? ErrorCode::kModelNotPulled : ErrorCode::kModelUnreachable,
                  name + ": " + health.detail, health.fix);
  }
  return name + " (" + health.detail + (note.empty() ? "" : "; " + std::string(note)) + ")";
}

Result<std::string> CheckLanguageModel(const config::Config& config) {
  const config::LlmConfig& lc = config.llm;
  KEBAB_ASSIGN_OR_RETURN(std::unique_ptr<LanguageModel> model, OpenLanguageModel(config));
  const std::string name = lc.provider + ":" + lc.model;
  if (auto* http = dynamic_cast<HttpChat*>(model.get()); http != nullptr) {
    return CheckChatServer(
        *http, "prompts packed for " + std::to_string(model->context_tokens()) + " tokens");
  }
  std::string detail = name + " (context " + std::to_string(model->context_tokens()) + " tokens";
  if (model->context_tokens() < lc.context_tokens) {
    detail += ", the model's trained maximum; models.llm.context_tokens = " +
              std::to_string(lc.context_tokens);
  }
  return detail + ")";
}

}  // namespace kebab::llm
