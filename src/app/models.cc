// `kebab models`: the read-only policy in front of models/, and gc, which needs the store.
#include "app/models.h"

#include <filesystem>

#include "app/embed_stage.h"
#include "app/internal_store.h"

namespace kebab::app {

models::ModelListing ListModels(Session& session, const config::Environment& env) {
  return models::ListModels(session.config(), env);
}

Result<models::PullReport> PullModel(Session& session, const config::Environment& env,
                                     const models::PullOptions& options) {
  KEBAB_RETURN_IF_ERROR(session.CheckWritable("models pull"));
  return models::PullModel(session.config(), env, options);
}

Result<ModelPathReport> ModelPath(Session& session, const config::Environment& env,
                                  const std::string& name) {
  KEBAB_ASSIGN_OR_RETURN(models::ModelEntry model, models::InstalledModel(session.config(), name));
  return ModelPathReport{std::move(model), models::HubEndpoint(env)};
}

Result<models::RemoveReport> RemoveModel(Session& session, const std::string& name) {
  KEBAB_RETURN_IF_ERROR(session.CheckWritable("models rm"));
  return models::RemoveModel(session.config(), name);
}

Result<GcReport> GcSpaces(Session& session, bool dry_run) {
  if (!dry_run) KEBAB_RETURN_IF_ERROR(session.CheckWritable("models gc"));
  const config::Config& config = session.config();
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
  KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(config, /*readonly=*/dry_run));
  KEBAB_ASSIGN_OR_RETURN(std::vector<store::StoredSpace> spaces, store->ListSpaces());
  for (store::StoredSpace& s : spaces) {
    (SpaceMatchesConfig(s.key, config) ? report.kept : report.removed).push_back(std::move(s));
  }
  for (const store::StoredSpace& s : report.removed) {
    if (dry_run) {
      report.vectors_removed += s.vector_count;
    } else {
      // DeleteSpace bumps the corpus revision, so a session's cached index of a deleted space
      // is never served again.
      KEBAB_ASSIGN_OR_RETURN(int64_t removed, store->DeleteSpace(s.space_id));
      report.vectors_removed += removed;
    }
  }
  return report;
}

}  // namespace kebab::app
