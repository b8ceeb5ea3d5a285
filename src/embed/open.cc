#include "embed/open.h"

#include <filesystem>

#include "embed/llama_embedder.h"

namespace kebab::embed {

std::string LlamaModelPath(const config::Config& config) {
  const std::string& model = config.embedding.model;
  const bool looks_like_path =
      model.find('/') != std::string::npos || model.starts_with("~") || model.ends_with(".gguf");
  if (!looks_like_path) return config.storage.model_dir + "/" + model + ".gguf";
  const std::string base = std::filesystem::path(config.config_path).parent_path().string();
  return config::ExpandPath(model, config::ProcessEnvironment(), base, config.storage.data_dir);
}

Result<std::unique_ptr<Embedder>> OpenEmbedder(const config::Config& config) {
  const config::EmbeddingConfig& ec = config.embedding;
  if (ec.provider == "none" || ec.model.empty()) {
    return Status(
        ErrorCode::kConfigInvalid, "no embedding model is configured",
        "set models.embedding.provider and models.embedding.model in " + config.config_path);
  }
  if (ec.provider != "llama") {
    return Status(ErrorCode::kConfigInvalid,
                  "embedding provider \"" + ec.provider + "\" is not supported by this build",
                  "use provider = \"llama\" with a GGUF embedding model");
  }
  LlamaEmbedderOptions options;
  options.model_path = LlamaModelPath(config);
  options.version = ec.version;
  options.threads = ec.threads;
  if (ec.query_prefix != "auto") options.query_prefix = ec.query_prefix;
  if (ec.document_prefix != "auto") options.document_prefix = ec.document_prefix;
  KEBAB_ASSIGN_OR_RETURN(auto embedder, LlamaEmbedder::Open(options));
  if (ec.dimensions > 0 && embedder->space().dimensions != ec.dimensions) {
    return Status(ErrorCode::kConfigInvalid,
                  options.model_path + " makes " + std::to_string(embedder->space().dimensions) +
                      "-dimensional vectors, but models.embedding.dimensions = " +
                      std::to_string(ec.dimensions),
                  "set models.embedding.dimensions = 0 to take them from the model");
  }
  return std::unique_ptr<Embedder>(std::move(embedder));
}

}  // namespace kebab::embed
