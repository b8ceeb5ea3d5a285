#include "llm/llama_chat.h"

#include <llama.h>

#include <algorithm>
#include <filesystem>
#include <thread>
#include <utility>

#include "llm/internal/chat_prompt.h"
#include "llm/internal/piece_filter.h"
#include "models/models.h"

namespace kebab::llm {
namespace {

using models::TakeLlamaErrors;

// For models whose GGUF carries no chat template: ChatML, the format llama-server falls back to
// as well (a base model without a template has no format of its own to honour).
constexpr const char* kDefaultTemplate = "chatml";

// The draw's seed when the request sets none: a fixed one, so the same request gives the same
// answer. (llama.cpp's own default, LLAMA_DEFAULT_SEED, means "random".)
constexpr uint32_t kDefaultSeed = 0x6b656261;  // "keba"
// Candidates kept before top-p (llama.cpp's default top_k).
constexpr int kTopK = 40;

// Prompt tokens per llama_decode call: llama.cpp's default batch, large enough to keep the
// matrix kernels busy, small enough that the compute buffers stay a few MB.
constexpr int kMaxBatchTokens = 512;

struct SamplerDeleter {
  void operator()(llama_sampler* s) const { llama_sampler_free(s); }
};
using SamplerPtr = std::unique_ptr<llama_sampler, SamplerDeleter>;

SamplerPtr MakeSampler(const GenerateRequest& request) {
  SamplerPtr chain(llama_sampler_chain_init(llama_sampler_chain_default_params()));
  if (request.temperature <= 0) {
    llama_sampler_chain_add(chain.get(), llama_sampler_init_greedy());
    return chain;
  }
  // Fold the 64-bit seed into llama.cpp's 32 bits, steering clear of its "random" value.
  uint32_t seed = kDefaultSeed;
  if (request.seed) seed = static_cast<uint32_t>(*request.seed ^ (*request.seed >> 32));
  if (seed == LLAMA_DEFAULT_SEED) seed = kDefaultSeed;
  if (request.top_p < 1.0) {
    // Top-p alone sorts the whole vocabulary every token (~17 ms for Qwen2's 151,936 here);
    // llama.cpp's own default chain cuts to the 40 likeliest first, as do we.
    llama_sampler_chain_add(chain.get(), llama_sampler_init_top_k(kTopK));
    llama_sampler_chain_add(chain.get(),
                            llama_sampler_init_top_p(static_cast<float>(request.top_p), 1));
  }
  llama_sampler_chain_add(chain.get(),
                          llama_sampler_init_temp(static_cast<float>(request.temperature)));
  llama_sampler_chain_add(chain.get(), llama_sampler_init_dist(seed));
  return chain;
}

}  // namespace

Result<std::unique_ptr<LlamaChat>> LlamaChat::Open(const LlamaChatOptions& options) {
  KEBAB_ASSIGN_OR_RETURN(
      models::LlamaModelPtr model,
      models::LoadLlamaModel(options.model_path, "chat model",
                             "check models.llm.model (a model NAME in storage.model_dir or a "
                             "path to a .gguf file)"));
  std::unique_ptr<LlamaChat> chat(new LlamaChat());
  chat->model_ = std::move(model);
  llama_model* m = chat->model_.get();
  chat->vocab_ = llama_model_get_vocab(m);

  const int n_ctx_train = llama_model_n_ctx_train(m);
  chat->n_ctx_ =
      options.context_tokens > 0 ? std::min(options.context_tokens, n_ctx_train) : n_ctx_train;
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = static_cast<uint32_t>(chat->n_ctx_);
  cp.n_batch = cp.n_ubatch = static_cast<uint32_t>(std::min(chat->n_ctx_, kMaxBatchTokens));
  cp.n_seq_max = 1;
  cp.no_perf = true;
  const int threads = options.threads > 0
                          ? options.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  cp.n_threads = cp.n_threads_batch = threads;
  chat->ctx_ = llama_init_from_model(m, cp);
  if (chat->ctx_ == nullptr) {
    return Status(ErrorCode::kInvalidInput,
                  "cannot create a " + std::to_string(chat->n_ctx_) + "-token context for " +
                      options.model_path + ": " + TakeLlamaErrors(),
                  "a smaller models.llm.context_tokens needs less memory");
  }
  if (llama_pooling_type(chat->ctx_) != LLAMA_POOLING_TYPE_NONE) {
    return InvalidInput(options.model_path + " is an embedding model, not a chat model",
                        "set models.llm.model to a GGUF chat model");
  }
  // llama.cpp asks between graph computations whether to stop: a long prompt's evaluation
  // takes seconds, and a Ctrl-C must not wait for it.
  llama_set_abort_callback(
      chat->ctx_,
      [](void* self) {
        const std::atomic<bool>* cancel = static_cast<LlamaChat*>(self)->cancel_;
        return cancel != nullptr && cancel->load();
      },
      chat.get());

  const char* tmpl = llama_model_chat_template(m, /*name=*/nullptr);
  chat->template_ = tmpl != nullptr ? tmpl : kDefaultTemplate;
  // Fail here rather than at the first question when llama.cpp cannot apply the template.
  Result<std::vector<internal::PromptSegment>> probe =
      internal::FormatChatPrompt(chat->template_, "system", "user");
  if (!probe.ok()) return probe.status().WithContext(options.model_path);

  chat->ref_.provider = "llama";
  chat->ref_.id = !options.model_id.empty()
                      ? options.model_id
                      : std::filesystem::path(options.model_path).stem().string();
  return chat;
}

LlamaChat::~LlamaChat() {
  // The context refers to the model, so it goes first (model_ is freed after this body).
  if (ctx_ != nullptr) llama_free(ctx_);
}

std::vector<int32_t> LlamaChat::Tokenize(std::string_view text, bool add_special,
                                         bool parse_special) const {
  std::vector<int32_t> tokens(text.size() + 8);
  const auto len = static_cast<int32_t>(text.size());
  int n = llama_tokenize(vocab_, text.data(), len, tokens.data(),
                         static_cast<int32_t>(tokens.size()), add_special, parse_special);
  if (n < 0) {
    tokens.resize(static_cast<size_t>(-n));
    n = llama_tokenize(vocab_, text.data(), len, tokens.data(), static_cast<int32_t>(tokens.size()),
                       add_special, parse_special);
  }
  tokens.resize(static_cast<size_t>(std::max(n, 0)));
  return tokens;
}

std::optional<int> LlamaChat::CountTokens(std::string_view text) const {
  return static_cast<int>(Tokenize(text, /*add_special=*/false, /*parse_special=*/false).size());
}

Status LlamaChat::Decode(int32_t* tokens, int n) {
  const int rc = llama_decode(ctx_, llama_batch_get_one(tokens, n));
  if (rc == 2 && cancel_ != nullptr && cancel_->load()) {
    return Status(ErrorCode::kCancelled, "generation was stopped");
  }
  if (rc != 0) {
    return GenericError("llama.cpp failed to decode (code " + std::to_string(rc) +
                        "): " + TakeLlamaErrors());
  }
  return Status::OK();
}

std::string LlamaChat::TokenText(int32_t token) const {
  // Control tokens (special = false) come out as "", so no template markup reaches the text.
  std::string bytes(64, '\0');
  int n = llama_token_to_piece(vocab_, token, bytes.data(), static_cast<int32_t>(bytes.size()),
                               /*lstrip=*/0, /*special=*/false);
  if (n < 0) {
    bytes.resize(static_cast<size_t>(-n));
    n = llama_token_to_piece(vocab_, token, bytes.data(), static_cast<int32_t>(bytes.size()), 0,
                             false);
  }
  bytes.resize(static_cast<size_t>(std::max(n, 0)));
  return bytes;
}

Result<int> LlamaChat::Prefill(const GenerateRequest& request) {
  KEBAB_ASSIGN_OR_RETURN(std::vector<internal::PromptSegment> segments,
                         internal::FormatChatPrompt(template_, request.system, request.user));
  std::vector<int32_t> prompt;
  for (const internal::PromptSegment& segment : segments) {
    // BOS (for the models that want one) goes in front of the first segment only.
    std::vector<int32_t> t = Tokenize(segment.text, prompt.empty(), segment.markup);
    prompt.insert(prompt.end(), t.begin(), t.end());
  }
  const int n_prompt = static_cast<int>(prompt.size());
  // At least one token must fit after the prompt.
  if (n_prompt == 0 || n_prompt > n_ctx_ - 1) {
    return InvalidInput(
        "prompt is " + std::to_string(n_prompt) + " tokens, context is " + std::to_string(n_ctx_),
        "shorten the prompt or raise models.llm.context_tokens");
  }
  if (llama_memory_t memory = llama_get_memory(ctx_)) llama_memory_clear(memory, true);
  const int n_batch = static_cast<int>(llama_n_batch(ctx_));
  for (int i = 0; i < n_prompt; i += n_batch) {
    KEBAB_RETURN_IF_ERROR(Decode(prompt.data() + i, std::min(n_batch, n_prompt - i)));
  }
  return n_prompt;
}

Result<Generation> LlamaChat::Generate(const GenerateRequest& request, const PieceSink& on_piece) {
  if (!request.images_jpeg_base64.empty()) {
    return InvalidInput("the in-process llama model cannot see images",
                        "serve a vision model with Ollama or an OpenAI-compatible server");
  }
  cancel_ = request.cancel;
  Result<Generation> gen = Run(request, on_piece);
  cancel_ = nullptr;
  if (!gen.ok() && gen.status().code() == ErrorCode::kCancelled) {
    return Generation{.finish = FinishReason::kAborted};
  }
  return gen;
}

Result<Generation> LlamaChat::Run(const GenerateRequest& request, const PieceSink& on_piece) {
  KEBAB_ASSIGN_OR_RETURN(const int n_prompt, Prefill(request));
  SamplerPtr sampler = MakeSampler(request);
  internal::PieceFilter filter(request.stop);
  Generation gen;
  gen.usage.prompt_tokens = n_prompt;
  // Passes a non-empty piece on; false when the caller wants no more.
  auto emit = [&](const std::string& piece) {
    if (piece.empty()) return true;
    gen.text += piece;
    return on_piece(piece);
  };
  int& n_completion = gen.usage.completion_tokens;
  int32_t last = 0;
  gen.finish = FinishReason::kLength;
  while ((request.max_tokens <= 0 || n_completion < request.max_tokens) &&
         n_prompt + n_completion < n_ctx_) {
    // The previous token goes into the context only now that another one is wanted.
    if (n_completion > 0) KEBAB_RETURN_IF_ERROR(Decode(&last, 1));
    last = llama_sampler_sample(sampler.get(), ctx_, -1);
    ++n_completion;
    if (llama_vocab_is_eog(vocab_, last)) {
      gen.finish = FinishReason::kStop;
      break;
    }
    if (!emit(filter.Push(TokenText(last))) || (cancel_ != nullptr && cancel_->load())) {
      gen.finish = FinishReason::kAborted;
      return gen;
    }
    if (filter.stopped()) {
      gen.finish = FinishReason::kStop;
      break;
    }
  }
  if (!emit(filter.Flush())) gen.finish = FinishReason::kAborted;
  return gen;
}

Result<std::unique_ptr<LanguageModel>> OpenLlamaChat(const config::LlmConfig& llm,
                                                     const std::string& model_path) {
  LlamaChatOptions options;
  options.model_path = model_path;
  // A bare NAME names the model; for a path, the file's stem does (Open's default).
  if (models::IsBareModelName(llm.model)) options.model_id = llm.model;
  options.context_tokens = llm.context_tokens;
  options.threads = llm.threads;
  KEBAB_ASSIGN_OR_RETURN(std::unique_ptr<LlamaChat> chat, LlamaChat::Open(options));
  return std::unique_ptr<LanguageModel>(std::move(chat));
}

}  // namespace kebab::llm
