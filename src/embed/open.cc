#include "embed/open.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include "embed/llama_embedder.h"
#include "embed/ollama_embedder.h"
#include "embed/openai_embedder.h"
#include "models/models.h"

namespace kebab::embed {

std::string LlamaModelPath(const config::Config& config) {
  return models::ModelFilePath(config, config.embedding.model);
}

namespace {

Result<std::unique_ptr<Embedder>> OpenLlama(const config::Config& config) {
  const config::EmbeddingConfig& ec = config.embedding;
  LlamaEmbedderOptions options;
  options.model_path = LlamaModelPath(config);
  options.version = ec.version;
  options.threads = ec.threads;
  if (ec.query_prefix != "auto") options.query_prefix = ec.query_prefix;
  if (ec.document_prefix != "auto") options.document_prefix = ec.document_prefix;
  auto embedder = LlamaEmbedder::Open(options);
  if (!embedder.ok()) {
    // A bare name is a file `kebab models pull` puts in place: say how.
    if (embedder.status().code() == ErrorCode::kModelNotPulled &&
        models::IsBareModelName(ec.model)) {
      return embedder.status().WithHint(models::PullHint(ec.model));
    }
    return embedder.status();
  }
  return std::unique_ptr<Embedder>(std::move(embedder).value());
}

Result<std::unique_ptr<Embedder>> OpenHttp(const config::Config& config) {
  const config::EmbeddingConfig& ec = config.embedding;
  HttpEmbedderOptions options;
  // One local server often serves both chat and embeddings, so the LLM's endpoint is the
  // natural default.
  options.endpoint = ec.endpoint.empty() ? config.llm.endpoint : ec.endpoint;
  options.model = ec.model;
  options.version = ec.version;
  options.timeout_secs = ec.request_timeout_secs;
  if (ec.query_prefix != "auto") options.query_prefix = ec.query_prefix;
  if (ec.document_prefix != "auto") options.document_prefix = ec.document_prefix;
  if (ec.provider == "ollama") {
    KEBAB_ASSIGN_OR_RETURN(auto embedder, OllamaEmbedder::Open(options));
    return std::unique_ptr<Embedder>(std::move(embedder));
  }
  if (const char* key = std::getenv("OPENAI_API_KEY"); key != nullptr) options.api_key = key;
  KEBAB_ASSIGN_OR_RETURN(auto embedder, OpenAiEmbedder::Open(options));
  return std::unique_ptr<Embedder>(std::move(embedder));
}

}  // namespace

Result<std::unique_ptr<Embedder>> OpenEmbedder(const config::Config& config) {
  const config::EmbeddingConfig& ec = config.embedding;
  if (ec.provider == "none" || ec.model.empty()) {
    return Status(
        ErrorCode::kConfigInvalid, "no embedding model is configured",
        "set models.embedding.provider and models.embedding.model in " + config.config_path);
  }
  Result<std::unique_ptr<Embedder>> embedder = Status(
      ErrorCode::kConfigInvalid, "embedding provider \"" + ec.provider + "\" is not supported",
      "use provider = \"llama\", \"ollama\" or \"openai\"");
  if (ec.provider == "llama") {
    embedder = OpenLlama(config);
  } else if (ec.provider == "ollama" || ec.provider == "openai") {
    embedder = OpenHttp(config);
  }
  if (!embedder.ok()) return embedder.status();
  const int dims = (*embedder)->space().dimensions;
  if (ec.dimensions > 0 && dims != ec.dimensions) {
    return Status(ErrorCode::kConfigInvalid,
                  ec.provider + " model " + ec.model + " makes " + std::to_string(dims) +
                      "-dimensional vectors, but models.embedding.dimensions = " +
                      std::to_string(ec.dimensions),
                  "set models.embedding.dimensions = 0 to take them from the model");
  }
  return embedder;
}

}  // namespace kebab::embed
