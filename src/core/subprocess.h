// Running a helper program (the PDF worker; later OCR and audio ones) as an isolated child:
// its input written to its stdin, its stdout handed back line by line as it arrives, and a
// deadline after which it is killed. A child that crashes or hangs costs its caller one
// error, never the process.
// Thread safety: RunSubprocess may run on many threads at once (posix_spawn, no shared state).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
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

// A helper program kept running for many requests (the OCR worker): each Exchange writes one
// request to its stdin and reads its one-line reply from its stdout, under a deadline. A child
// that misses the deadline is killed; one that dies is reported with its exit status and the
// tail of its stderr. Not thread-safe: one caller at a time (a pool lends each to one thread).
class ChildProcess {
 public:
  // io_error when the program cannot be started.
  static Result<std::unique_ptr<ChildProcess>> Start(const std::vector<std::string>& argv);
  ~ChildProcess();  // closes its stdin and reaps it, killing it after a moment
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes `request` and returns the next stdout line (without its newline). timeout when no
  // line came in time (the child is then killed); io_error when the child has ended. After a
  // failure the child is gone and alive() is false.
  Result<std::string> Exchange(std::string_view request, std::chrono::milliseconds timeout);
  bool alive() const { return pid_ > 0; }

 private:
  ChildProcess() = default;
  // Kills (if asked) and reaps the child; says how it ended.
  std::string Reap(bool kill);

  int pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string pending_;      // stdout bytes after the last line returned
  std::string stderr_tail_;  // the last 4 KiB it wrote on stderr
};

// The directory holding the running executable.
std::string ExecutableDir();

// Where helper program `name` is for a kebab whose executable is in `exe_dir`: in
// `exe_dir`/../libexec/kebab when it is there (the installed layout: kebab in <prefix>/bin, its
// workers in <prefix>/libexec/kebab), else beside the executable (the build tree).
std::string FindHelper(const std::string& exe_dir, std::string_view name);

// A helper program's path: $`env_var` when set and not empty, else FindHelper for the running
// executable.
std::string HelperPath(const char* env_var, std::string_view name);

}  // namespace kebab
