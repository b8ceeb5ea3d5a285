#include "cli/common.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace kebab::cli {

Result<config::Config> LoadConfigFor(const Globals& g) {
  return config::LoadConfig({.explicit_path = g.config_path, .env = g.env});
}

Result<bool> Confirm(const Output& out, bool yes, const std::string& what,
                     const std::string& question) {
  if (yes) return true;
  if (!::isatty(STDIN_FILENO) || out.json) {
    return InvalidInput(what + " needs confirmation", "pass --yes to confirm");
  }
  std::fprintf(stderr, "%s [y/N] ", question.c_str());
  std::string answer;
  std::getline(std::cin, answer);
  return answer == "y" || answer == "Y" || answer == "yes";
}

}  // namespace kebab::cli
