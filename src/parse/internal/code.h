// The code extractor (parse/extractor.h): source files as blocks of code, each cited by its
// lines with its language (`src/retry.rs#L40-L77`, kind code). Languages with a grammar
// (code_units.h, Tier 1) give one block per function, method, class, struct, enum, trait or
// impl, named by its qualified symbol, and `<top-level>` blocks for the imports and glue
// between them; each unit's block carries the last line of its head (Block::head_end: doc
// comment, signature, docstring), where the code chunker may cut it. Manifests, Dockerfiles,
// Kubernetes YAML and shell scripts (code_lines.h, Tier 2) give a block per package, build stage,
// resource or function, and `<top-level>` blocks for the rest. Every other text source file, and a
// Tier 2 file its reader finds no unit in, gives one block per blank-line paragraph (Tier 3). Lines
// are counted at LF, as tree-sitter counts rows. Module-private.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "parse/extractor.h"
#include "parse/internal/code_lines.h"
#include "parse/internal/code_units.h"

namespace kebab::parse::internal {

inline constexpr char kCodeParserVersion[] = "code-v4";

// The lowercase canonical language of a source file from its name (source::CodeLanguageOfPath:
// "rust", "python", "shell", "yaml", ..., "text" when the name says nothing), its grammar when
// kebab has one, else its line reader when kebab has one.
struct SourceLanguage {
  std::string name;
  std::optional<CodeLanguage> grammar;
  LineReader reader = LineReader::kNone;
};
SourceLanguage LanguageOfPath(std::string_view workspace_path);

class CodeExtractor final : public Extractor {
 public:
  std::string_view version() const override { return kCodeParserVersion; }
  // Errors: invalid_input for a binary file (a NUL byte in its first 8 KiB).
  Result<CanonicalDocument> Extract(const ExtractInput& input) const override;
};

}  // namespace kebab::parse::internal
