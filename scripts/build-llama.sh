#!/usr/bin/env bash
# Builds llama.cpp and whisper.cpp once as static CPU libraries over one ggml and caches them
# outside the repository, keyed by the source versions and the build options, so a fresh clone
# reuses them and a version bump rebuilds them. scripts/ggml-stack/CMakeLists.txt makes the two
# one CMake project in which whisper.cpp uses llama.cpp's ggml.
#
# The projects' own programs (llama-server for the tests; llama-bench and whisper-cli, the speed
# references of bench/generate_compare.py and bench/whisper_bench.py) go into a second cache
# entry, built only with --tools: kebab itself links the libraries alone, and llama-server is
# most of the build's time. A --tools run on an empty cache builds both in one pass and caches
# both.
#
# Sources, from npm (whose registry is reachable where GitHub is not): node-llama-cpp ships
# llama.cpp as a git bundle (package/llama/gitRelease.bundle), nodejs-whisper ships whisper.cpp
# as a source tree (package/cpp/whisper.cpp).
# scripts/llama-patches/*.patch are applied in name order (git apply) before building; their
# contents are part of the cache key, so changing a patch rebuilds the cache.
#
# Usage: scripts/build-llama.sh            prints the library prefix (include/, lib/, models/)
#        scripts/build-llama.sh --tools    prints the tools prefix (bin/)
# Env:   KEBAB_DEPS_CACHE  cache root (see scripts/lib/deps-cache.sh)
#        JOBS              parallel build jobs (default: nproc)
#        KEBAB_LLAMA_NO_PATCHES=1  build without scripts/llama-patches (to compare against)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/deps-cache.sh"

NODE_LLAMA_CPP_VERSION=3.22.1
LLAMA_COMMIT=de3ff815ea7d559ee917f063901b8986f038abc6
NODEJS_WHISPER_VERSION=0.3.1
WHISPER_VERSION=1.9.1
# x86-64-v3 (AVX2/FMA/F16C) rather than -march=native: the binary must run on other machines
# than the one that built it. No OpenMP (ggml's own thread pool; no libgomp at run time), no
# network code in the library, no web UI download.
CMAKE_OPTIONS=(
  -DCMAKE_BUILD_TYPE=Release
  -DBUILD_SHARED_LIBS=OFF
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
  -DGGML_OPENMP=OFF
  -DLLAMA_OPENSSL=OFF
  -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF
  -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF
  -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_EXAMPLES=ON -DWHISPER_BUILD_SERVER=OFF
  -DWHISPER_SDL2=OFF -DWHISPER_CURL=OFF
)
STACK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ggml-stack

PATCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/llama-patches
PATCHES=()
if [[ -d "$PATCH_DIR" && -z "${KEBAB_LLAMA_NO_PATCHES:-}" ]]; then
  while IFS= read -r -d '' patch; do PATCHES+=("$patch"); done \
    < <(find "$PATCH_DIR" -maxdepth 1 -name '*.patch' -print0 | sort -z)
fi

WANT_TOOLS=0
case "${1:-}" in
  --tools) WANT_TOOLS=1 ;;
  "") ;;
  *) echo "usage: scripts/build-llama.sh [--tools]" >&2; exit 2 ;;
esac

OPTIONS_KEY=$({
  printf '%s\n' "${CMAKE_OPTIONS[@]}" "$NODEJS_WHISPER_VERSION"
  cat "${PATCHES[@]}" "$STACK_DIR/CMakeLists.txt" </dev/null
} | sha256sum | cut -c1-12)
VERSIONS="llama.cpp-$NODE_LLAMA_CPP_VERSION+whisper.cpp-$WHISPER_VERSION-$OPTIONS_KEY"
LIB_PREFIX="$DEPS_CACHE_ROOT/$VERSIONS"
# The tools a prefix holds are part of its key: a prefix without one is rebuilt.
TOOLS=(llama-server llama-bench whisper-cli)
TOOLS_KEY=$(printf '%s\n' "${TOOLS[@]}" | sha256sum | cut -c1-8)
TOOLS_PREFIX="$DEPS_CACHE_ROOT/llama-tools-$VERSIONS-$TOOLS_KEY"

log() { echo "build-llama: $*" >&2; }

# Until 2026-12 one prefix held the libraries and the tools, keyed by both. A cache that has
# one built from the same sources and options is split into the two entries, not rebuilt.
COMBINED_KEY=$({
  printf '%s\n' "${CMAKE_OPTIONS[@]}" "${TOOLS[@]}" "$NODEJS_WHISPER_VERSION"
  cat "${PATCHES[@]}" "$STACK_DIR/CMakeLists.txt" </dev/null
} | sha256sum | cut -c1-12)
COMBINED="$DEPS_CACHE_ROOT/llama.cpp-$NODE_LLAMA_CPP_VERSION+whisper.cpp-$WHISPER_VERSION-$COMBINED_KEY"
if [[ -f "$COMBINED/.complete" && ! ( -f "$LIB_PREFIX/.complete" && -f "$TOOLS_PREFIX/.complete" ) ]]; then
  log "splitting $COMBINED into the library and tools entries"
  deps_workdir split
  if [[ ! -f "$LIB_PREFIX/.complete" ]]; then
    cp -a "$COMBINED" "$WORK/libs" && rm -rf "$WORK/libs/bin" "$WORK/libs/.complete"
    deps_install "$WORK/libs" "$LIB_PREFIX" >/dev/null
  fi
  if [[ ! -f "$TOOLS_PREFIX/.complete" ]]; then
    mkdir -p "$WORK/tools" && cp -a "$COMBINED/bin" "$COMBINED/VERSION" "$WORK/tools/"
    deps_install "$WORK/tools" "$TOOLS_PREFIX" >/dev/null
  fi
fi

if [[ "$WANT_TOOLS" = 1 ]]; then
  deps_reuse "$TOOLS_PREFIX"
else
  deps_reuse "$LIB_PREFIX"
fi
deps_require build-llama npm git cmake
deps_workdir build

log "fetching node-llama-cpp@$NODE_LLAMA_CPP_VERSION from npm"
(cd "$WORK" && npm pack "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" --silent >/dev/null)
tar -xzf "$WORK/node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz" -C "$WORK" package/llama/gitRelease.bundle
git clone -q "$WORK/package/llama/gitRelease.bundle" "$WORK/src" 2>/dev/null
got=$(git -C "$WORK/src" rev-parse HEAD)
if [[ "$got" != "$LLAMA_COMMIT" ]]; then
  log "unexpected llama.cpp commit $got (want $LLAMA_COMMIT)"
  exit 1
fi
log "fetching nodejs-whisper@$NODEJS_WHISPER_VERSION from npm"
(cd "$WORK" && npm pack "nodejs-whisper@$NODEJS_WHISPER_VERSION" --silent >/dev/null)
mkdir -p "$WORK/whisper"
tar -xzf "$WORK/nodejs-whisper-$NODEJS_WHISPER_VERSION.tgz" -C "$WORK/whisper" package/cpp/whisper.cpp
WHISPER_SRC="$WORK/whisper/package/cpp/whisper.cpp"
got=$(sed -n 's/^project("whisper\.cpp" VERSION \([0-9.]*\)).*/\1/p' "$WHISPER_SRC/CMakeLists.txt")
if [[ "$got" != "$WHISPER_VERSION" ]]; then
  log "unexpected whisper.cpp version '$got' in nodejs-whisper@$NODEJS_WHISPER_VERSION (want $WHISPER_VERSION)"
  exit 1
fi
for patch in "${PATCHES[@]}"; do
  log "applying $(basename "$patch")"
  git -C "$WORK/src" apply "$patch" || { log "$patch does not apply to $LLAMA_COMMIT"; exit 1; }
done

TARGETS=(llama whisper ggml)
[[ "$WANT_TOOLS" = 1 ]] && TARGETS+=("${TOOLS[@]}")
log "building llama.cpp ${LLAMA_COMMIT:0:10} and whisper.cpp $WHISPER_VERSION: ${TARGETS[*]}" \
  "(minutes, once per version)"
cmake -S "$STACK_DIR" -B "$WORK/build" -G Ninja "${CMAKE_OPTIONS[@]}" \
  -DLLAMA_SRC="$WORK/src" -DWHISPER_SRC="$WHISPER_SRC" >"$WORK/configure.log" 2>&1 ||
  { cat "$WORK/configure.log" >&2; exit 1; }
cmake --build "$WORK/build" -j "${JOBS:-$(nproc)}" --target "${TARGETS[@]}" \
  >"$WORK/build.log" 2>&1 || { tail -50 "$WORK/build.log" >&2; exit 1; }

VERSION_LINES=$({
  echo "node-llama-cpp@$NODE_LLAMA_CPP_VERSION llama.cpp@$LLAMA_COMMIT"
  echo "nodejs-whisper@$NODEJS_WHISPER_VERSION whisper.cpp@$WHISPER_VERSION"
  for patch in "${PATCHES[@]}"; do echo "patch $(basename "$patch")"; done
})

# The libraries are staged whenever the cache lacks them, so a --tools run on an empty cache
# also gives scripts/setup.sh the library prefix without a second build.
if [[ ! -f "$LIB_PREFIX/.complete" ]]; then
  STAGE="$WORK/prefix"
  mkdir -p "$STAGE/lib" "$STAGE/include" "$STAGE/models"
  find "$WORK/build" -name 'lib*.a' \( -name 'libllama.a' -o -name 'libwhisper.a' -o -name 'libggml*.a' \) \
    -exec cp {} "$STAGE/lib/" \;
  for lib in libllama.a libwhisper.a libggml.a libggml-base.a libggml-cpu.a; do
    [[ -f "$STAGE/lib/$lib" ]] || { log "the build made no $lib"; exit 1; }
  done
  cp "$WORK/src/include/llama.h" "$WHISPER_SRC/include/whisper.h" "$WORK/src/ggml/include/"*.h \
    "$STAGE/include/"
  # Vocab-only GGUFs: the tests build tiny random-weight models of real architectures from them.
  cp "$WORK/src/models/ggml-vocab-"*.gguf "$STAGE/models/"
  cp "$WORK/src/LICENSE" "$STAGE/LICENSE.llama.cpp"
  cp "$WHISPER_SRC/LICENSE" "$STAGE/LICENSE.whisper.cpp"
  echo "$VERSION_LINES" >"$STAGE/VERSION"
  log "caching the libraries in $LIB_PREFIX"
  if [[ "$WANT_TOOLS" = 1 ]]; then
    deps_install "$STAGE" "$LIB_PREFIX" >/dev/null
  else
    deps_install "$STAGE" "$LIB_PREFIX"
    exit 0
  fi
fi

TOOLS_STAGE="$WORK/tools"
mkdir -p "$TOOLS_STAGE/bin"
for tool in "${TOOLS[@]}"; do cp "$WORK/build/bin/$tool" "$TOOLS_STAGE/bin/"; done
echo "$VERSION_LINES" >"$TOOLS_STAGE/VERSION"
log "caching the tools in $TOOLS_PREFIX"
deps_install "$TOOLS_STAGE" "$TOOLS_PREFIX"
