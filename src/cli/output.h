// How the CLI talks to the user: --json / --quiet / --verbose, TTY detection, colours, and
// the mapping of failures to exit codes and error.v1 (spec §1.7, §10).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/status.h"

namespace kebab::cli {

// Exit codes (spec §1.7).
inline constexpr int kExitOk = 0;
inline constexpr int kExitNoResult = 1;  // zero hits, refusal, readonly block
inline constexpr int kExitError = 2;
inline constexpr int kExitUnhealthy = 3;
inline constexpr int kExitInterrupted = 130;

struct Output {
  bool json = false;
  bool quiet = false;
  bool verbose = false;
  bool stdout_tty = false;
  bool stderr_tty = false;

  static Output Detect(bool json, bool quiet, bool verbose);

  // One JSON document per line on stdout.
  void Json(const nlohmann::json& j) const;
  // Human line on stdout (ignored in --json mode).
  void Line(std::string_view text) const;
  // Human note on stderr (hints, progress); silent with --quiet or --json.
  void Note(std::string_view text) const;

  // Prints the failure (error.v1 on stderr with --json, else "error: …\n  hint: …") and
  // returns its exit code.
  int Fail(const Status& status) const;

  std::string Bold(std::string_view s) const;
  std::string Dim(std::string_view s) const;
  std::string Green(std::string_view s) const;
  std::string Red(std::string_view s) const;
};

}  // namespace kebab::cli
