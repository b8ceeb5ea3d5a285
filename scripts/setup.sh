#!/usr/bin/env bash
# Installs every Debian package kebab needs (idempotently) and builds build/kebab.
#   scripts/setup.sh          install + build
#   scripts/setup.sh --demo   install + build, then index and search the bundled sample KB
#   scripts/setup.sh --build-dir=DIR [CMAKE_ARG...]
#                             install + build DIR/kebab, configured with the extra CMake
#                             arguments (scripts/test.sh --sanitize builds build-asan/ this way),
#                             so the dependency prefixes below are computed in one place
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=build
DEMO=0
CMAKE_ARGS=()
case "${1:-}" in
  "") ;;
  --demo) DEMO=1 ;;
  --build-dir=?*)
    BUILD_DIR=${1#--build-dir=}
    shift
    CMAKE_ARGS=("$@")
    ;;
  *)
    echo "usage: scripts/setup.sh [--demo | --build-dir=DIR [CMAKE_ARG...]]" >&2
    exit 2
    ;;
esac

PACKAGES=(
  build-essential cmake ninja-build pkg-config git clang-format
  libsqlite3-dev sqlite3
  libcmark-gfm-dev libcmark-gfm-extensions-dev
  libyaml-cpp-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev
  libutf8proc-dev libstemmer-dev libcld2-dev libmimalloc-dev
  librust-blake3-dev
  libcurl4-openssl-dev libfmt-dev
  libpoppler-cpp-dev libpoppler-private-dev
  libtesseract-dev libleptonica-dev tesseract-ocr-eng tesseract-ocr-kor libexif-dev
  libtree-sitter-dev
  libavformat-dev libavcodec-dev libswresample-dev libavutil-dev
  libpocketsphinx-dev pocketsphinx-en-us
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-jsonschema
  recollcmd ripgrep poppler-utils tesseract-ocr
  espeak-ng ffmpeg
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches the SQLite, llama.cpp, USearch and cpp-httplib sources (scripts/build-sqlite.sh,
# build-llama.sh, fetch-usearch.sh, fetch-httplib.sh); any npm on PATH will do.
command -v npm >/dev/null || missing+=(npm)
command -v node >/dev/null || missing+=(nodejs)  # the MCP SDK test client (tests/mcp)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# SQLite and llama.cpp are built once per version into a cache outside the repository; USearch,
# cpp-httplib and the tree-sitter grammars likewise fetched once.
SQLITE_PREFIX=$(scripts/build-sqlite.sh)
LLAMA_PREFIX=$(scripts/build-llama.sh)
USEARCH_DIR=$(scripts/fetch-usearch.sh)
HTTPLIB_DIR=$(scripts/fetch-httplib.sh)
GRAMMARS_DIR=$(scripts/fetch-grammars.sh)
# The official MCP SDK for the `kebab mcp` end-to-end tests (tests/mcp), unless tests are off
# or this is the demo (which runs no tests and should be as quick as the build allows).
# Passed only when fetched, so that a demo run keeps what an earlier setup gave the build.
if [ "$DEMO" = 0 ] && [[ " ${CMAKE_ARGS[*]} " != *" -DKEBAB_BUILD_TESTS=OFF "* ]]; then
  CMAKE_ARGS+=("-DKEBAB_MCP_SDK_DIR=$(scripts/fetch-mcp-sdk.sh)")
fi

BUILD_TYPE="${KEBAB_BUILD_TYPE:-RelWithDebInfo}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  -DKEBAB_SQLITE_PREFIX="$SQLITE_PREFIX" -DKEBAB_LLAMA_PREFIX="$LLAMA_PREFIX" \
  -DKEBAB_USEARCH_DIR="$USEARCH_DIR" -DKEBAB_HTTPLIB_DIR="$HTTPLIB_DIR" \
  -DKEBAB_GRAMMARS_DIR="$GRAMMARS_DIR" "${CMAKE_ARGS[@]}" >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
echo "setup: built $(pwd)/$BUILD_DIR/kebab" >&2

if [ "$DEMO" = 1 ]; then
  exec scripts/demo.sh
fi
