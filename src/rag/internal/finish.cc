#include <string>

#include "rag/internal/steps.h"
#include "rag/markers.h"
#include "rag/prompt.h"
#include "rag/verify.h"

namespace kebab::rag::internal {
namespace {

std::string_view Trim(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const size_t last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::string RefusalSentence(RefusalReason reason, bool korean) {
  switch (reason) {
    case RefusalReason::kNoChunks:
    case RefusalReason::kNoIndex:
      return korean ? "근거 부족. KB 에 해당 내용 없음."
                    : "Not enough evidence: nothing in the knowledge base matches the question.";
    case RefusalReason::kScoreGate:
      return korean ? "근거 부족. KB 에 해당 내용 없음."
                    : "Not enough evidence: nothing in the knowledge base is close enough to "
                      "the question.";
    case RefusalReason::kLlmSelfJudge:
      return korean ? "근거 부족. 찾은 자료에 답이 없음."
                    : "Not enough evidence: the sources found do not answer the question.";
    case RefusalReason::kUnsupportedClaims:
      return korean ? "근거 부족. 답변의 주장이 인용한 자료에서 확인되지 않음."
                    : "Not confirmed: the answer made claims its cited sources do not support.";
    case RefusalReason::kLlmStreamAborted:
      return korean ? "답변이 중단됨." : "The answer was stopped.";
  }
  return {};
}

AnswerCitation CitationOf(const search::SearchHit& hit, std::optional<std::string> marker) {
  return {.marker = std::move(marker),
          .citation = hit.citation,
          .chunk_id = hit.chunk.chunk.chunk_id,
          .indexed_at = hit.chunk.indexed_at,
          .score = hit.score};
}

std::vector<search::SearchHit> HitsOf(const std::vector<PackedChunk>& packed) {
  std::vector<search::SearchHit> hits;
  for (const PackedChunk& p : packed) hits.push_back(p.hit);
  return hits;
}

}  // namespace

bool IsKorean(std::string_view text) {
  // Hangul syllables U+AC00–U+D7A3 are E1..ED lead bytes in UTF-8; jamo U+1100– and U+3130–
  // are E1 84.. / E3 84..; any of them marks the text as Korean.
  for (size_t i = 0; i + 2 < text.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    const auto b1 = static_cast<unsigned char>(text[i + 1]);
    const unsigned cp = ((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) |
                        (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
    if ((b0 & 0xF0u) == 0xE0u && (b1 & 0xC0u) == 0x80u &&
        ((cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0x1100 && cp <= 0x11FF) ||
         (cp >= 0x3130 && cp <= 0x318F))) {
      return true;
    }
  }
  return false;
}

void Refuse(RefusalReason reason, const std::vector<search::SearchHit>& candidates,
            Answer* answer) {
  answer->grounded = false;
  answer->refusal_reason = reason;
  answer->answer = RefusalSentence(reason, IsKorean(answer->question));
  answer->citations.clear();
  for (const search::SearchHit& hit : candidates) {
    answer->citations.push_back(CitationOf(hit, std::nullopt));
  }
}

void FinishAnswer(const AskOptions& options, const AskHooks& hooks,
                  const llm::Generation& generation, const std::vector<PackedChunk>& packed,
                  Answer* answer) {
  answer->model_text = generation.text;
  const std::string_view reply = Trim(generation.text);
  const MarkerRewrite rewrite = RewriteMarkers(reply, static_cast<int>(packed.size()));
  answer->unknown_markers = rewrite.removed;

  if (generation.finish == llm::FinishReason::kAborted) {
    // The user saw the answer up to here; it is kept, but it is not a finished answer.
    answer->grounded = false;
    answer->refusal_reason = RefusalReason::kLlmStreamAborted;
    answer->answer = rewrite.text.empty() ? RefusalSentence(RefusalReason::kLlmStreamAborted,
                                                            IsKorean(answer->question))
                                          : rewrite.text;
    for (int n : rewrite.cited) {
      answer->citations.push_back(CitationOf(packed[n - 1].hit, "[" + std::to_string(n) + "]"));
    }
    return;
  }
  if (reply.empty() || IsSelfJudgedRefusal(reply) || rewrite.cited.empty()) {
    Refuse(RefusalReason::kLlmSelfJudge, HitsOf(packed), answer);
    // The model's own words say best what it found missing (spec §1.4).
    if (!reply.empty() && IsSelfJudgedRefusal(reply)) answer->answer = rewrite.text;
    return;
  }

  answer->grounded = true;
  answer->answer = rewrite.text;
  for (int n : rewrite.cited) {
    answer->citations.push_back(CitationOf(packed[n - 1].hit, "[" + std::to_string(n) + "]"));
  }
  if (options.verify == VerifyMode::kOff) return;
  const ChunkTextFn chunk_text = [&packed](int n) -> std::optional<std::string_view> {
    if (n < 1 || n > static_cast<int>(packed.size())) return std::nullopt;
    return std::string_view(packed[n - 1].hit.chunk.chunk.text);
  };
  answer->verify_mode = options.verify;
  answer->verify_min_overlap = options.verify_min_overlap;
  answer->verify_semantic_threshold = hooks.embed ? options.verify_semantic_threshold : 0.0;
  answer->verification = VerifyAnswer(reply, chunk_text,
                                      {.min_overlap = options.verify_min_overlap,
                                       .stemmer = options.stemmer,
                                       .embed = hooks.embed,
                                       .semantic_threshold = answer->verify_semantic_threshold});
  // A grounded answer is one the check found support for: under auto an answer none of whose
  // cited claims holds is refused, while partial support is flagged and kept.
  const Verification& v = *answer->verification;
  const bool none_verified = v.cited_claims > 0 && v.verified_claims() == 0;
  if ((options.verify == VerifyMode::kRefuse && !v.all_supported()) ||
      (options.verify == VerifyMode::kAuto && none_verified)) {
    std::vector<search::SearchHit> cited;
    for (int n : rewrite.cited) cited.push_back(packed[n - 1].hit);
    Refuse(RefusalReason::kUnsupportedClaims, cited, answer);
  }
}

}  // namespace kebab::rag::internal
