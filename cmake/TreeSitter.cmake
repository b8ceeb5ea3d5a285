# tree-sitter for code ingest: Debian's runtime (libtree-sitter 0.20.7, grammar ABI 13-14) and
# the grammars scripts/fetch-grammars.sh pins on npm, compiled once into kebab_grammars. Each
# grammar is built against its own tree_sitter/parser.h (-I DIR/L/src), as the grammar was
# generated for it; third-party C, so its warnings are not ours.
pkg_check_modules(TREE_SITTER REQUIRED IMPORTED_TARGET tree-sitter)
kebab_cached_dependency(KEBAB_GRAMMARS_DIR scripts/fetch-grammars.sh
                        "tree-sitter grammar directory made by scripts/fetch-grammars.sh")

set(KEBAB_GRAMMARS rust python typescript tsx javascript go java kotlin c cpp)
add_library(kebab_grammars STATIC)
foreach(_lang IN LISTS KEBAB_GRAMMARS)
  set(_src "${KEBAB_GRAMMARS_DIR}/${_lang}/src")
  set(_files "${_src}/parser.c")
  if(EXISTS "${_src}/scanner.c")
    list(APPEND _files "${_src}/scanner.c")
  endif()
  target_sources(kebab_grammars PRIVATE ${_files})
  set_source_files_properties(${_files} PROPERTIES
    INCLUDE_DIRECTORIES "${_src}" COMPILE_OPTIONS "-w;-std=c11")
endforeach()
set_target_properties(kebab_grammars PROPERTIES POSITION_INDEPENDENT_CODE ON LINKER_LANGUAGE C)
target_link_libraries(kebab_grammars PUBLIC PkgConfig::TREE_SITTER)
