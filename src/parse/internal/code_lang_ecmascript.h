// The unit rules JavaScript and TypeScript share (code_lang_javascript.cc): TypeScript's tree
// is JavaScript's with more declarations, so its spec (code_lang_typescript.cc) extends this
// one through MatchDeclaration. Module-private. Thread safety: immutable.
#pragma once

#include "parse/internal/code_lang.h"

namespace kebab::parse::internal {

class EcmaScriptSpec : public LanguageSpec {
 public:
  std::string_view Separator() const override { return "."; }
  // The workspace path without its extension ("src/foo.ts" is "src/foo"); an index file names
  // its folder.
  std::string ModulePath(std::string_view workspace_path, TSNode root,
                         std::string_view source) const override;
  std::optional<UnitMatch> Match(TSNode node, bool in_type) const override;
  std::string Name(TSNode unit, std::string_view source) const override;
  TSNode Body(TSNode unit) const override;

 protected:
  // What `decl`, a statement or class member with any `export` around it removed, is as a
  // unit; `in_type` as for Match().
  virtual std::optional<UnitMatch> MatchDeclaration(TSNode decl, bool in_type) const;
};

}  // namespace kebab::parse::internal
