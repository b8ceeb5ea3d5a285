#include <filesystem>

#include "app/admin.h"
#include "app/internal_store.h"

namespace kebab::app {

namespace fs = std::filesystem;

std::vector<std::string> ResetTargets(Session& session, ResetScope scope) {
  const config::Config& config = session.config();
  // Acts on the configured directories (the reference used XDG defaults regardless of a
  // custom data_dir, so a --config'd knowledge base was never actually reset).
  std::vector<std::string> targets;
  if (scope == ResetScope::kAll || scope == ResetScope::kDataOnly) {
    targets = {config.storage.data_dir, config.storage.cache_dir, config.storage.state_dir};
    // The index may have been configured outside data_dir.
    const std::string& db = config.storage.sqlite;
    if (!db.starts_with(config.storage.data_dir + "/")) {
      for (const char* suffix : {"", "-wal", "-shm"}) targets.push_back(db + suffix);
    }
  }
  if (scope == ResetScope::kAll || scope == ResetScope::kConfigOnly) {
    targets.push_back(config.config_path);
  }
  if (scope == ResetScope::kVectorOnly) {
    targets.push_back("every embedding space and vector in " + config.storage.sqlite);
  }
  return targets;
}

Result<ResetReport> Reset(Session& session, ResetScope scope) {
  KEBAB_RETURN_IF_ERROR(session.CheckWritable("reset"));
  const config::Config& config = session.config();
  ResetReport report;
  report.scope = scope;
  if (scope == ResetScope::kVectorOnly) {
    std::error_code ec;
    if (fs::exists(config.storage.sqlite, ec)) {
      KEBAB_ASSIGN_OR_RETURN(auto store, OpenStore(config, /*readonly=*/false));
      KEBAB_ASSIGN_OR_RETURN(report.vectors_removed, store->DeleteAllVectors());
    }
    report.kept_paths = {config.storage.sqlite, config.config_path, config.workspace.root};
    return report;
  }
  for (const std::string& path : ResetTargets(session, scope)) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) continue;
    fs::remove_all(path, ec);
    if (ec) return IoError("cannot remove " + path + ": " + ec.message());
    report.removed_paths.push_back(path);
  }
  if (scope != ResetScope::kAll) {
    if (scope == ResetScope::kDataOnly) report.kept_paths.push_back(config.config_path);
    if (scope == ResetScope::kConfigOnly) report.kept_paths.push_back(config.storage.data_dir);
  }
  report.kept_paths.push_back(config.workspace.root);
  return report;
}

}  // namespace kebab::app
