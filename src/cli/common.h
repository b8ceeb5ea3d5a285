// Helpers shared by the command handlers.
#pragma once

#include "cli/commands.h"

namespace kebab::cli {

Result<config::Config> LoadConfigFor(const Globals& g);

// Asks `question` [y/N] on the terminal; true for y/yes. With `yes` (--yes) there is no
// question; --json or a non-terminal stdin needs --yes: invalid_input naming `what`.
Result<bool> Confirm(const Output& out, bool yes, const std::string& what,
                     const std::string& question);

}  // namespace kebab::cli
