#include "source/ignore.h"

#include <cctype>
#include <cstdint>

#include "core/ids.h"
#include "core/unicode.h"

namespace kebab::source {
namespace {

// git's wildmatch outcomes. The two abort values let an enclosing `*` stop trying later
// start positions once no shorter remainder of the text can match, which keeps patterns
// with many stars from going exponential.
enum class Wild { kMatch, kNoMatch, kAbortAll, kAbortToStarStar };

bool IsContinuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// Index of the next code point after the one starting at `i`. `?`, `*` and bracket
// expressions work on whole code points so that Hangul or accented names behave as one
// character each (git itself counts bytes).
size_t NextCodePoint(std::string_view s, size_t i) {
  ++i;
  while (i < s.size() && IsContinuation(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// Decodes the code point at `i` and advances `i` past it. Malformed bytes decode as
// themselves, one at a time.
char32_t DecodeAt(std::string_view s, size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  int len = 1;
  char32_t cp = b0;
  if (b0 >= 0xF0 && b0 < 0xF8) {
    len = 4;
    cp = b0 & 0x07;
  } else if (b0 >= 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
  } else if (b0 >= 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
  }
  if (len > 1) {
    if (i + len > s.size()) {
      ++i;
      return b0;
    }
    for (int k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (!IsContinuation(b)) {
        ++i;
        return b0;
      }
      cp = (cp << 6) | (b & 0x3F);
    }
  }
  i += len;
  return cp;
}

bool InPosixClass(std::string_view name, char32_t c, bool& known) {
  known = true;
  if (c > 0x7F) return false;
  const int ch = static_cast<int>(c);
  if (name == "alnum") return std::isalnum(ch);
  if (name == "alpha") return std::isalpha(ch);
  if (name == "blank") return ch == ' ' || ch == '\t';
  if (name == "cntrl") return std::iscntrl(ch);
  if (name == "digit") return std::isdigit(ch);
  if (name == "graph") return std::isgraph(ch);
  if (name == "lower") return std::islower(ch);
  if (name == "print") return std::isprint(ch);
  if (name == "punct") return std::ispunct(ch);
  if (name == "space") return std::isspace(ch);
  if (name == "upper") return std::isupper(ch);
  if (name == "xdigit") return std::isxdigit(ch);
  known = false;
  return false;
}

// Matches `c` against the bracket expression that opens at p[pi] == '['; on success `pi`
// moves past the closing ']'. kAbortAll means the expression is malformed, which (as in
// git) makes the whole pattern match nothing.
Wild MatchBracket(std::string_view p, size_t& pi, char32_t c) {
  size_t i = pi + 1;
  bool negated = false;
  if (i < p.size() && (p[i] == '!' || p[i] == '^')) {
    negated = true;
    ++i;
  }
  bool matched = false;
  bool first = true;
  for (;;) {
    if (i >= p.size()) return Wild::kAbortAll;
    if (p[i] == ']' && !first) break;
    first = false;
    if (p[i] == '[' && i + 1 < p.size() && p[i + 1] == ':') {
      const size_t close = p.find(']', i + 2);
      if (close == std::string_view::npos) return Wild::kAbortAll;
      // "[:name:]" is a class; "[:" without ":]" before the next ']' is a plain '['.
      if (close >= i + 3 && p[close - 1] == ':') {
        bool known = false;
        if (InPosixClass(p.substr(i + 2, close - i - 3), c, known)) matched = true;
        if (!known) return Wild::kAbortAll;
        i = close + 1;
        continue;
      }
    }
    if (p[i] == '\\' && ++i >= p.size()) return Wild::kAbortAll;
    const char32_t lo = DecodeAt(p, i);
    if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
      ++i;
      if (p[i] == '\\' && ++i >= p.size()) return Wild::kAbortAll;
      const char32_t hi = DecodeAt(p, i);
      if (lo <= c && c <= hi) matched = true;
    } else if (c == lo) {
      matched = true;
    }
  }
  pi = i + 1;
  return matched != negated ? Wild::kMatch : Wild::kNoMatch;
}

// git's wildmatch with WM_PATHNAME: `*`, `?` and brackets never match '/',
// `**` between slashes (or at either end) matches across directories.
Wild DoWild(std::string_view p, size_t pi, std::string_view t, size_t ti) {
  while (pi < p.size()) {
    char pc = p[pi];
    if (ti >= t.size() && pc != '*') return Wild::kAbortAll;
    switch (pc) {
      case '?':
        if (t[ti] == '/') return Wild::kNoMatch;
        ++pi;
        ti = NextCodePoint(t, ti);
        continue;
      case '[': {
        if (t[ti] == '/') return Wild::kNoMatch;
        size_t next = ti;
        const char32_t c = DecodeAt(t, next);
        const Wild r = MatchBracket(p, pi, c);
        if (r != Wild::kMatch) return r;
        ti = next;
        continue;
      }
      case '*': {
        const size_t star = pi;
        while (pi < p.size() && p[pi] == '*') ++pi;
        bool match_slash = false;
        if (pi - star >= 2 && (star == 0 || p[star - 1] == '/') &&
            (pi == p.size() || p[pi] == '/')) {
          // "**/" may match no directory at all: "a/**/b" matches "a/b".
          if (pi < p.size() && DoWild(p, pi + 1, t, ti) == Wild::kMatch) return Wild::kMatch;
          match_slash = true;
        }
        if (pi == p.size()) {
          if (!match_slash && t.find('/', ti) != std::string_view::npos) return Wild::kNoMatch;
          return Wild::kMatch;
        }
        if (!match_slash && p[pi] == '/') {
          const size_t slash = t.find('/', ti);
          if (slash == std::string_view::npos) return Wild::kNoMatch;
          ti = slash;
          continue;
        }
        const char next = p[pi];
        const bool literal_next = next != '*' && next != '?' && next != '[' && next != '\\';
        while (ti < t.size()) {
          // What the star swallows must end right before the next literal, so jump there.
          if (literal_next) {
            while (ti < t.size() && t[ti] != next && (match_slash || t[ti] != '/')) ++ti;
            if (ti == t.size()) return Wild::kAbortAll;
            if (t[ti] != next) return Wild::kAbortToStarStar;
          }
          const Wild m = DoWild(p, pi, t, ti);
          if (m != Wild::kNoMatch) {
            if (!match_slash || m != Wild::kAbortToStarStar) return m;
          } else if (!match_slash && t[ti] == '/') {
            return Wild::kAbortToStarStar;
          }
          ti = NextCodePoint(t, ti);
        }
        return Wild::kAbortAll;
      }
      case '\\':
        if (pi + 1 >= p.size()) return Wild::kAbortAll;  // a dangling escape matches nothing
        pc = p[++pi];
        [[fallthrough]];
      default:
        if (t[ti] != pc) return Wild::kNoMatch;
        ++pi;
        ++ti;
        continue;
    }
  }
  return ti == t.size() ? Wild::kMatch : Wild::kNoMatch;
}

}  // namespace

IgnoreList::IgnoreList(std::string base, std::string_view file_contents)
    : base_(NormalizeWorkspacePath(base)) {
  if (file_contents.starts_with("\xEF\xBB\xBF")) file_contents.remove_prefix(3);
  while (!file_contents.empty()) {
    const size_t nl = file_contents.find('\n');
    AddLine(file_contents.substr(0, nl));
    if (nl == std::string_view::npos) break;
    file_contents.remove_prefix(nl + 1);
  }
}

IgnoreList::IgnoreList(std::string base, const std::vector<std::string>& patterns)
    : base_(NormalizeWorkspacePath(base)) {
  for (const std::string& p : patterns) AddLine(p);
}

void IgnoreList::AddLine(std::string_view line) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  if (line.empty() || line.front() == '#') return;
  // Trailing spaces go unless escaped; an escaped space keeps its backslash, which the
  // matcher reads as a literal space.
  size_t end = line.size();
  while (end > 0 && line[end - 1] == ' ') {
    size_t backslashes = 0;
    while (backslashes < end - 1 && line[end - 2 - backslashes] == '\\') ++backslashes;
    if (backslashes % 2 == 1) break;
    --end;
  }
  line = line.substr(0, end);

  Pattern pattern;
  if (!line.empty() && line.front() == '!') {
    pattern.negated = true;
    line.remove_prefix(1);
  }
  if (!line.empty() && line.back() == '/') {
    pattern.dir_only = true;
    line.remove_suffix(1);
  }
  pattern.anchored = line.find('/') != std::string_view::npos;
  if (!line.empty() && line.front() == '/') line.remove_prefix(1);
  if (line.empty()) return;
  pattern.glob = Nfc(line);
  patterns_.push_back(std::move(pattern));
}

IgnoreList::Verdict IgnoreList::Match(std::string_view workspace_path, bool is_dir) const {
  if (patterns_.empty()) return Verdict::kNone;
  std::string_view rel = workspace_path;
  if (!base_.empty()) {
    if (rel.size() <= base_.size() || !rel.starts_with(base_) || rel[base_.size()] != '/') {
      return Verdict::kNone;
    }
    rel.remove_prefix(base_.size() + 1);
  }
  if (rel.empty()) return Verdict::kNone;
  const size_t last_slash = rel.rfind('/');
  const std::string_view name =
      last_slash == std::string_view::npos ? rel : rel.substr(last_slash + 1);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->dir_only && !is_dir) continue;
    if (DoWild(it->glob, 0, it->anchored ? rel : name, 0) == Wild::kMatch) {
      return it->negated ? Verdict::kIncluded : Verdict::kIgnored;
    }
  }
  return Verdict::kNone;
}

}  // namespace kebab::source
