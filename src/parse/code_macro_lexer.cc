#include "parse/internal/code_macro_lexer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <unordered_map>

namespace kebab::parse::internal {
namespace {

bool IsWordStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool IsDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c));
}

// The keywords by WordClass.
constexpr std::array<std::string_view, 16> kBuiltinTypes = {
    "auto", "bool", "char",  "char8_t", "char16_t", "char32_t", "double",  "float",
    "int",  "long", "short", "signed",  "unsigned", "void",     "wchar_t", "_Bool"};
constexpr std::array<std::string_view, 29> kDeclarationWords = {
    "class",    "const",        "consteval", "constexpr", "constinit",    "enum",
    "explicit", "extern",       "friend",    "inline",    "mutable",      "namespace",
    "private",  "protected",    "public",    "register",  "static",       "struct",
    "template", "thread_local", "typedef",   "typename",  "union",        "using",
    "virtual",  "volatile",     "_Atomic",   "_Noreturn", "_Thread_local"};
constexpr std::array<std::string_view, 35> kOtherKeywords = {
    "alignas", "alignof",  "break",    "case",     "co_await", "co_return", "co_yield",
    "concept", "continue", "decltype", "default",  "delete",   "do",        "else",
    "false",   "final",    "for",      "goto",     "if",       "new",       "noexcept",
    "nullptr", "operator", "override", "requires", "return",   "sizeof",    "static_assert",
    "switch",  "this",     "throw",    "true",     "typeid",   "while",     "asm"};

// A macro's name by its spelling: capitals, digits and underscores with two capitals at least
// (`SQLITE_API`, `Q_OBJECT`; not a template's `T`), or a compiler's or system header's word
// (`__init`, `__attribute__`).
bool IsMacroWord(std::string_view w) {
  // C99's pragma operator and C's one macro taking a type, which the grammars do not know.
  if (w == "_Pragma" || w == "va_arg") return true;
  if (w.size() > 2 && w.starts_with("__")) return true;
  if (w.empty() || !std::isupper(static_cast<unsigned char>(w[0]))) return false;
  int capitals = 0;
  for (char c : w) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      ++capitals;
    } else if (!IsDigit(c) && c != '_') {
      return false;
    }
  }
  return capitals >= 2;
}

// The WordClass bits of the word `w`.
uint8_t ClassOf(std::string_view w) {
  static const std::unordered_map<std::string_view, uint8_t> kKeywords = [] {
    std::unordered_map<std::string_view, uint8_t> m;
    for (std::string_view k : kBuiltinTypes) m[k] = kBuiltinType | kDeclarationWord | kKeyword;
    for (std::string_view k : kDeclarationWords) m[k] = kDeclarationWord | kKeyword;
    for (std::string_view k : kOtherKeywords) m[k] = kKeyword;
    return m;
  }();
  const auto it = kKeywords.find(w);
  if (it != kKeywords.end()) return it->second;
  return IsMacroWord(w) ? kMacro : 0;
}

// The end of the string or character literal whose quote is at `i`; an unterminated one ends
// at its line's end.
size_t LiteralEnd(std::string_view s, size_t i) {
  const char quote = s[i];
  for (size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\') {
      ++j;
    } else if (s[j] == quote) {
      return j + 1;
    } else if (s[j] == '\n') {
      return j;
    }
  }
  return s.size();
}

// The end of the raw string literal whose quote is at `i`: `R"delim( ... )delim"`.
size_t RawLiteralEnd(std::string_view s, size_t i) {
  const size_t open = s.find('(', i + 1);
  if (open == std::string_view::npos || open - i > 17) return LiteralEnd(s, i);
  const std::string close = ")" + std::string(s.substr(i + 1, open - i - 1)) + "\"";
  const size_t end = s.find(close, open + 1);
  return end == std::string_view::npos ? s.size() : end + close.size();
}

// The end of the comment that starts at `i`, or `i` when none does.
size_t CommentEnd(std::string_view s, size_t i) {
  if (s[i] != '/' || i + 1 >= s.size()) return i;
  if (s[i + 1] == '*') {
    const size_t end = s.find("*/", i + 2);
    return end == std::string_view::npos ? s.size() : end + 2;
  }
  if (s[i + 1] != '/') return i;
  size_t j = i + 2;
  while (j < s.size() && (s[j] != '\n' || s[j - 1] == '\\')) ++j;  // `\` continues the line
  return j;
}

// The end of the preprocessor line whose `#` is at `i`: its continuation lines, and comments
// that run past its line, are its.
size_t DirectiveEnd(std::string_view s, size_t i) {
  size_t j = i + 1;
  while (j < s.size() && s[j] != '\n') {
    if (s[j] == '\\' && j + 1 < s.size() && (s[j + 1] == '\n' || s[j + 1] == '\r')) {
      j = s.find('\n', j + 1) + 1;
    } else if (const size_t end = CommentEnd(s, j); end != j) {
      j = end;
    } else if (s[j] == '"' || s[j] == '\'') {
      j = LiteralEnd(s, j);
    } else {
      ++j;
    }
  }
  return std::min(j, s.size());
}

// `R`, `LR`, `u8R`, ... before a quote start a raw string; `L`, `u`, `U`, `u8` a wide one.
bool IsRawPrefix(std::string_view w) {
  return OneOf(w, {"R", "LR", "uR", "UR", "u8R"});
}
bool IsLiteralPrefix(std::string_view w) {
  return OneOf(w, {"L", "u", "U", "u8"});
}

size_t NumberEnd(std::string_view s, size_t i) {
  size_t j = i + 1;
  while (j < s.size()) {
    if (IsWordChar(s[j]) || s[j] == '.') {
      ++j;
    } else if (s[j] == '\'' && j + 1 < s.size() && IsWordChar(s[j + 1])) {
      j += 2;  // a digit separator
    } else if ((s[j] == '+' || s[j] == '-') &&
               std::string_view("eEpP").find(s[j - 1]) != std::string_view::npos) {
      ++j;  // an exponent's sign
    } else {
      break;
    }
  }
  return j;
}

}  // namespace

bool IsWordChar(char c) {
  return IsWordStart(c) || std::isdigit(static_cast<unsigned char>(c));
}

bool OneOf(std::string_view word, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

std::vector<Token> Lex(std::string_view s) {
  static constexpr std::array<std::string_view, 20> kPairs = {
      "::", "->", "&&", "||", "==", "!=", "<=", ">=", "++", "--",
      "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", "##"};
  std::vector<Token> out;
  bool line_start = true;  // only blanks since the last newline: a `#` starts a directive
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (const size_t end = CommentEnd(s, i); end != i) {
      i = end;
      continue;
    }
    Token t;
    t.begin = static_cast<uint32_t>(i);
    if (c == '#' && line_start) {
      t.kind = TokenKind::kDirective;
      i = DirectiveEnd(s, i);
    } else if (IsWordStart(c)) {
      size_t j = i;
      while (j < s.size() && IsWordChar(s[j])) ++j;
      const std::string_view word = s.substr(i, j - i);
      t.kind = TokenKind::kWord;
      t.word = ClassOf(word);
      i = j;
      if (j < s.size() && s[j] == '"' && IsRawPrefix(word)) {
        t.kind = TokenKind::kLiteral;
        i = RawLiteralEnd(s, j);
      } else if (j < s.size() && (s[j] == '"' || s[j] == '\'') && IsLiteralPrefix(word)) {
        t.kind = TokenKind::kLiteral;
        i = LiteralEnd(s, j);
      }
    } else if (IsDigit(c) || (c == '.' && i + 1 < s.size() && IsDigit(s[i + 1]))) {
      t.kind = TokenKind::kNumber;
      i = NumberEnd(s, i);
    } else if (c == '"' || c == '\'') {
      t.kind = TokenKind::kLiteral;
      i = LiteralEnd(s, i);
    } else {
      const std::string_view two = s.substr(i, 2);
      i += std::find(kPairs.begin(), kPairs.end(), two) != kPairs.end() ? 2 : 1;
    }
    t.end = static_cast<uint32_t>(i);
    line_start = false;
    out.push_back(t);
  }
  return out;
}

}  // namespace kebab::parse::internal
