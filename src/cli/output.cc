#include "cli/output.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "app/wire.h"

namespace kebab::cli {
namespace {

std::string Wrap(bool on, const char* code, std::string_view s) {
  if (!on) return std::string(s);
  return std::string("\033[") + code + "m" + std::string(s) + "\033[0m";
}

}  // namespace

Output Output::Detect(bool json, bool quiet, bool verbose) {
  Output o;
  o.json = json;
  o.quiet = quiet || json;
  o.verbose = verbose;
  const bool no_color = std::getenv("NO_COLOR") != nullptr;
  o.stdout_tty = ::isatty(STDOUT_FILENO) && !no_color;
  o.stderr_tty = ::isatty(STDERR_FILENO);
  return o;
}

void Output::Json(const nlohmann::json& j) const {
  std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stdout);
}

void Output::Line(std::string_view text) const {
  if (json) return;
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
}

void Output::Note(std::string_view text) const {
  if (quiet) return;
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fputc('\n', stderr);
}

int Output::Fail(const Status& status) const {
  std::fflush(stdout);
  if (json) {
    std::string line =
        app::wire::Error(status).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::fprintf(stderr, "%s\n", line.c_str());
  } else {
    std::fprintf(stderr, "error: %s\n", status.message().c_str());
    if (!status.hint().empty()) std::fprintf(stderr, "  hint: %s\n", status.hint().c_str());
    if (verbose) {
      std::fprintf(stderr, "  code: %s\n", std::string(ErrorCodeName(status.code())).c_str());
    }
  }
  if (status.code() == ErrorCode::kReadonlyMode) return kExitNoResult;
  if (status.code() == ErrorCode::kCancelled) return kExitInterrupted;
  return kExitError;
}

std::string Output::Bold(std::string_view s) const {
  return Wrap(stdout_tty, "1", s);
}
std::string Output::Dim(std::string_view s) const {
  return Wrap(stdout_tty, "2", s);
}
std::string Output::Green(std::string_view s) const {
  return Wrap(stdout_tty, "32", s);
}
std::string Output::Red(std::string_view s) const {
  return Wrap(stdout_tty, "31", s);
}

}  // namespace kebab::cli
