// Running a helper program (the PDF worker; later OCR and audio ones) as an isolated child:
// its input written to its stdin, its stdout handed back line by line as it arrives, and a
// deadline after which it is killed. A child that crashes or hangs costs its caller one
// error, never the process.
// Thread safety: RunSubprocess may run on many threads at once (posix_spawn, no shared state).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kebab {

struct SubprocessResult {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it (SIGKILL after the deadline, a crash)
  bool timed_out = false;
  bool stopped = false;     // on_line asked to stop it
  std::string stderr_tail;  // the last 4 KiB it wrote on stderr
};

// Runs argv[0] (a path) with `input` on stdin; calls `on_line` with each stdout line (without
// its newline) and kills the child when it returns false or `timeout` passes. io_error when
// the program cannot be started; anything after that is in the result.
Result<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv, std::string_view input,
                                       std::chrono::milliseconds timeout,
                                       const std::function<bool(std::string_view line)>& on_line);

// The directory holding the running executable (helpers are installed beside it).
std::string ExecutableDir();

}  // namespace kebab
