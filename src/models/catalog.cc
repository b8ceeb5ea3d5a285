#include "models/catalog.h"

namespace kebab::models {
namespace {

using K = ModelKind;

// Sizes are what the hub listed for each file (decimal megabytes), rounded; they only feed
// listings and the progress bar until the server states the real length. A sha256 is pinned
// only where the hub's page for the file on `main` showed it; every other file is checked
// against the hash the hub sends with the download (speech models are checked against both
// that and their pinned SHA-1). Q8_0 for embedding models (indistinguishable
// from f16 in retrieval quality at half the size), Q4_K_M for chat models.
constexpr CatalogModel kCatalog[] = {
    {"multilingual-e5-small", K::kEmbedding, "cstr/multilingual-e5-small-GGUF",
     "multilingual-e5-small-q8_0.gguf", 125'000'000, "", "", "MIT", 384, 512,
     "intfloat multilingual E5 small: 100 languages, 384 dims, fast; a good default"},
    {"multilingual-e5-base", K::kEmbedding, "yixuan-chia/multilingual-e5-base-gguf",
     "multilingual-e5-base-Q8_0.gguf", 303'000'000, "", "", "MIT", 768, 512,
     "intfloat multilingual E5 base: 100 languages, 768 dims"},
    {"multilingual-e5-large", K::kEmbedding, "KeyurRamoliya/multilingual-e5-large-GGUF",
     "multilingual-e5-large-q8_0.gguf", 603'000'000,
     "6fc086a43fa9f9a766ee664312ecf2f301ff24c89f866c64936e5b4c5099b3be", "", "MIT", 1024, 512,
     "intfloat multilingual E5 large: 100 languages, 1024 dims, best E5 quality"},
    {"bge-m3", K::kEmbedding, "rbehzadan/bge-m3-gguf", "bge-m3-Q8_0.gguf", 635'000'000, "", "",
     "MIT", 1024, 8192, "BAAI BGE-M3: 100+ languages, 1024 dims, long inputs (8k tokens)"},
    {"nomic-embed-text-v1.5", K::kEmbedding, "nomic-ai/nomic-embed-text-v1.5-GGUF",
     "nomic-embed-text-v1.5.Q8_0.gguf", 140'000'000, "", "", "Apache-2.0", 768, 2048,
     "Nomic Embed v1.5: English, 768 dims, search_query:/search_document: prefixes"},
    {"bge-small-en-v1.5", K::kEmbedding, "ggml-org/bge-small-en-v1.5-Q8_0-GGUF",
     "bge-small-en-v1.5-q8_0.gguf", 36'700'000,
     "f046db1dc724cf4f6f0a0c5917e922823b73eb1d27b8f9a9c2797f7866974804", "", "MIT", 384, 512,
     "BAAI BGE small v1.5: English only, 384 dims, smallest and fastest to load"},
    {"qwen2.5-0.5b-instruct", K::kChat, "Qwen/Qwen2.5-0.5B-Instruct-GGUF",
     "qwen2.5-0.5b-instruct-q4_k_m.gguf", 491'000'000, "", "", "Apache-2.0", 0, 32768,
     "Qwen2.5 0.5B Instruct: multilingual chat, runs anywhere, short answers"},
    {"qwen2.5-1.5b-instruct", K::kChat, "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
     "qwen2.5-1.5b-instruct-q4_k_m.gguf", 1'120'000'000, "", "", "Apache-2.0", 0, 32768,
     "Qwen2.5 1.5B Instruct: multilingual chat, a good default on a laptop CPU"},
    {"qwen2.5-3b-instruct", K::kChat, "Qwen/Qwen2.5-3B-Instruct-GGUF",
     "qwen2.5-3b-instruct-q4_k_m.gguf", 2'100'000'000, "", "", "Qwen-Research", 0, 32768,
     "Qwen2.5 3B Instruct: multilingual chat, better answers, needs ~3 GB RAM"},
    {"llama-3.2-1b-instruct", K::kChat, "bartowski/Llama-3.2-1B-Instruct-GGUF",
     "Llama-3.2-1B-Instruct-Q4_K_M.gguf", 808'000'000, "", "", "Llama-3.2", 0, 131072,
     "Meta Llama 3.2 1B Instruct: English-first chat, long context"},
    {"llama-3.2-3b-instruct", K::kChat, "bartowski/Llama-3.2-3B-Instruct-GGUF",
     "Llama-3.2-3B-Instruct-Q4_K_M.gguf", 2'020'000'000, "", "", "Llama-3.2", 0, 131072,
     "Meta Llama 3.2 3B Instruct: English-first chat, long context"},
    // whisper.cpp's own ggml files (not GGUF), full precision; the SHA-1s are the ones
    // whisper.cpp 1.9.1's models/README.md lists, the sizes the hub's.
    {"whisper-base", K::kSpeech, "ggerganov/whisper.cpp", "ggml-base.bin", 147'951'465, "",
     "465707469ff3a37a2b9b8d8f89f2f99de7299dac", "MIT", 0, 448,
     "OpenAI Whisper base: 99 languages, fast on a laptop CPU; a good default"},
    {"whisper-small", K::kSpeech, "ggerganov/whisper.cpp", "ggml-small.bin", 487'601'967, "",
     "55356645c2b361a969dfd0ef2c5a50d530afd8d5", "MIT", 0, 448,
     "OpenAI Whisper small: 99 languages, better accuracy, ~3x slower than base"},
    {"whisper-large-v3-turbo", K::kSpeech, "ggerganov/whisper.cpp", "ggml-large-v3-turbo.bin",
     1'624'555'275, "", "4af2b29d7ec73d781377bfd1758ca957a807e941", "MIT", 0, 448,
     "OpenAI Whisper large v3 turbo: 99 languages, best accuracy, needs ~2 GB RAM"},
};

constexpr char kDefaultHub[] = "https://huggingface.co";

}  // namespace

std::string_view ModelKindName(ModelKind kind) {
  switch (kind) {
    case ModelKind::kEmbedding:
      return "embedding";
    case ModelKind::kChat:
      return "chat";
    case ModelKind::kSpeech:
      break;
  }
  return "speech";
}

std::optional<ModelKind> ParseModelKind(std::string_view name) {
  for (ModelKind kind : {ModelKind::kEmbedding, ModelKind::kChat, ModelKind::kSpeech}) {
    if (ModelKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string_view ModelFileSuffix(ModelKind kind) {
  return kind == ModelKind::kSpeech ? ".bin" : ".gguf";
}

std::span<const CatalogModel> Catalog() {
  return kCatalog;
}

const CatalogModel* FindCatalogModel(std::string_view name) {
  for (const CatalogModel& m : kCatalog) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string HubEndpoint(const config::Environment& env) {
  auto it = env.find("HF_ENDPOINT");
  std::string hub = it == env.end() ? "" : it->second;
  while (hub.ends_with('/')) hub.pop_back();
  return hub.empty() ? kDefaultHub : hub;
}

std::string DownloadUrl(const CatalogModel& model, std::string_view hub) {
  return std::string(hub) + "/" + std::string(model.repo) + "/resolve/main/" +
         std::string(model.file);
}

}  // namespace kebab::models
