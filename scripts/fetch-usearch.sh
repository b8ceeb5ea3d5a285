#!/usr/bin/env bash
# Fetches USearch (header-only vector index) with its SimSIMD kernels and the fp16 header
# library from the npm package usearch, once per version, into a cache outside the repository.
#
# Usage: scripts/fetch-usearch.sh      prints the cached package directory on stdout
# Env:   KEBAB_DEPS_CACHE  cache root (default ${XDG_CACHE_HOME:-~/.cache}/kebab-deps)
set -euo pipefail

USEARCH_VERSION=2.21.4
CACHE_ROOT=${KEBAB_DEPS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kebab-deps}
DEST="$CACHE_ROOT/usearch-$USEARCH_VERSION"

if [[ -f "$DEST/.complete" ]]; then
  echo "$DEST"
  exit 0
fi
command -v npm >/dev/null || { echo "fetch-usearch: needs npm (scripts/setup.sh installs it)" >&2; exit 1; }

mkdir -p "$CACHE_ROOT"
WORK=$(mktemp -d "$CACHE_ROOT/.usearch-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "fetch-usearch: fetching usearch@$USEARCH_VERSION from npm" >&2
(cd "$WORK" && npm pack "usearch@$USEARCH_VERSION" --silent >/dev/null)
tar -xzf "$WORK/usearch-$USEARCH_VERSION.tgz" -C "$WORK" \
  package/LICENSE package/include package/simsimd/include package/simsimd/c/lib.c \
  package/simsimd/LICENSE package/fp16/include package/fp16/LICENSE
echo "usearch@$USEARCH_VERSION (npm)" >"$WORK/package/VERSION"
touch "$WORK/package/.complete"
rm -rf "$DEST"
mv "$WORK/package" "$DEST"
echo "$DEST"
