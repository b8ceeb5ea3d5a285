// Language models write the answers of `kebab ask` (spec §7.2). One implementation per provider:
// llama (a GGUF chat model run in-process), ollama and openai (HTTP servers). Generation
// streams: every piece of text reaches the caller as the model produces it, and the caller can
// stop it at any piece (Ctrl-C, a closed pipe).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::llm {

// Which model answered, as recorded in answer.v1 ("model": {"id", "provider"}).
struct ModelRef {
  std::string id;        // the configured model name, or the GGUF file's stem
  std::string provider;  // llama | ollama | openai
};

struct GenerateRequest {
  std::string system;  // the system prompt
  std::string user;    // the user turn
  // Images shown with the user turn (captions), base64 JPEG as the servers take them. Only
  // vision models served by ollama or openai see them; the in-process llama model refuses.
  std::vector<std::string> images_jpeg_base64;
  std::vector<std::string> stop;  // generation ends before the first of these; not in the text
  int max_tokens = 512;           // completion tokens at most
  double temperature = 0.0;       // 0 = greedy (deterministic)
  double top_p = 1.0;             // nucleus sampling; 1 = off
  std::optional<uint64_t> seed;   // unset = the provider's default
  // Set (e.g. by Ctrl-C) to stop generation even while no piece arrives: during the prompt's
  // evaluation, or while a server is silent. Generate then ends kAborted. May be null.
  const std::atomic<bool>* cancel = nullptr;
};

enum class FinishReason {
  kStop,     // the model ended its turn or hit a stop string
  kLength,   // max_tokens (or the context) ran out
  kAborted,  // the caller's sink asked to stop
};

// "stop" | "length" | "aborted".
std::string_view FinishReasonName(FinishReason reason);

struct TokenUsage {
  int prompt_tokens = 0;
  int completion_tokens = 0;
};

struct Generation {
  std::string text;  // everything generated (up to the abort, for kAborted)
  FinishReason finish = FinishReason::kStop;
  TokenUsage usage;  // as the provider counts them (servers that do not say leave 0)
};

// Receives each piece of generated text in order; their concatenation is Generation::text.
// Returning false stops generation: Generate then returns what it has, finish = kAborted.
using PieceSink = std::function<bool(std::string_view piece)>;

class LanguageModel {
 public:
  virtual ~LanguageModel() = default;
  virtual const ModelRef& model_ref() const = 0;
  // The context window the model runs with, in tokens (prompt + completion).
  virtual int context_tokens() const = 0;
  // Tokens `text` takes in the model's own tokenizer, when the model is in-process; nullopt
  // for servers, whose callers estimate (chars / 4).
  virtual std::optional<int> CountTokens(std::string_view /*text*/) const { return std::nullopt; }
  // Generates the assistant's reply to request.system + request.user, streaming it to
  // `on_piece`. Errors: an unreachable server is model_unreachable; a model the server or disk
  // lacks is model_not_pulled (with the command that fixes it); no data for the configured
  // request timeout is timeout; a prompt longer than the context is invalid_input.
  virtual Result<Generation> Generate(const GenerateRequest& request,
                                      const PieceSink& on_piece) = 0;
};

}  // namespace kebab::llm
