#include "core/time.h"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace kebab {
namespace {

// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

bool ReadDigits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

std::string NowRfc3339() {
  // Ingest stamps every document and progress event; formatting once per second per thread
  // keeps gmtime and snprintf out of that loop.
  thread_local int64_t formatted_second = -1;
  thread_local std::string formatted;
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  if (now != formatted_second) {
    formatted = FormatRfc3339(now);
    formatted_second = now;
  }
  return formatted;
}

std::string FormatRfc3339(int64_t epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::optional<int64_t> ParseRfc3339(std::string_view s) {
  int y, mo, d, h = 0, mi = 0, sec = 0;
  if (!ReadDigits(s, 0, 4, &y) || s.size() < 10 || s[4] != '-' || !ReadDigits(s, 5, 2, &mo) ||
      s[7] != '-' || !ReadDigits(s, 8, 2, &d))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return std::nullopt;
  int64_t offset = 0;
  if (s.size() > 10) {
    if ((s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !ReadDigits(s, 11, 2, &h) ||
        s.size() < 19 || s[13] != ':' || !ReadDigits(s, 14, 2, &mi) || s[16] != ':' ||
        !ReadDigits(s, 17, 2, &sec))
      return std::nullopt;
    if (h > 23 || mi > 59 || sec > 60) return std::nullopt;
    size_t p = 19;
    if (p < s.size() && s[p] == '.') {
      ++p;
      while (p < s.size() && s[p] >= '0' && s[p] <= '9') ++p;
    }
    if (p >= s.size()) return std::nullopt;
    if (s[p] == 'Z' || s[p] == 'z') {
      if (p + 1 != s.size()) return std::nullopt;
    } else if (s[p] == '+' || s[p] == '-') {
      int oh, om;
      if (p + 6 != s.size() || !ReadDigits(s, p + 1, 2, &oh) || s[p + 3] != ':' ||
          !ReadDigits(s, p + 4, 2, &om))
        return std::nullopt;
      offset = (oh * 3600 + om * 60) * (s[p] == '+' ? 1 : -1);
    } else {
      return std::nullopt;
    }
  }
  int64_t days = DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return days * 86400 + h * 3600 + mi * 60 + sec - offset;
}

std::string FormatLength(int64_t seconds) {
  char buf[48];
  const auto s = static_cast<long long>(seconds);
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  }
  return buf;
}

int64_t MonotonicMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace kebab
