// Blanking the C and C++ macro invocations around syntax errors (code_macros.h). The source is
// cut into tokens (comments dropped; literals and preprocessor lines kept whole, so nothing in
// them is taken for a macro), its brackets paired as a preprocessor taking each conditional's
// first branch would see them. A macro word X (IsMacroWord) — with its arguments, when a `(`
// follows it — is blanked, inside an erroneous region only, when it stands where C has no room
// for a word; with P the token before X and N the first token after it that is not blanked:
//  1. X qualifies the declaration N starts, after a statement's end or another qualifier:
//     `SQLITE_API int f()`, `static SQLITE_NOINLINE void f()`, `Q_OBJECT public:`,
//     `GGML_API GGML_ATTRIBUTE_FORMAT(2, 3) void f()`.
//  2. X stands between a type (P) and the declared name (N): `const float * RESTRICT x`,
//     `DWORD WINAPI Proc(LPVOID p)`.
//  3. X follows a declarator (P) and N is `;`, `{`, `=`, `,` or `:`:
//     `std::string name_ GUARDED_BY(mu_);`, `void f(int) GGML_NORETURN;`; or X is a calling
//     convention in a function pointer's declarator: `char *(SQLITE_CDECL *f)(const char *)`.
//  4. X is a statement of its own: P ends a statement and N is `;` (blanked with it), `}`, a
//     preprocessor line, the end or a word (a macro bringing its own `;`), or, X having no
//     arguments, a block or a statement's keyword: `KEBAB_ASSIGN_OR_RETURN(auto x, F());`,
//     `_Pragma("unroll")`, `GGML_TENSOR_LOCALS(int64_t, ne0, src0, ne)`, `SEH_TRY {`,
//     `GGML_TENSOR_UNARY_OP_LOCALS\n for (...)`.
// Whatever its spelling, a word is blanked when glued to a string (`"%" PRIu64 "\n"`), and so is
// a call at a statement's start whose arguments hold a statement (`SimulateIOError(return
// SQLITE_IOERR);`). A macro call whose arguments hold the error loses its arguments
// (`&GLOBAL(struct Prng, prng)`, `va_arg(ap, int *)`); a braced default argument (`= {...}`
// before `,` or `)`) becomes `= 0`; a preprocessor line inside parentheses or an initializer
// goes.
//
// Conditionals (`#if` ... `#endif`) inside a function are read as a preprocessor would read them
// with one branch taken — the first, or the one after `#if 0` — the others blanked: those whose
// branches open or close a block they do not close or end on a dangling `else` (`#if A\n
// if (a) {\n#else\n {\n#endif`, `} else\n#endif\n{`) all at once before the regions (the errors
// they cause may run to the file's end), and those in an erroneous region with the region.
// Before the first parse, and everywhere, the macro words between `class`, `struct` or `union`
// and the name of a type being defined are blanked (`class DLL_API Foo : Base {`).
#include "parse/internal/code_macros.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parse/internal/code_macro_errors.h"
#include "parse/internal/code_macro_lexer.h"

namespace kebab::parse::internal {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// Rounds of blanking and parsing again: blanking one region can bring out errors that a larger
// error node hid (a whole file's, when recovery went wrong); a third round rarely finds more.
constexpr int kMaxRounds = 3;

// Tokens [first, last] are blanked; with `zero`, the first byte becomes `0` (a default argument).
struct Blank {
  size_t first = 0, last = 0;
  bool zero = false;
};

// The source's tokens, which of them are blanked, and the shapes of what is blanked (see the
// top).
class Blanker {
 public:
  explicit Blanker(std::string_view source)
      : source_(source),
        tokens_(Lex(source)),
        match_(tokens_.size(), kNone),
        enclosing_(tokens_.size(), kNone),
        group_(tokens_.size(), kNone),
        next_branch_(tokens_.size(), kNone),
        other_branches_(tokens_.size(), 0),
        blanked_(tokens_.size(), false),
        rejected_(tokens_.size(), false) {
    FindConditionals();
    MatchBrackets();
    line_starts_.push_back(0);
    for (size_t i = source.find('\n'); i != std::string_view::npos; i = source.find('\n', i + 1)) {
      line_starts_.push_back(static_cast<uint32_t>(i + 1));
    }
  }

  // The macro words between `class`, `struct` or `union` and the name of the type being
  // defined, everywhere: `class DLL_API Foo {`, `struct PACKED foo : base {`.
  std::vector<Blank> TagMacros() {
    std::vector<Blank> out;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (!IsWord(i) || !OneOf(Text(i), {"class", "struct", "union"})) continue;
      size_t j = i + 1;
      std::vector<Blank> macros;
      while (Has(j, kMacro)) {
        const size_t last = Is(j + 1, "(") ? match_[j + 1] : j;
        if (last == kNone) break;
        macros.push_back({j, last});
        j = last + 1;
      }
      if (macros.empty() || !IsName(j)) continue;
      if (!Is(j + 1, "{") && !Is(j + 1, ":") && !(IsWord(j + 1) && Text(j + 1) == "final")) {
        continue;
      }
      for (const Blank& b : macros) Mark(b);
      out.insert(out.end(), macros.begin(), macros.end());
    }
    return out;
  }

  // The conditionals inside functions or expressions with a branch that opens or closes a
  // bracket it does not close or open (`#if A\n if (a) {\n#else\n {\n#endif`), read by one
  // branch: the errors they cause may be far from them (a block left open runs on to the end).
  std::vector<Blank> UnbalancedConditionals() {
    std::vector<Blank> out;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (group_[i] != i || Inside(enclosing_[i]) == Scope::kDeclarations || Balanced(i)) {
        continue;
      }
      const std::vector<Blank> branches = OtherBranches(i);
      for (const Blank& b : branches) Mark(b);
      out.insert(out.end(), branches.begin(), branches.end());
    }
    return out;
  }

  // Blanks what the shapes at the top find among the tokens that start in `region`, whose
  // errors are among `errors`, and returns it.
  std::vector<Blank> Propose(const Region& region, const std::vector<ErrorSite>& errors) {
    const auto first = std::lower_bound(tokens_.begin(), tokens_.end(), region.begin,
                                        [](const Token& t, uint32_t b) { return t.begin < b; });
    const size_t from = static_cast<size_t>(first - tokens_.begin());
    std::vector<Blank> out;
    // Blanking one word can make room for its neighbour (`SQLITE_API SQLITE_DEPRECATED void`):
    // again until nothing changes.
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = from; i < tokens_.size() && tokens_[i].begin < region.end; ++i) {
        if (blanked_[i] || rejected_[i]) continue;
        std::optional<Blank> blank;
        if (Is(i, "=")) {
          blank = DefaultArgument(i);
        } else if (tokens_[i].kind == TokenKind::kDirective) {
          const Scope scope = Inside(enclosing_[i]);
          if (group_[i] != kNone && scope != Scope::kDeclarations) {
            const std::vector<Blank> branches = OtherBranches(group_[i]);
            for (const Blank& b : branches) Mark(b);
            out.insert(out.end(), branches.begin(), branches.end());
            changed = changed || !branches.empty();
            continue;
          }
          if (scope == Scope::kExpression) blank = Blank{i, i};
        } else {
          blank = Invocation(i);
          if (!blank) blank = Arguments(i, errors);
        }
        if (!blank) continue;
        Mark(*blank);
        out.push_back(*blank);
        changed = true;
      }
    }
    return out;
  }

  // Takes back `blanks`, and never proposes them again.
  void Reject(const std::vector<Blank>& blanks) {
    for (const Blank& b : blanks) {
      for (size_t i = b.first; i <= b.last; ++i) blanked_[i] = false;
      rejected_[b.first] = true;
    }
  }

  // Writes `blanks` into `text`, a copy of the source.
  void Apply(const std::vector<Blank>& blanks, std::string* text) const {
    for (const Blank& b : blanks) {
      for (uint32_t k = tokens_[b.first].begin; k < tokens_[b.last].end; ++k) {
        if ((*text)[k] != '\n' && (*text)[k] != '\r') (*text)[k] = ' ';
      }
      if (b.zero) (*text)[tokens_[b.first].begin] = '0';
    }
  }

  // `text` parsed again, `old` being the tree of `text` before `changed` were written into it
  // or taken back: tree-sitter reparses only what they touch, several times faster on a large
  // file than a parse from scratch.
  TreePtr Reparse(TSParser* parser, const TSTree* old, std::string_view text,
                  const std::vector<Blank>& changed) const {
    TreePtr edited(ts_tree_copy(old), ts_tree_delete);
    for (const Blank& b : changed) {
      // Blanking keeps every newline, so a point is the same before and after.
      const TSPoint start = PointOf(tokens_[b.first].begin), end = PointOf(tokens_[b.last].end);
      const TSInputEdit edit{
          tokens_[b.first].begin, tokens_[b.last].end, tokens_[b.last].end, start, end, end};
      ts_tree_edit(edited.get(), &edit);
    }
    return TreePtr(ts_parser_parse_string(parser, edited.get(), text.data(),
                                          static_cast<uint32_t>(text.size())),
                   ts_tree_delete);
  }

 private:
  TSPoint PointOf(uint32_t byte) const {
    const auto line = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte) - 1;
    return {static_cast<uint32_t>(line - line_starts_.begin()), byte - *line};
  }

  void FindConditionals() {
    std::vector<std::pair<size_t, size_t>> open;  // per open conditional: its first, last line
    std::vector<bool> past_first;  // per open conditional: in a branch after its first
    uint32_t level = 0;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const Conditional c =
          tokens_[i].kind == TokenKind::kDirective ? ConditionalOf(Text(i)) : Conditional::kNone;
      if (c == Conditional::kNone || (c != Conditional::kIf && open.empty())) {
        other_branches_[i] = level;
        continue;
      }
      if (c == Conditional::kIf) {
        other_branches_[i] = level;
        open.emplace_back(i, i);
        past_first.push_back(false);
        group_[i] = i;
        continue;
      }
      if (past_first.back()) --level;
      other_branches_[i] = level;
      group_[i] = open.back().first;
      next_branch_[open.back().second] = i;
      open.back().second = i;
      if (c == Conditional::kEndif) {
        open.pop_back();
        past_first.pop_back();
      } else {
        past_first.back() = true;
        ++level;
      }
    }
  }

  // Pairs the brackets as a preprocessor taking every conditional's first branch would see
  // them, and those of the other branches within their branch, so that branches opening the
  // same block twice (`#if A\n if (a) {\n#else\n {\n#endif`) leave the rest paired.
  void MatchBrackets() {
    std::vector<std::vector<size_t>> open{{}};  // per level of other_branches_: open brackets
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const uint32_t level = other_branches_[i];
      // A conditional's line ends the branch before it, and that branch's own brackets.
      open.resize(group_[i] != kNone ? level + 1 : std::max<size_t>(open.size(), level + 1));
      for (size_t l = level + 1; l-- > 0;) {
        if (!open[l].empty()) {
          enclosing_[i] = open[l].back();
          break;
        }
      }
      if (tokens_[i].kind != TokenKind::kPunct || Text(i).size() != 1) continue;
      const char c = Text(i)[0];
      std::vector<size_t>& stack = open[level];
      if (c == '(' || c == '[' || c == '{') {
        stack.push_back(i);
        continue;
      }
      const char opening = c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : 0;
      if (opening == 0) continue;
      for (size_t k = stack.size(); k-- > 0;) {
        if (Text(stack[k])[0] != opening) continue;
        match_[stack[k]] = i;
        match_[i] = stack[k];
        stack.resize(k);  // brackets left open inside the pair stay open no longer
        break;
      }
    }
  }

  std::string_view Text(size_t i) const {
    return source_.substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin);
  }
  bool Is(size_t i, std::string_view punct) const {
    return i < tokens_.size() && tokens_[i].kind == TokenKind::kPunct && Text(i) == punct;
  }
  bool IsWord(size_t i) const { return i < tokens_.size() && tokens_[i].kind == TokenKind::kWord; }
  bool Has(size_t i, WordClass c) const { return IsWord(i) && (tokens_[i].word & c) != 0; }
  bool IsName(size_t i) const { return IsWord(i) && !Has(i, kKeyword); }
  bool IsString(size_t i) const {
    return i < tokens_.size() && tokens_[i].kind == TokenKind::kLiteral && Text(i).ends_with('"');
  }

  void Mark(const Blank& b) {
    for (size_t i = b.first; i <= b.last; ++i) blanked_[i] = true;
  }

  size_t NextKept(size_t i) const {
    while (i < tokens_.size() && blanked_[i]) ++i;
    return i < tokens_.size() ? i : kNone;
  }

  // Whether token `p` (kNone: none) ends a statement or stands at a declaration's start.
  bool EndsStatement(size_t p) const {
    return p == kNone || blanked_[p] || tokens_[p].kind == TokenKind::kDirective || Is(p, ";") ||
           Is(p, "{") || Is(p, "}") || Is(p, ":");
  }

  // Whether token `p` ends a type: `int`, `Foo`, `*`, `&`, `>`, or a `const` after one of them.
  bool EndsType(size_t p) const {
    if (p == kNone || blanked_[p]) return false;
    if (Is(p, "*") || Is(p, "&") || Is(p, "&&") || Is(p, ">")) return true;
    if (!IsWord(p)) return false;
    if (Text(p) == "const" || Text(p) == "volatile") return p > 0 && EndsType(p - 1);
    return Has(p, kBuiltinType) || !Has(p, kKeyword);
  }

  // Whether token `p` ends a declarator: a name, an array's `]`, a function's parameters.
  bool EndsDeclarator(size_t p) const {
    if (p == kNone || blanked_[p]) return false;
    if (IsName(p) || Is(p, "]")) return true;
    if (IsWord(p) && OneOf(Text(p), {"const", "override", "final", "noexcept"})) {
      return p > 0 && EndsDeclarator(p - 1);
    }
    return Is(p, ")") && match_[p] != kNone && match_[p] > 0 && IsName(match_[p] - 1);
  }

  // Whether token `n` starts a declaration: a declaration word, or a type name followed by the
  // declarator (`sqlite3_int64 sqlite3_changes64(...)`, `ggml_tensor * t`).
  bool StartsDeclaration(size_t n) const {
    if (!IsWord(n)) return false;
    if (Has(n, kDeclarationWord)) return true;
    if (Has(n, kKeyword)) return false;
    const size_t after = NextKept(n + 1);
    return IsWord(after) || Is(after, "*") || Is(after, "&") || Is(after, "&&") ||
           Is(after, "::") || Is(after, "<");
  }

  // Whether token `n` is the name a declaration declares.
  bool IsDeclaredName(size_t n) const {
    if (!IsName(n)) return false;
    const size_t after = n + 1;
    return after >= tokens_.size() || Is(after, "(") || Is(after, ")") || Is(after, ",") ||
           Is(after, ";") || Is(after, "=") || Is(after, "[") || Is(after, "{") || Is(after, ":");
  }

  enum class Scope { kDeclarations, kCode, kExpression };

  // What the bracket `open` (kNone: none, the file) holds: declarations (a file's, a
  // namespace's, a class's), a function's code, or an expression (parentheses, an initializer).
  Scope Inside(size_t open) const {
    if (open == kNone) return Scope::kDeclarations;
    if (!Is(open, "{")) return Scope::kExpression;
    const size_t before = open == 0 ? kNone : open - 1;
    if (Is(before, ")")) {
      // `(struct t) {` opens a compound literal; `f(...) {` and `if (...) {` open code.
      const size_t paren = match_[before];
      return paren != kNone && paren > 0 && StartsInitializer(paren - 1) ? Scope::kExpression
                                                                         : Scope::kCode;
    }
    if (Is(before, "{")) return Inside(before);
    if (StartsInitializer(before)) return Scope::kExpression;
    if (Is(before, ";") || Is(before, "}") || Is(before, ":")) {
      return Inside(enclosing_[open]) == Scope::kDeclarations ? Scope::kDeclarations : Scope::kCode;
    }
    if (IsWord(before) &&
        OneOf(Text(before), {"else", "do", "try", "const", "override", "noexcept", "mutable"})) {
      return Scope::kCode;
    }
    return Scope::kDeclarations;
  }

  // Whether a `{` after token `p` opens an initializer.
  bool StartsInitializer(size_t p) const {
    return Is(p, "=") || Is(p, ",") || Is(p, "(") || (IsWord(p) && Text(p) == "return");
  }

  // Whether the call whose `(` is token `open` holds a statement in its arguments, which only
  // a macro's can: a `;` or a `return`, `break`, `continue` or `goto`.
  bool HoldsStatement(size_t open) const {
    for (size_t k = open + 1; k < match_[open]; ++k) {
      if (enclosing_[k] != open) continue;
      if (Is(k, ";") || (IsWord(k) && OneOf(Text(k), {"return", "break", "continue", "goto"}))) {
        return true;
      }
    }
    return false;
  }

  // Whether every branch of the conditional whose `#if` is token `first` closes the brackets it
  // opens and ends no `else` (reading the conditionals inside by their first branch).
  bool Balanced(size_t first) const {
    const uint32_t outside = other_branches_[first];
    for (size_t line = first; next_branch_[line] != kNone; line = next_branch_[line]) {
      const uint32_t level = outside + (line == first ? 0 : 1);
      int depth = 0;
      size_t last = kNone;  // the branch's last token
      for (size_t k = line + 1; k < next_branch_[line]; ++k) {
        if (other_branches_[k] != level) continue;
        last = k;
        if (tokens_[k].kind != TokenKind::kPunct || Text(k).size() != 1) continue;
        const char c = Text(k)[0];
        if (c == '(' || c == '[' || c == '{') ++depth;
        if ((c == ')' || c == ']' || c == '}') && --depth < 0) return false;
      }
      // An `else` at the end leaves its statement to what follows the conditional.
      if (depth != 0 || (IsWord(last) && Text(last) == "else")) return false;
    }
    return true;
  }

  enum class Conditional { kNone, kIf, kElse, kEndif };

  // What a preprocessor line is in a conditional: `#if`, `#ifdef`, `#ifndef` open one,
  // `#elif...` and `#else` start another branch, `#endif` closes it.
  static Conditional ConditionalOf(std::string_view directive) {
    directive.remove_prefix(1);
    while (!directive.empty() && (directive[0] == ' ' || directive[0] == '\t')) {
      directive.remove_prefix(1);
    }
    if (directive.starts_with("if")) return Conditional::kIf;
    if (directive.starts_with("el")) return Conditional::kElse;
    if (directive.starts_with("endif")) return Conditional::kEndif;
    return Conditional::kNone;
  }

  // The conditional whose `#if` is token `first`, read as a preprocessor would read it with one
  // branch taken: its lines and its other branches blanked. The branch taken is the first, or
  // the second after an `#if 0`. None when it has no `#endif` or was blanked already.
  std::vector<Blank> OtherBranches(size_t first) const {
    std::vector<size_t> lines{first};
    for (size_t i = next_branch_[first]; i != kNone; i = next_branch_[i]) lines.push_back(i);
    if (lines.size() < 2 || ConditionalOf(Text(lines.back())) != Conditional::kEndif ||
        blanked_[first] || rejected_[first]) {
      return {};
    }
    std::string_view condition = Text(first).substr(Text(first).find("if") + 2);
    while (!condition.empty() && std::isspace(static_cast<unsigned char>(condition[0]))) {
      condition.remove_prefix(1);
    }
    const bool never = condition.starts_with('0') &&
                       (condition.size() == 1 || !IsWordChar(condition[1]));  // `#if 0`
    const size_t taken = never ? 1 : 0;
    std::vector<Blank> out;
    for (size_t b = 0; b + 1 < lines.size(); ++b) {
      out.push_back({lines[b], b == taken ? lines[b] : lines[b + 1] - 1});
    }
    out.push_back({lines.back(), lines.back()});
    return out;
  }

  // The macro invocation starting at token `i` when it has one of the shapes at the top.
  std::optional<Blank> Invocation(size_t i) const {
    if (!IsName(i)) return std::nullopt;
    const bool call = Is(i + 1, "(");
    const size_t last = call ? match_[i + 1] : i;
    if (last == kNone || Is(i + 1, "::") || Is(i + 1, "<")) return std::nullopt;
    const size_t p = i == 0 ? kNone : i - 1;
    if (Is(p, "::") || Is(p, ".") || Is(p, "->")) return std::nullopt;  // a member's name
    const size_t n = NextKept(last + 1);
    // Whatever its name, a call holding a statement is a macro's, which brings its own `;`
    // (`SimulateIOError(return SQLITE_IOERR;)`, `TESTONLY( int n = 0; )`).
    if (call && EndsStatement(p) && HoldsStatement(i + 1)) return Blank{i, Is(n, ";") ? n : last};
    // So is a word glued to a string (`"%" PRIu64 "\n"`).
    if (!call && ((IsString(p) && (IsString(n) || Is(n, ",") || Is(n, ")"))) ||
                  (IsString(n) && (Is(p, "(") || Is(p, ","))))) {
      return Blank{i, last};
    }
    if (!Has(i, kMacro)) return std::nullopt;
    const bool p_qualifies = EndsStatement(p) || tokens_[p].kind == TokenKind::kLiteral ||
                             Is(p, ">") || Has(p, kDeclarationWord);
    // Before another macro's call too, which blanking this one lets its own shape show
    // (`Q_OBJECT\n Q_PROPERTY(int size READ size)`).
    const bool before_macro_call = Has(n, kMacro) && Is(n + 1, "(");
    if ((p_qualifies && (StartsDeclaration(n) || before_macro_call)) ||
        (EndsType(p) && IsDeclaredName(n))) {
      return Blank{i, last};
    }
    // A calling convention in a function pointer's declarator: `char *(SQLITE_CDECL *f)(...)`,
    // `typedef cl_int(CL_API_CALL *fn)(...)` — not `f(SIZE * 2)`, whose `(` follows a callee.
    if (!call && Is(p, "(") && Is(n, "*") && p > 0 &&
        (Is(p - 1, "*") || Is(p - 1, "&") || Has(p - 1, kBuiltinType) ||
         (IsName(p - 1) && p > 1 && IsWord(p - 2) && Text(p - 2) == "typedef"))) {
      return Blank{i, last};
    }
    // After a plain name only a call: a capitalised word there is more likely the name being
    // declared (`const T SQRT_2_INV = ...`).
    if (EndsDeclarator(p) && (call || !IsName(p)) &&
        (Is(n, ";") || Is(n, "{") || Is(n, "=") || Is(n, ",") || Is(n, ":"))) {
      return Blank{i, last};
    }
    if (EndsStatement(p)) {
      if (Is(n, ";")) return Blank{i, n};
      if (call &&
          (n == kNone || tokens_[n].kind == TokenKind::kDirective || Is(n, "}") || IsWord(n))) {
        return Blank{i, last};
      }
      // Not after a `:`, where `BASE {` may start a constructor's member initializer.
      if (!call && Is(n, "{") && !Is(p, ":")) return Blank{i, last};
      // A statement's keyword or the block's end cannot follow a word that is no macro:
      // `GGML_TENSOR_UNARY_OP_LOCALS\n for (...)`.
      if (!call && (Is(n, "}") || (IsWord(n) && OneOf(Text(n), {"for", "if", "while", "do",
                                                                "switch", "return"})))) {
        return Blank{i, last};
      }
    }
    return std::nullopt;
  }

  // The arguments of the macro call at token `i` when an error lies between its parentheses.
  std::optional<Blank> Arguments(size_t i, const std::vector<ErrorSite>& errors) const {
    if (!Has(i, kMacro) || !Is(i + 1, "(")) return std::nullopt;
    const size_t close = match_[i + 1];
    if (close == kNone || close <= i + 2 || blanked_[i + 2] || rejected_[i + 2]) {
      return std::nullopt;
    }
    const uint32_t begin = tokens_[i + 1].end, end = tokens_[close].begin;
    const auto e = std::lower_bound(errors.begin(), errors.end(), begin,
                                    [](const ErrorSite& s, uint32_t b) { return s.end < b; });
    if (e == errors.end() || e->begin > end) return std::nullopt;
    return Blank{i + 2, close - 1};
  }

  // `= {...}` before `,` or `)`, which becomes `= 0`: tree-sitter-cpp 0.23 reads no braced
  // default argument.
  std::optional<Blank> DefaultArgument(size_t i) const {
    if (!Is(i + 1, "{") || blanked_[i + 1] || rejected_[i + 1]) return std::nullopt;
    const size_t close = match_[i + 1];
    if (close == kNone || !(Is(close + 1, ",") || Is(close + 1, ")"))) return std::nullopt;
    return Blank{i + 1, close, true};
  }

  std::string_view source_;
  std::vector<Token> tokens_;
  std::vector<size_t> match_;      // the bracket matching each bracket token; kNone otherwise
  std::vector<size_t> enclosing_;  // the innermost open bracket around each token, or kNone
  // For a conditional's line, the `#if` of its conditional and its next line (`#elif`, `#else`,
  // `#endif`); kNone otherwise.
  std::vector<size_t> group_, next_branch_;
  // How many conditionals hold each token in a branch after their first; a conditional's own
  // lines count as outside it.
  std::vector<uint32_t> other_branches_;
  std::vector<bool> blanked_, rejected_;
  std::vector<uint32_t> line_starts_;  // the byte each line starts at
};

}  // namespace

TreePtr ParseBlankingMacros(TSParser* parser, std::string_view source) {
  Blanker blanker(source);
  std::string text(source);
  blanker.Apply(blanker.TagMacros(), &text);
  TreePtr tree = ParseSource(parser, text);
  if (tree == nullptr || !ts_node_has_error(ts_tree_root_node(tree.get()))) return tree;
  std::vector<ErrorSite> errors = Errors(tree.get());
  const uint64_t first_badness = TotalBadness(errors);
  TreePtr first(ts_tree_copy(tree.get()), ts_tree_delete);
  // Conditionals splitting statements go first, and together: how much they help shows in the
  // whole file only.
  if (const std::vector<Blank> conditionals = blanker.UnbalancedConditionals();
      !conditionals.empty()) {
    std::string tentative = text;
    blanker.Apply(conditionals, &tentative);
    TreePtr next = blanker.Reparse(parser, tree.get(), tentative, conditionals);
    std::vector<ErrorSite> next_errors = next ? Errors(next.get()) : std::vector<ErrorSite>();
    if (next != nullptr && TotalBadness(next_errors) < first_badness) {
      text = std::move(tentative);
      tree = std::move(next);
      errors = std::move(next_errors);
    } else {
      blanker.Reject(conditionals);
    }
  }
  for (int round = 0; round < kMaxRounds && !errors.empty(); ++round) {
    const std::vector<Region> regions = Regions(errors);
    std::vector<std::vector<Blank>> proposed;
    std::vector<Blank> all;
    std::string tentative = text;
    for (const Region& region : regions) {
      proposed.push_back(blanker.Propose(region, errors));
      blanker.Apply(proposed.back(), &tentative);
      all.insert(all.end(), proposed.back().begin(), proposed.back().end());
    }
    if (all.empty()) break;
    TreePtr next = blanker.Reparse(parser, tree.get(), tentative, all);
    if (next == nullptr) break;
    std::vector<ErrorSite> next_errors = Errors(next.get());
    // A region keeps its blanks when they leave less error there.
    std::vector<Blank> kept;
    bool rejected = false;
    for (size_t r = 0; r < regions.size(); ++r) {
      if (proposed[r].empty()) continue;
      const Region& region = regions[r];
      if (Badness(next_errors, region.begin, region.end) <
          Badness(errors, region.begin, region.end)) {
        kept.insert(kept.end(), proposed[r].begin(), proposed[r].end());
      } else {
        blanker.Reject(proposed[r]);
        rejected = true;
      }
    }
    if (kept.empty()) break;
    if (rejected) {
      blanker.Apply(kept, &text);
      next = blanker.Reparse(parser, tree.get(), text, kept);
      if (next == nullptr) break;
      next_errors = Errors(next.get());
    } else {
      text = std::move(tentative);
    }
    tree = std::move(next);
    errors = std::move(next_errors);
  }
  // Blanking is local; a parse that went wrong elsewhere because of it is not worth keeping.
  return TotalBadness(errors) < first_badness ? std::move(tree) : std::move(first);
}

}  // namespace kebab::parse::internal
