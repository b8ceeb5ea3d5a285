// Helpers shared by the command handlers.
#pragma once

#include "cli/commands.h"

namespace kebab::cli {

Result<config::Config> LoadConfigFor(const Globals& g);

// kReadonlyMode when --readonly / KEBAB_READONLY forbids a mutating command.
Status CheckWritable(const Globals& g, std::string_view command);

}  // namespace kebab::cli
