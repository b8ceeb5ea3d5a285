#!/usr/bin/env bash
# Builds SQLite once from its amalgamation as a static library and caches it outside the
# repository, keyed by the source and the compile options, so a fresh clone reuses it and a
# version or option change rebuilds it.
#
# Why not Debian's libsqlite3: Debian 12 ships 3.40 built with SQLITE_OMIT_LOOKASIDE (every
# small allocation goes to malloc) and SQLITE_SECURE_DELETE (freed cells are zeroed). The
# ingest writer thread is nearly all SQLite; on 4,800 tldr pages it ran 1.190e9 instructions
# against Debian's library and 1.005e9 against this build (callgrind), and cold ingest of all
# of tldr took ~7% less CPU (10 alternating runs).
#
# Source: the npm package better-sqlite3 ships the official amalgamation unmodified
# (package/deps/sqlite3); npm's registry is reachable where sqlite.org is not. The sha256
# below pins the exact file.
#
# Usage: scripts/build-sqlite.sh       prints the install prefix on stdout
# Env:   KEBAB_DEPS_CACHE  cache root (see scripts/lib/deps-cache.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/deps-cache.sh"

BETTER_SQLITE3_VERSION=13.2.0
SQLITE_VERSION=3.54.1
SQLITE_SHA256=75a4760a7b9727a4c4c877aec92eacf39e52a8f2921ce00bd33be6d3a8e8e254
# SQLite's own recommendations (sqlite.org/compile.html) that fit kebab: no global mutex
# around allocations (kebab never reads memory statistics), no shared cache, no deprecated
# interfaces or extension loading (kebab uses neither). FTS5 is the lexical index.
CFLAGS_SQLITE=(
  -O2 -g -fPIC
  -DSQLITE_ENABLE_FTS5
  -DSQLITE_THREADSAFE=1
  -DSQLITE_DEFAULT_MEMSTATUS=0
  -DSQLITE_LIKE_DOESNT_MATCH_BLOBS
  -DSQLITE_OMIT_DEPRECATED
  -DSQLITE_OMIT_LOAD_EXTENSION
  -DSQLITE_OMIT_SHARED_CACHE
  -DSQLITE_USE_ALLOCA
)

OPTIONS_KEY=$(printf '%s\n' "$SQLITE_SHA256" "${CFLAGS_SQLITE[@]}" | sha256sum | cut -c1-12)
PREFIX="$DEPS_CACHE_ROOT/sqlite-$SQLITE_VERSION-$OPTIONS_KEY"

deps_reuse "$PREFIX"
log() { echo "build-sqlite: $*" >&2; }
deps_require build-sqlite npm cc ar
deps_workdir sqlite
log "fetching the SQLite $SQLITE_VERSION amalgamation from npm (better-sqlite3@$BETTER_SQLITE3_VERSION)"
(cd "$WORK" && npm pack "better-sqlite3@$BETTER_SQLITE3_VERSION" --silent >/dev/null)
tar -xzf "$WORK/better-sqlite3-$BETTER_SQLITE3_VERSION.tgz" -C "$WORK" package/deps/sqlite3
SRC="$WORK/package/deps/sqlite3"
if ! echo "$SQLITE_SHA256  $SRC/sqlite3.c" | sha256sum --check --status; then
  log "sqlite3.c from better-sqlite3@$BETTER_SQLITE3_VERSION does not match the pinned sha256"
  exit 1
fi

log "compiling sqlite3.c (about a minute)"
mkdir -p "$WORK/out/include" "$WORK/out/lib"
cc "${CFLAGS_SQLITE[@]}" -c "$SRC/sqlite3.c" -o "$WORK/sqlite3.o"
ar rcs "$WORK/out/lib/libsqlite3.a" "$WORK/sqlite3.o"
cp "$SRC/sqlite3.h" "$SRC/sqlite3ext.h" "$WORK/out/include/"
printf 'SQLite %s (amalgamation from npm better-sqlite3@%s)\n%s\n' \
  "$SQLITE_VERSION" "$BETTER_SQLITE3_VERSION" "${CFLAGS_SQLITE[*]}" >"$WORK/out/VERSION"
deps_install "$WORK/out" "$PREFIX"
