// Builds the LanguageModel that models.llm configures.
#pragma once

#include <memory>

#include "config/config.h"
#include "llm/http_chat.h"
#include "llm/language_model.h"

namespace kebab::llm {

// Opens the configured model. Errors: provider "none" (or no model) is config_invalid with the
// keys to set; otherwise the provider's own errors (see LanguageModel::Generate). A llama model
// is memory-mapped, so opening is cheap enough to do only for commands that generate.
Result<std::unique_ptr<LanguageModel>> OpenLanguageModel(const config::Config& config);

// `kebab doctor`'s check of the configured model: a llama model must load (its context is
// reported), a server must answer and list the model. The detail line on success; on failure
// the error's hint is the exact fix (`ollama pull NAME`, `kebab models pull NAME`, ...).
Result<std::string> CheckLanguageModel(const config::Config& config);

// A chat model on a server: provider "ollama" or "openai" (which also sends $OPENAI_API_KEY).
// Errors: another provider is config_invalid; ValidateHttpChatOptions's.
Result<std::unique_ptr<HttpChat>> OpenChatServer(std::string_view provider,
                                                 HttpChatOptions options);

// `kebab doctor`'s check of a chat server and model, as CheckLanguageModel's; `note` (may be
// empty) is added to the detail of a healthy server.
Result<std::string> CheckChatServer(const HttpChat& chat, std::string_view note = {});

}  // namespace kebab::llm
