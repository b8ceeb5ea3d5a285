// `kebab models gc`: the embedding spaces of models no longer configured leave the index.
#include <filesystem>

#include "models/models.h"
#include "store/store.h"

namespace kebab::models {

bool SpaceMatchesConfig(const store::SpaceKey& space, const config::Config& config) {
  const config::EmbeddingConfig& ec = config.embedding;
  // A llama space is named after the GGUF file's stem (see LlamaEmbedder).
  const std::string model =
      ec.provider == "llama"
          ? std::filesystem::path(ModelFilePath(config, ec.model)).stem().string()
          : ec.model;
  return space.provider == ec.provider && space.model == model && space.version == ec.version &&
         (ec.dimensions <= 0 || space.dimensions == ec.dimensions) &&
         (ec.document_prefix == "auto" || space.document_prefix == ec.document_prefix);
}

Result<GcReport> GcSpaces(const config::Config& config, bool dry_run) {
  const config::EmbeddingConfig& ec = config.embedding;
  if (ec.provider == "none" || ec.model.empty()) {
    return InvalidInput(
        "no embedding model is configured, so `kebab models gc` would delete every embedding "
        "space",
        "configure models.embedding first, or drop all vectors with `kebab reset --vector-only`");
  }
  GcReport report;
  report.dry_run = dry_run;
  std::error_code ec_exists;
  if (!std::filesystem::exists(config.storage.sqlite, ec_exists)) return report;
  store::StoreOptions options;
  options.readonly = dry_run;
  options.stemmer = config.search.stemmer;
  KEBAB_ASSIGN_OR_RETURN(auto store, store::Store::Open(config.storage.sqlite, options));
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::StoredSpace> spaces, store->ListSpaces());
  for (store::StoredSpace& s : spaces) {
    (SpaceMatchesConfig(s.key, config) ? report.kept : report.removed).push_back(std::move(s));
  }
  for (const store::StoredSpace& s : report.removed) {
    if (dry_run) {
      report.vectors_removed += s.vector_count;
    } else {
      KEBAB_ASSIGN_OR_RETURN(int64_t removed, store->DeleteSpace(s.space_id));
      report.vectors_removed += removed;
    }
  }
  return report;
}

}  // namespace kebab::models
