#include "store/path_glob.h"

#include "store/sqlite_util.h"

namespace kebab::store {
namespace {

// Matches a bracket class at pattern[pi] ('[' ... ']') against c; sets *next to the index
// after the class. Returns false for a malformed class (treated as a literal '[').
bool MatchClass(std::string_view p, size_t pi, char c, size_t* next, bool* matched) {
  size_t i = pi + 1;
  bool negate = i < p.size() && (p[i] == '!' || p[i] == '^');
  if (negate) ++i;
  bool hit = false;
  bool first = true;
  while (i < p.size() && (first || p[i] != ']')) {
    first = false;
    char lo = p[i];
    if (i + 2 < p.size() && p[i + 1] == '-' && p[i + 2] != ']') {
      if (c >= lo && c <= p[i + 2]) hit = true;
      i += 3;
    } else {
      if (c == lo) hit = true;
      ++i;
    }
  }
  if (i >= p.size()) return false;
  *next = i + 1;
  *matched = hit != negate;
  return true;
}

bool Match(std::string_view p, size_t pi, std::string_view s, size_t si) {
  while (pi < p.size()) {
    char pc = p[pi];
    if (pc == '*') {
      bool double_star = pi + 1 < p.size() && p[pi + 1] == '*';
      if (double_star) {
        size_t rest = pi + 2;
        // "**/" also matches zero directories.
        if (rest < p.size() && p[rest] == '/' && Match(p, rest + 1, s, si)) return true;
        for (size_t k = si; k <= s.size(); ++k) {
          if (Match(p, rest, s, k)) return true;
        }
        return false;
      }
      for (size_t k = si; k <= s.size(); ++k) {
        if (Match(p, pi + 1, s, k)) return true;
        if (k < s.size() && s[k] == '/') break;
      }
      return false;
    }
    if (si >= s.size()) return false;
    if (pc == '?') {
      if (s[si] == '/') return false;
      ++pi;
      ++si;
      continue;
    }
    if (pc == '[') {
      size_t next;
      bool matched;
      if (MatchClass(p, pi, s[si], &next, &matched)) {
        if (!matched || s[si] == '/') return false;
        pi = next;
        ++si;
        continue;
      }
    }
    if (pc != s[si]) return false;
    ++pi;
    ++si;
  }
  return si == s.size();
}

void SqlPathGlob(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc != 2 || sqlite3_value_type(argv[0]) == SQLITE_NULL ||
      sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_result_int(ctx, 0);
    return;
  }
  std::string_view pattern(reinterpret_cast<const char*>(sqlite3_value_text(argv[0])),
                           static_cast<size_t>(sqlite3_value_bytes(argv[0])));
  std::string_view path(reinterpret_cast<const char*>(sqlite3_value_text(argv[1])),
                        static_cast<size_t>(sqlite3_value_bytes(argv[1])));
  sqlite3_result_int(ctx, PathGlobMatch(pattern, path) ? 1 : 0);
}

}  // namespace

bool PathGlobMatch(std::string_view pattern, std::string_view path) {
  return Match(pattern, 0, path, 0);
}

Status RegisterPathGlobFunction(sqlite3* db) {
  int rc = sqlite3_create_function_v2(db, "kebab_path_glob", 2,
                                      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                      nullptr, SqlPathGlob, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return SqliteError(db, rc, "register kebab_path_glob");
  return Status::OK();
}

}  // namespace kebab::store
