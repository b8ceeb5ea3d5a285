// The tree-sitter grammars compiled into kebab (cmake/TreeSitter.cmake, pinned by
// scripts/fetch-grammars.sh): one entry point per language. Module-private.
#pragma once

#include <tree_sitter/api.h>

extern "C" {
const TSLanguage* tree_sitter_rust();
const TSLanguage* tree_sitter_python();
const TSLanguage* tree_sitter_typescript();
const TSLanguage* tree_sitter_tsx();
const TSLanguage* tree_sitter_javascript();
const TSLanguage* tree_sitter_go();
const TSLanguage* tree_sitter_java();
const TSLanguage* tree_sitter_kotlin();
const TSLanguage* tree_sitter_c();
const TSLanguage* tree_sitter_cpp();
}
