# Every third-party dependency comes from a Debian 12 package (see scripts/setup.sh), except
# BLAKE3, whose official C sources Debian ships inside librust-blake3-dev, and SQLite, llama.cpp
# and USearch, built from npm packages (cmake/SQLite.cmake, Llama.cmake, USearch.cmake).
find_package(PkgConfig REQUIRED)

# A dependency that `script` builds or fetches once into a cache outside the build tree and
# whose directory it prints. scripts/setup.sh runs the script and passes the directory as
# `var`; a plain configure, or a directory since removed, runs it here (with any further
# arguments given after `doc`).
function(kebab_cached_dependency var script doc)
  set(${var} "" CACHE PATH "${doc}")
  if(NOT ${var} OR NOT EXISTS "${${var}}/.complete")
    message(STATUS "Running ${script} (cached after the first time) ...")
    execute_process(COMMAND "${CMAKE_SOURCE_DIR}/${script}" ${ARGN}
                    OUTPUT_VARIABLE _dir OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "${script} failed")
    endif()
    set(${var} "${_dir}" CACHE PATH "${doc}" FORCE)
  endif()
endfunction()
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)

pkg_check_modules(CMARK_GFM REQUIRED IMPORTED_TARGET libcmark-gfm)
pkg_check_modules(UTF8PROC REQUIRED IMPORTED_TARGET libutf8proc)
pkg_check_modules(TOMLPP REQUIRED IMPORTED_TARGET tomlplusplus)

find_library(CMARK_GFM_EXTENSIONS_LIB cmark-gfm-extensions REQUIRED)
find_library(STEMMER_LIB stemmer REQUIRED)
# Debian ships mimalloc as a shared library only (see src/cli/CMakeLists.txt).
find_library(MIMALLOC_LIB NAMES mimalloc REQUIRED)

# Link the libraries Debian also ships as archives statically, and toml++ header-only:
# `kebab search` is a whole process per query, and resolving a dozen shared libraries at
# start-up cost more than the query itself.
option(KEBAB_STATIC_DEPS "Link cmark-gfm, yaml-cpp, utf8proc, libstemmer statically" ON)
if(KEBAB_STATIC_DEPS)
  function(kebab_use_archive target archive)
    find_library(_kebab_archive_${archive} NAMES lib${archive}.a REQUIRED)
    set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES
                          "${_kebab_archive_${archive}};${ARGN}")
  endfunction()
  kebab_use_archive(PkgConfig::UTF8PROC utf8proc)
  # The extensions archive refers to the core one, so it must come first on the link line.
  find_library(CMARK_GFM_EXTENSIONS_LIB_STATIC NAMES libcmark-gfm-extensions.a REQUIRED)
  kebab_use_archive(PkgConfig::CMARK_GFM cmark-gfm)
  get_target_property(_cmark_libs PkgConfig::CMARK_GFM INTERFACE_LINK_LIBRARIES)
  set_target_properties(PkgConfig::CMARK_GFM PROPERTIES INTERFACE_LINK_LIBRARIES
                        "${CMARK_GFM_EXTENSIONS_LIB_STATIC};${_cmark_libs}")
  set(CMARK_GFM_EXTENSIONS_LIB "")
  find_library(STEMMER_LIB_STATIC NAMES libstemmer.a REQUIRED)
  find_library(YAML_CPP_LIB_STATIC NAMES libyaml-cpp.a REQUIRED)
  set(STEMMER_LIB ${STEMMER_LIB_STATIC})
  set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION ${YAML_CPP_LIB_STATIC}
                        IMPORTED_LOCATION_NONE ${YAML_CPP_LIB_STATIC}
                        IMPORTED_LOCATION_RELWITHDEBINFO ${YAML_CPP_LIB_STATIC}
                        IMPORTED_LOCATION_RELEASE ${YAML_CPP_LIB_STATIC})
  set_target_properties(PkgConfig::TOMLPP PROPERTIES INTERFACE_LINK_LIBRARIES "" INTERFACE_COMPILE_OPTIONS ""
                        INTERFACE_COMPILE_DEFINITIONS "TOML_HEADER_ONLY=1")
endif()
# libcld2 is opened at run time by parse/language.cc (dlopen); only its headers are used here.
find_library(CLD2_LIB cld2 REQUIRED)
find_path(CLD2_INCLUDE_DIR cld2/public/compact_lang_det.h REQUIRED)

set(KEBAB_BLAKE3_DIR "/usr/share/cargo/registry/blake3-1.3.1/c" CACHE PATH
    "Official BLAKE3 C sources (Debian librust-blake3-dev)")
if(NOT EXISTS "${KEBAB_BLAKE3_DIR}/blake3.h")
  message(FATAL_ERROR "BLAKE3 C sources not found at ${KEBAB_BLAKE3_DIR}; run scripts/setup.sh")
endif()
add_library(blake3 STATIC
  ${KEBAB_BLAKE3_DIR}/blake3.c
  ${KEBAB_BLAKE3_DIR}/blake3_dispatch.c
  ${KEBAB_BLAKE3_DIR}/blake3_portable.c
  ${KEBAB_BLAKE3_DIR}/blake3_sse2_x86-64_unix.S
  ${KEBAB_BLAKE3_DIR}/blake3_sse41_x86-64_unix.S
  ${KEBAB_BLAKE3_DIR}/blake3_avx2_x86-64_unix.S
  ${KEBAB_BLAKE3_DIR}/blake3_avx512_x86-64_unix.S)
target_include_directories(blake3 SYSTEM PUBLIC ${KEBAB_BLAKE3_DIR})
set_target_properties(blake3 PROPERTIES POSITION_INDEPENDENT_CODE ON)
