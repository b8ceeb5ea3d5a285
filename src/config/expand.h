// Strict path expansion for the loader (internal to the config module).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "config/config.h"
#include "core/status.h"

namespace kebab::config::internal {

// Where config.toml lives when --config is not given (XDG Base Directory spec).
inline constexpr std::string_view kDefaultConfigPathTemplate =
    "${XDG_CONFIG_HOME:-~/.config}/kebab/config.toml";

// ExpandPath, but failing where ExpandPath has to guess: "~" or $HOME while HOME is unset or
// relative, an unterminated "${", a "${...}" form other than ${VAR} and ${VAR:-fallback}, a
// "{data_dir}" when `data_dir` is nullopt, and a value that expands to nothing. Messages are
// ConfigInvalid and do not name the key; callers add it as context.
Result<std::string> ExpandPathChecked(std::string_view value, const Environment& env,
                                      std::string_view base_dir,
                                      std::optional<std::string_view> data_dir);

// The parent directory of an absolute file path.
std::string ParentDir(std::string_view file_path);

}  // namespace kebab::config::internal
