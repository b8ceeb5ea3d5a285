// Embedders turn text into vectors for semantic search (spec §7.2). One implementation per
// provider: llama (a GGUF model in-process), ollama and openai (HTTP servers). Every vector an
// embedder returns is L2-normalized, and the same input always gives the same vector.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab::embed {

using Vector = std::vector<float>;

// Whether a text is a search query or a passage to index: several model families are trained
// with a different prefix for each ("query: " / "passage: " for e5).
enum class Purpose { kQuery, kDocument };

// What identifies an embedding space: vectors from different spaces are never compared.
struct SpaceInfo {
  std::string provider;  // llama | ollama | openai
  std::string model;     // model name or GGUF file stem
  std::string version;   // the user's label (models.embedding.version)
  int dimensions = 0;
  std::string document_prefix;  // put before every indexed text; it changes every vector
};

class Embedder {
 public:
  virtual ~Embedder() = default;
  virtual const SpaceInfo& space() const = 0;
  // One vector per text, in order. Texts longer than the model's context are cut to fit; how
  // many were cut is added to *truncated when it is not null.
  virtual Result<std::vector<Vector>> Embed(const std::vector<std::string>& texts, Purpose purpose,
                                            int* truncated = nullptr) = 0;
  // Caps the CPU threads an in-process model computes with; 0 restores its configured count.
  // HTTP providers compute elsewhere and ignore it.
  virtual void LimitThreads(int /*threads*/) {}
};

// Scales `v` to unit length (a zero vector stays zero).
void L2Normalize(Vector& v);

}  // namespace kebab::embed
