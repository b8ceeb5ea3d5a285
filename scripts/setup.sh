#!/usr/bin/env bash
# Installs the Debian packages kebab needs to build and run (only the missing ones), then builds
# kebab, its workers (kebab-pdf, kebab-ocr, kebab-audio), its man page and shell completions
# into build/ — not the tests or the benchmarks, unless asked.
#   scripts/setup.sh           install + build
#   scripts/setup.sh --demo    install + build, then index and search the bundled sample KB
#   scripts/setup.sh --tests   also install what only the tests and benchmarks use, and build
#                              them too (scripts/test.sh runs this)
#   scripts/setup.sh --tests --configure-only
#                              install, and configure build/ with the tests and benchmarks,
#                              but build nothing (bench/suite.py builds what it runs)
#   scripts/setup.sh [--tests] --build-dir=DIR [CMAKE_ARG...]
#                              build into DIR, configured with the extra CMake arguments
#                              (scripts/test.sh --sanitize builds build-asan/ this way), so the
#                              dependency prefixes below are computed in one place
# Every run sets KEBAB_BUILD_TESTS and KEBAB_BUILD_BENCH (ON with --tests, else OFF; an extra
# CMake argument still overrides them), so one build directory can go from one to the other:
# the switch only adds or drops the test and benchmark targets, and the objects built stay.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/setup.sh [--demo] [--tests] [--configure-only]" \
    "[--build-dir=DIR [CMAKE_ARG...]]" >&2
  exit 2
}

BUILD_DIR=build
DEMO=0
TESTS=OFF
CONFIGURE_ONLY=0
CMAKE_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --demo) DEMO=1 ;;
    --tests) TESTS=ON ;;
    --configure-only) CONFIGURE_ONLY=1 ;;
    --build-dir=?*)
      BUILD_DIR=${1#--build-dir=}
      shift
      CMAKE_ARGS=("$@")
      break
      ;;
    *) usage ;;
  esac
  shift
done
# The demo runs build/kebab (scripts/demo.sh), so it needs build/ built.
if [ "$DEMO" = 1 ] && { [ "$BUILD_DIR" != build ] || [ "$CONFIGURE_ONLY" = 1 ]; }; then
  usage
fi

if [ "$TESTS" = ON ]; then
  scripts/lib/packages.sh test
else
  scripts/lib/packages.sh build
fi

# SQLite and llama.cpp are built once per version into a cache outside the repository; USearch,
# cpp-httplib and the tree-sitter grammars likewise fetched once.
SQLITE_PREFIX=$(scripts/build-sqlite.sh)
OPTIONS=(-DKEBAB_BUILD_TESTS="$TESTS" -DKEBAB_BUILD_BENCH="$TESTS")
# llama.cpp's own programs (llama-server, llama-bench, whisper-cli) only for the tests and
# benchmarks; asked for first, so that an empty cache builds them and the libraries in one pass.
if [ "$TESTS" = ON ]; then
  OPTIONS+=("-DKEBAB_LLAMA_TOOLS_PREFIX=$(scripts/build-llama.sh --tools)")
fi
LLAMA_PREFIX=$(scripts/build-llama.sh)
USEARCH_DIR=$(scripts/fetch-usearch.sh)
HTTPLIB_DIR=$(scripts/fetch-httplib.sh)
GRAMMARS_DIR=$(scripts/fetch-grammars.sh)
# The official MCP SDK for the `kebab mcp` end-to-end tests (tests/mcp). Passed only when
# fetched, so that a build without the tests keeps what an earlier setup gave the cache.
if [ "$TESTS" = ON ]; then
  OPTIONS+=("-DKEBAB_MCP_SDK_DIR=$(scripts/fetch-mcp-sdk.sh)")
fi

BUILD_TYPE="${KEBAB_BUILD_TYPE:-RelWithDebInfo}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  -DKEBAB_SQLITE_PREFIX="$SQLITE_PREFIX" -DKEBAB_LLAMA_PREFIX="$LLAMA_PREFIX" \
  -DKEBAB_USEARCH_DIR="$USEARCH_DIR" -DKEBAB_HTTPLIB_DIR="$HTTPLIB_DIR" \
  -DKEBAB_GRAMMARS_DIR="$GRAMMARS_DIR" "${OPTIONS[@]}" "${CMAKE_ARGS[@]}" >/dev/null
[ "$CONFIGURE_ONLY" = 0 ] || exit 0
cmake --build "$BUILD_DIR" -j "$(nproc)"
echo "setup: built $(cd "$BUILD_DIR" && pwd)/kebab" >&2

if [ "$DEMO" = 1 ]; then
  exec scripts/demo.sh
fi
