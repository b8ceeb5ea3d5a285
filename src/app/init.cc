#include <filesystem>

#include "app/admin.h"
#include "app/internal_store.h"
#include "core/files.h"

namespace kebab::app {

namespace fs = std::filesystem;

Result<InitReport> Init(const std::string& config_path, bool force, const config::Environment& env,
                        SessionOptions options) {
  // No session yet (init writes the config it would load), so the policy is applied here.
  if (options.readonly) return ReadonlyRefusal("init");
  InitReport report;
  report.config_path = config_path;
  std::error_code ec;
  const bool existed = fs::exists(config_path, ec);
  if (existed && !force) {
    report.lines.push_back({"kept", config_path, "exists; --force overwrites it"});
  } else {
    KEBAB_RETURN_IF_ERROR(WriteFileAtomically(config_path, config::AnnotatedDefaultConfig()));
    report.lines.push_back({existed ? "overwrote" : "created", config_path, ""});
  }
  KEBAB_ASSIGN_OR_RETURN(config::Config config,
                         config::LoadConfig({.explicit_path = config_path, .env = env}));
  report.workspace_root = config.workspace.root;
  for (const std::string& dir : {config.storage.data_dir, config.storage.cache_dir,
                                 config.storage.state_dir, config.workspace.root}) {
    if (fs::is_directory(dir, ec)) continue;
    fs::create_directories(dir, ec);
    if (ec) return IoError("cannot create " + dir + ": " + ec.message());
    report.lines.push_back({"created", dir + "/", ""});
  }
  KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(config, false));
  report.lines.push_back(
      {"opened", store->path(), "schema v" + std::to_string(store->schema_version())});
  return report;
}

}  // namespace kebab::app
