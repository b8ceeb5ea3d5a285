#include "cli/common.h"

namespace kebab::cli {

Result<config::Config> LoadConfigFor(const Globals& g) {
  return config::LoadConfig({.explicit_path = g.config_path, .env = g.env});
}

Status CheckWritable(const Globals& g, std::string_view command) {
  if (!g.readonly) return Status::OK();
  return Status(ErrorCode::kReadonlyMode,
                "`kebab " + std::string(command) + "` changes the index, and readonly mode is on",
                "drop --readonly / unset KEBAB_READONLY to allow it");
}

}  // namespace kebab::cli
