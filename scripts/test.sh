#!/usr/bin/env bash
# Builds kebab with its tests (installing what is missing, the test and benchmark packages too:
# scripts/setup.sh --tests) and runs the whole test suite with CTest.
#   scripts/test.sh [CTEST_ARG...]                  build/, the directory scripts/setup.sh builds
#   scripts/test.sh --sanitize=asan [CTEST_ARG...]  build-asan/: AddressSanitizer, LeakSanitizer
#                                                   and UndefinedBehaviorSanitizer, asserts on
#   scripts/test.sh --sanitize=tsan [CTEST_ARG...]  build-tsan/: ThreadSanitizer, asserts on
# The sanitizer builds have their own directories so they never disturb build/, leave out the
# benchmark programs (no test runs them), and share setup.sh's dependency prefixes
# (cmake/Sanitizers.cmake has what is instrumented and which options make a report fail its
# test).
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  --sanitize=asan)
    shift
    BUILD_DIR=build-asan
    scripts/setup.sh --tests --build-dir="$BUILD_DIR" -DKEBAB_SANITIZE=address,undefined \
      -DKEBAB_BUILD_BENCH=OFF
    ;;
  --sanitize=tsan)
    shift
    BUILD_DIR=build-tsan
    scripts/setup.sh --tests --build-dir="$BUILD_DIR" -DKEBAB_SANITIZE=thread -DKEBAB_BUILD_BENCH=OFF
    ;;
  --sanitize=*)
    echo "test.sh: unknown sanitizer mode ${1#--sanitize=} (asan or tsan)" >&2
    exit 2
    ;;
  *)
    BUILD_DIR=build
    scripts/setup.sh --tests
    ;;
esac
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" "$@"
