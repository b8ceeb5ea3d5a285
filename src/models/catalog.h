// The built-in table of models kebab knows how to fetch: a short name users type
// (`kebab models pull multilingual-e5-small`, `models.embedding.model = "bge-m3"`,
// `ingest.audio.whisper_model = "whisper-base"`), where the file lives on the Hugging Face hub,
// and what to expect of it. Embedding and chat models are GGUF files run by llama.cpp; speech
// models are whisper.cpp's own ggml .bin files. The table is data only; the hub is reached
// through download.h.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "config/config.h"

namespace kebab::models {

enum class ModelKind { kEmbedding, kChat, kSpeech };

// "embedding" | "chat" | "speech"
std::string_view ModelKindName(ModelKind kind);

// The kind ModelKindName calls `name`, or nullopt.
std::optional<ModelKind> ParseModelKind(std::string_view name);

// The file name suffix of a model of `kind` in the model directory: ".bin" for speech models
// (whisper.cpp's ggml format), ".gguf" for the others. A model NAME is the file NAME + suffix.
std::string_view ModelFileSuffix(ModelKind kind);

struct CatalogModel {
  std::string_view name;  // what users type; saved as {model_dir}/NAME + ModelFileSuffix(kind)
  ModelKind kind;
  std::string_view repo;     // Hugging Face repository, "owner/name"
  std::string_view file;     // file in the repository's main branch
  int64_t approx_bytes;      // for listings and progress before the server says; not checked
  std::string_view sha256;   // pinned lowercase hex, or empty: trust the hub's X-Linked-Etag
  std::string_view sha1;     // pinned lowercase hex, or empty; checked as well as the SHA-256
                             // (whisper.cpp publishes SHA-1s for its models)
  std::string_view license;  // SPDX id or the model's own licence name
  int dimensions;            // embedding models: vector size; 0 for chat and speech models
  int context_tokens;        // the context the model was trained for (whisper: text tokens)
  std::string_view summary;  // one line for `kebab models list`
};

// Every catalog entry: embedding models, then chat models, then speech models.
std::span<const CatalogModel> Catalog();

// The entry named `name` (exact match), or null.
const CatalogModel* FindCatalogModel(std::string_view name);

// The hub to download from: $HF_ENDPOINT (the variable huggingface_hub reads, so a mirror or a
// local test server works for both) without a trailing "/", else https://huggingface.co.
std::string HubEndpoint(const config::Environment& env);

// {hub}/{repo}/resolve/main/{file}: the hub answers with a redirect to its CDN, carrying the
// file's SHA-256 in X-Linked-Etag.
std::string DownloadUrl(const CatalogModel& model, std::string_view hub);

}  // namespace kebab::models
