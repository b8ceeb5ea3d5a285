#!/usr/bin/env bash
# Installs the official MCP TypeScript SDK (@modelcontextprotocol/sdk, pinned) once into a cache
# outside the repository, for the `kebab mcp` end-to-end tests: tests/mcp/client.mjs drives the
# server through the SDK's own Client, so the tests check kebab against a client nobody here
# wrote (tests/e2e/test_mcp.py).
#
# Pinned by tests/mcp/package-lock.json, installed with `npm ci`: the lockfile fixes every
# transitive package (zod, ajv, ...) by exact version and sha512 integrity, which
# `npm install @modelcontextprotocol/sdk@X` would not (its dependencies float within their
# ranges from one day to the next). The cache key is the SDK version plus a hash of
# package.json and the lockfile, so editing either installs afresh. No install scripts run.
# To move to another SDK version: edit the version in tests/mcp/package.json and MCP_SDK_VERSION
# below, then in tests/mcp run `npm install --package-lock-only --ignore-scripts`.
#
# Usage: scripts/fetch-mcp-sdk.sh      prints the directory holding node_modules/ on stdout
# Env:   KEBAB_DEPS_CACHE  cache root (see scripts/lib/deps-cache.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/deps-cache.sh"

MCP_SDK_VERSION=1.32.2
MANIFEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../tests/mcp" && pwd)
LOCK_KEY=$(cat "$MANIFEST_DIR/package.json" "$MANIFEST_DIR/package-lock.json" |
  sha256sum | cut -c1-12)
DEST="$DEPS_CACHE_ROOT/mcp-sdk-$MCP_SDK_VERSION-$LOCK_KEY"

deps_reuse "$DEST"
log() { echo "fetch-mcp-sdk: $*" >&2; }
deps_require fetch-mcp-sdk npm node
grep -q "\"@modelcontextprotocol/sdk\": \"$MCP_SDK_VERSION\"" "$MANIFEST_DIR/package.json" ||
  { log "tests/mcp/package.json does not pin @modelcontextprotocol/sdk $MCP_SDK_VERSION"; exit 1; }
deps_workdir mcp-sdk

log "installing @modelcontextprotocol/sdk@$MCP_SDK_VERSION from npm (npm ci, tests/mcp/package-lock.json)"
mkdir "$WORK/sdk"
cp "$MANIFEST_DIR/package.json" "$MANIFEST_DIR/package-lock.json" "$WORK/sdk/"
(cd "$WORK/sdk" && npm ci --no-audit --no-fund --ignore-scripts --omit=dev --loglevel=error \
  >"$WORK/npm.log" 2>&1) || { cat "$WORK/npm.log" >&2; exit 1; }
got=$(node -p 'require(process.argv[1]).version' \
  "$WORK/sdk/node_modules/@modelcontextprotocol/sdk/package.json")
if [[ "$got" != "$MCP_SDK_VERSION" ]]; then
  log "installed @modelcontextprotocol/sdk $got (want $MCP_SDK_VERSION)"
  exit 1
fi
echo "@modelcontextprotocol/sdk@$MCP_SDK_VERSION (npm ci, lockfile $LOCK_KEY)" >"$WORK/sdk/VERSION"
deps_install "$WORK/sdk" "$DEST"
