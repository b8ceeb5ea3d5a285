// KEBAB_<SECTION>_<KEY> environment overrides (internal to the config module).
#pragma once

#include <functional>
#include <map>
#include <string>

#include "config/config.h"
#include "core/status.h"

namespace kebab::config::internal {

// Base directory for relative path values, by qualified key ("storage.data_dir"); keys not
// listed resolve against the config file's directory.
using PathBases = std::map<std::string, std::string, std::less<>>;

// Applies every KEBAB_* variable that names a config key (the legacy KEBAB_INDEXING_* spelling
// included) on top of `config`. Lists are comma-separated; booleans are 1/true/yes/on or
// 0/false/no/off. A value that does not parse is config_invalid naming the variable. Path
// values are left unexpanded and recorded in `bases` as relative to `cwd`. Other KEBAB_*
// variables (KEBAB_READONLY, ...) are not config keys and are ignored.
Status ApplyEnvOverrides(const Environment& env, const std::string& cwd, Config* config,
                         PathBases* bases);

}  // namespace kebab::config::internal
