// Timestamps as RFC 3339 strings, the form stored in SQLite and emitted on the wire.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace kebab {

// Current UTC time as "2026-04-27T06:42:11Z".
std::string NowRfc3339();

// Seconds since the Unix epoch for an RFC 3339 timestamp ("Z" or "+09:00" offsets, optional
// fractional seconds) or a bare date "2026-04-27" (midnight UTC). nullopt when malformed.
std::optional<int64_t> ParseRfc3339(std::string_view s);

// Formats epoch seconds as an RFC 3339 UTC string.
std::string FormatRfc3339(int64_t epoch_seconds);

// A length of time as a player shows it: "2:03", "1:02:03".
std::string FormatLength(int64_t seconds);

// Milliseconds on a monotonic clock, for durations.
int64_t MonotonicMillis();

// Splits the wall time since construction into consecutive named stages, in milliseconds
// (for --trace style timings).
class StageTimer {
 public:
  StageTimer() : started_(std::chrono::steady_clock::now()), stage_started_(started_) {}
  // Records the time since the previous stage ended (or since construction) as `name`.
  void End(const std::string& name) {
    const auto now = std::chrono::steady_clock::now();
    stages_[name] = Millis(stage_started_, now);
    stage_started_ = now;
  }
  double TotalMs() const { return Millis(started_, std::chrono::steady_clock::now()); }
  std::map<std::string, double>& stages() { return stages_; }

 private:
  static double Millis(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  }
  std::chrono::steady_clock::time_point started_, stage_started_;
  std::map<std::string, double> stages_;
};

}  // namespace kebab
