#!/usr/bin/env bash
# Fetches USearch (header-only vector index) with its SimSIMD kernels and the fp16 header
# library from the npm package usearch, once per version, into a cache outside the repository.
#
# Usage: scripts/fetch-usearch.sh      prints the cached package directory on stdout
# Env:   KEBAB_DEPS_CACHE  cache root (see scripts/lib/deps-cache.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/deps-cache.sh"

USEARCH_VERSION=2.21.4
DEST="$DEPS_CACHE_ROOT/usearch-$USEARCH_VERSION"

deps_reuse "$DEST"
deps_require fetch-usearch npm
deps_workdir usearch
echo "fetch-usearch: fetching usearch@$USEARCH_VERSION from npm" >&2
(cd "$WORK" && npm pack "usearch@$USEARCH_VERSION" --silent >/dev/null)
tar -xzf "$WORK/usearch-$USEARCH_VERSION.tgz" -C "$WORK" \
  package/LICENSE package/include package/simsimd/include package/simsimd/c/lib.c \
  package/simsimd/LICENSE package/fp16/include package/fp16/LICENSE
echo "usearch@$USEARCH_VERSION (npm)" >"$WORK/package/VERSION"
deps_install "$WORK/package" "$DEST"
