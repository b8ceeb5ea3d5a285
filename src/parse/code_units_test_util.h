// Shared by the code-unit tests: a fixture's units, and whether they are the expected ones.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "parse/internal/code_units.h"

namespace kebab::parse::internal {

struct Expect {
  std::string symbol, kind;
  uint32_t start, end;
  std::optional<std::string> doc;  // unset: not compared
};

inline std::vector<CodeUnit> Units(CodeLanguage language, std::string_view source,
                                   std::string_view path) {
  Result<std::vector<CodeUnit>> units = ExtractCodeUnits(language, source, path);
  EXPECT_TRUE(units.ok()) << units.status().ToString();
  return units.ok() ? *std::move(units) : std::vector<CodeUnit>();
}

// Symbol, kind, lines and (when given) doc of every unit, in order; with `no_errors`, no unit
// holds a syntax error.
inline ::testing::AssertionResult UnitsAre(const std::vector<CodeUnit>& got,
                                           const std::vector<Expect>& want,
                                           bool no_errors = false) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " units, want " << want.size();
  }
  for (size_t i = 0; i < want.size(); ++i) {
    const CodeUnit& g = got[i];
    const Expect& w = want[i];
    if (g.symbol != w.symbol || UnitKindName(g.kind) != w.kind || g.start_line != w.start ||
        g.end_line != w.end || (w.doc && g.doc != *w.doc) || (no_errors && g.has_error)) {
      return ::testing::AssertionFailure()
             << "unit " << i << ": got " << g.symbol << " " << UnitKindName(g.kind) << " "
             << g.start_line << "-" << g.end_line << " doc \"" << g.doc << "\""
             << (g.has_error ? " (has_error)" : "") << "; want " << w.symbol << " " << w.kind << " "
             << w.start << "-" << w.end << " doc \"" << w.doc.value_or("(any)") << "\"";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace kebab::parse::internal
