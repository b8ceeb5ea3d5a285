#!/usr/bin/env bash
# Fetches cpp-httplib (MIT; the HTTP server under `kebab mcp --http`) once into a cache outside
# the repository. The copy is the one llama.cpp vendors (vendor/cpp-httplib: httplib.h and
# httplib.cpp), taken from the same node-llama-cpp git bundle and commit that
# scripts/build-llama.sh builds, since npm's registry is reachable where GitHub is not.
# cmake/Httplib.cmake compiles it into kebab statically and without TLS: Debian's
# libcpp-httplib is a shared library that pulls in OpenSSL, zlib and Brotli, and loading those
# cost every `kebab search` process about as much as the search itself.
#
# Usage: scripts/fetch-httplib.sh      prints the directory holding httplib.h on stdout
# Env:   KEBAB_DEPS_CACHE  cache root (see scripts/lib/deps-cache.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/deps-cache.sh"

NODE_LLAMA_CPP_VERSION=3.22.1
LLAMA_COMMIT=de3ff815ea7d559ee917f063901b8986f038abc6
HTTPLIB_VERSION=0.57.1
DEST="$DEPS_CACHE_ROOT/cpp-httplib-$HTTPLIB_VERSION-${LLAMA_COMMIT:0:10}"

deps_reuse "$DEST"
log() { echo "fetch-httplib: $*" >&2; }
deps_require fetch-httplib npm git tar
deps_workdir httplib

log "fetching node-llama-cpp@$NODE_LLAMA_CPP_VERSION from npm (for llama.cpp's vendor/cpp-httplib)"
(cd "$WORK" && npm pack "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" --silent >/dev/null)
tar -xzf "$WORK/node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz" -C "$WORK" package/llama/gitRelease.bundle
git clone -q --no-checkout "$WORK/package/llama/gitRelease.bundle" "$WORK/src" 2>/dev/null
got=$(git -C "$WORK/src" rev-parse HEAD)
if [[ "$got" != "$LLAMA_COMMIT" ]]; then
  log "unexpected llama.cpp commit $got (want $LLAMA_COMMIT)"
  exit 1
fi
mkdir "$WORK/httplib"
for f in httplib.h httplib.cpp LICENSE; do
  git -C "$WORK/src" show "$LLAMA_COMMIT:vendor/cpp-httplib/$f" >"$WORK/httplib/$f"
done
grep -q "CPPHTTPLIB_VERSION \"$HTTPLIB_VERSION\"" "$WORK/httplib/httplib.h" ||
  { log "vendor/cpp-httplib is not version $HTTPLIB_VERSION"; exit 1; }
echo "cpp-httplib $HTTPLIB_VERSION (llama.cpp ${LLAMA_COMMIT:0:10} vendor/cpp-httplib)" \
  >"$WORK/httplib/VERSION"
deps_install "$WORK/httplib" "$DEST"
