#include <algorithm>
#include <chrono>

#include "rag/internal/steps.h"
#include "rag/packing.h"
#include "rag/prompt.h"

namespace kebab::rag::internal {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Tokens held back for the answer when models.llm.max_tokens is 0 (what the context leaves).
constexpr int kMinAnswerTokens = 256;
// Chat-template wrapping around the system and user turns (role markers, special tokens).
constexpr int kTemplateOverheadTokens = 32;

}  // namespace

Status AnswerFrom(const AskOptions& options, const AskHooks& hooks, llm::LanguageModel& model,
                  const std::vector<search::SearchHit>& hits, Answer* answer) {
  const Clock::time_point prompt_start = Clock::now();
  answer->model = model.model_ref();
  const TokenCounter count = [&model](std::string_view text) {
    return model.CountTokens(text).value_or(EstimateTokens(text));
  };
  const int context = model.context_tokens();
  const int fixed = count(options.prompt->system) + count(options.question) +
                    count(UserMessage("", {})) + kTemplateOverheadTokens;
  const int answer_reserve =
      options.max_tokens > 0 ? options.max_tokens : std::max(kMinAnswerTokens, context / 4);
  const int budget =
      std::max(1, std::min(options.max_context_tokens, context - fixed - answer_reserve));
  const Packing packing = PackChunks(hits, budget, count);
  answer->packed = packing.chunks;
  answer->retrieval.chunks_used = static_cast<int>(packing.chunks.size());

  llm::GenerateRequest request;
  request.system = std::string(options.prompt->system);
  request.user = UserMessage(options.question, packing.blocks);
  request.stop = {std::string(kStopAtNextQuestion)};
  request.temperature = options.temperature;
  request.top_p = options.top_p;
  request.seed = options.seed;
  request.cancel = options.cancel;
  const int prompt_tokens = count(request.system) + count(request.user) + kTemplateOverheadTokens;
  const int room = std::max(16, context - prompt_tokens);
  request.max_tokens = options.max_tokens > 0 ? std::min(options.max_tokens, room) : room;
  answer->timings.prompt_ms = MsSince(prompt_start);

  const Clock::time_point generation_start = Clock::now();
  bool first = true;
  const llm::PieceSink sink = [&](std::string_view piece) {
    if (first) {
      answer->timings.first_token_ms = MsSince(generation_start);
      first = false;
    }
    return !hooks.on_piece || hooks.on_piece(piece);
  };
  KEBAB_ASSIGN_OR_RETURN(llm::Generation generation, model.Generate(request, sink));
  answer->timings.generation_ms = MsSince(generation_start);
  // Servers that do not report usage get the estimate; multi-hop calls before this one
  // already added theirs.
  answer->usage.prompt_tokens +=
      generation.usage.prompt_tokens > 0 ? generation.usage.prompt_tokens : prompt_tokens;
  answer->usage.completion_tokens += generation.usage.completion_tokens > 0
                                         ? generation.usage.completion_tokens
                                         : count(generation.text);

  const Clock::time_point verify_start = Clock::now();
  FinishAnswer(options, hooks, generation, packing.chunks, answer);
  answer->timings.verify_ms = MsSince(verify_start);
  return Status::OK();
}

}  // namespace kebab::rag::internal
