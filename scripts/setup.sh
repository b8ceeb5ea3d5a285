#!/usr/bin/env bash
# Installs every Debian package kebab needs (idempotently) and builds build/kebab.
#   scripts/setup.sh          install + build
#   scripts/setup.sh --demo   install + build, then index and search the bundled sample KB
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build pkg-config git clang-format
  libsqlite3-dev sqlite3
  libcmark-gfm-dev libcmark-gfm-extensions-dev
  libyaml-cpp-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev
  libutf8proc-dev libstemmer-dev libcld2-dev libmimalloc-dev
  librust-blake3-dev
  libcurl4-openssl-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-jsonschema
  recollcmd ripgrep
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches the SQLite, llama.cpp and USearch sources (scripts/build-sqlite.sh,
# build-llama.sh, fetch-usearch.sh); any npm on PATH will do.
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# SQLite and llama.cpp are built once per version into a cache outside the repository; USearch
# likewise fetched once.
SQLITE_PREFIX=$(scripts/build-sqlite.sh)
LLAMA_PREFIX=$(scripts/build-llama.sh)
USEARCH_DIR=$(scripts/fetch-usearch.sh)

BUILD_TYPE="${KEBAB_BUILD_TYPE:-RelWithDebInfo}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  -DKEBAB_SQLITE_PREFIX="$SQLITE_PREFIX" -DKEBAB_LLAMA_PREFIX="$LLAMA_PREFIX" \
  -DKEBAB_USEARCH_DIR="$USEARCH_DIR" >/dev/null
cmake --build build -j "$(nproc)"
echo "setup: built $(pwd)/build/kebab" >&2

if [ "${1:-}" = "--demo" ]; then
  exec scripts/demo.sh
fi
