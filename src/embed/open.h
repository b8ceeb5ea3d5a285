// Builds the Embedder that models.embedding configures.
#pragma once

#include <memory>
#include <string>

#include "config/config.h"
#include "embed/embedder.h"

namespace kebab::embed {

// The GGUF file models.embedding.model names for the llama provider: a path (absolute, "~",
// or relative to the config file) or a bare name looked up as {model_dir}/NAME.gguf.
std::string LlamaModelPath(const config::Config& config);

// Opens the configured embedder. Loading a llama model memory-maps it, so this is cheap enough
// to do lazily, only for commands that embed.
Result<std::unique_ptr<Embedder>> OpenEmbedder(const config::Config& config);

}  // namespace kebab::embed
