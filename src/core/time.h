// Timestamps as RFC 3339 strings, the form stored in SQLite and emitted on the wire.
#pragma once

#include <cstdint>
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

// Milliseconds on a monotonic clock, for durations.
int64_t MonotonicMillis();

}  // namespace kebab
