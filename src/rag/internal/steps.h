// The pipeline's steps after retrieval, shared by single-pass and multi-hop asks.
#pragma once

#include <string_view>
#include <vector>

#include "llm/language_model.h"
#include "rag/answer.h"
#include "rag/pipeline.h"
#include "text/analyzer.h"

namespace kebab::rag::internal {

// True when `text` has Hangul: refusal sentences follow the question's language.
bool IsKorean(std::string_view text);

// Makes `answer` a refusal for `reason` with a sentence in the question's language and, as
// citations, `candidates` without markers (the nearest chunks, for the user to look at).
void Refuse(RefusalReason reason, const std::vector<search::SearchHit>& candidates, Answer* answer);

// --multi-hop: decomposes the question, retrieves for each sub-question over up to
// options.max_hops rounds, and replaces answer->hits with the pooled chunks that pass the
// score gate (or makes the answer a score_gate refusal when none does). Records the hops.
Status GatherMultiHop(const AskOptions& options, const AskHooks& hooks,
                      const text::Analyzer& analyzer, Answer* answer);

// Packs `hits` into the prompt, generates with `model` (streaming to hooks.on_piece) and
// finishes `answer` from the reply.
Status AnswerFrom(const AskOptions& options, const AskHooks& hooks, llm::LanguageModel& model,
                  const std::vector<search::SearchHit>& hits, Answer* answer);

// Fills answer text, citations, grounded / refusal and verification from the model's reply
// to a prompt that held `packed`.
void FinishAnswer(const AskOptions& options, const AskHooks& hooks,
                  const llm::Generation& generation, const std::vector<PackedChunk>& packed,
                  Answer* answer);

}  // namespace kebab::rag::internal
