// The C and C++ lexer of the macro blanking (code_macros.cc): the source as tokens, comments
// dropped, literals and preprocessor lines kept whole so that nothing in them is taken for a
// macro, each word classified once (WordClass). Module-private to parse.
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace kebab::parse::internal {

enum class TokenKind : uint8_t { kWord, kNumber, kLiteral, kDirective, kPunct };

// What a word is, as bits of Token::word: worked out once, asked of every token many times.
enum WordClass : uint8_t {
  kBuiltinType = 1,      // `int`, `void`, ...: a word after one is the declared name
  kDeclarationWord = 2,  // starts or qualifies a declaration: `static`, `struct`, `public`, ...
  kKeyword = 4,          // any keyword, so no name
  kMacro = 8,            // spelt like a macro (IsMacroWord)
};

struct Token {
  uint32_t begin = 0, end = 0;
  TokenKind kind = TokenKind::kPunct;
  uint8_t word = 0;  // WordClass bits of a kWord
};

// Whether `word` is one of `words`.
bool OneOf(std::string_view word, std::initializer_list<std::string_view> words);

// Whether `c` may continue a C identifier.
bool IsWordChar(char c);

// The tokens of the C or C++ source `s`, in order.
std::vector<Token> Lex(std::string_view s);

}  // namespace kebab::parse::internal
