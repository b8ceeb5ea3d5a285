// Helpers shared by the chat provider tests: generating into a list of pieces, and a plain
// request.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "llm/language_model.h"

namespace kebab::llm::testing_chat {

// Generates with a sink that records every piece, and stops after `stop_after` of them when
// that is not 0.
inline Result<Generation> Generate(LanguageModel& model, const GenerateRequest& request,
                                   std::vector<std::string>* pieces, size_t stop_after = 0) {
  return model.Generate(request, [&](std::string_view piece) {
    pieces->emplace_back(piece);
    return stop_after == 0 || pieces->size() < stop_after;
  });
}

inline std::string Concat(const std::vector<std::string>& pieces) {
  std::string all;
  for (const std::string& p : pieces) all += p;
  return all;
}

inline GenerateRequest Ask(const std::string& user) {
  GenerateRequest request;
  request.system = "Be brief.";
  request.user = user;
  return request;
}

}  // namespace kebab::llm::testing_chat
