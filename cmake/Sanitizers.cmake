# KEBAB_SANITIZE builds kebab's own targets (src/, tests/, bench/: everything created after this
# file is included) with GCC's sanitizers; scripts/test.sh --sanitize=asan|tsan sets it.
#   address,undefined  AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer
#   thread             ThreadSanitizer
# Asserts are on (-UNDEBUG after the build type's -DNDEBUG) and the build type's -O2 stays, so
# the tests still run in minutes. The third-party code built outside the repository (SQLite,
# llama.cpp: scripts/build-sqlite.sh, build-llama.sh) and the Debian libraries stay
# uninstrumented, as do blake3 and SimSIMD (created in cmake/Dependencies.cmake and USearch.cmake
# before this file is included).
#
# KEBAB_TEST_ENV holds the sanitizer run-time options every test gets (kebab_add_test, the e2e
# tests): a report fails the test with an exit code none of kebab's own (0 1 2 3 130) can be
# mistaken for: 86 AddressSanitizer and LeakSanitizer, 87 UndefinedBehaviorSanitizer, 88
# ThreadSanitizer.
set(KEBAB_SANITIZE "" CACHE STRING
    "Sanitizers for kebab's own targets: empty (none), address,undefined, or thread")
set(KEBAB_TEST_ENV "")
if(NOT KEBAB_SANITIZE)
  return()
endif()

set(_supp "${PROJECT_SOURCE_DIR}/tests/sanitizers")
if(KEBAB_SANITIZE STREQUAL "address,undefined")
  # -fno-sanitize-recover: the first undefined behaviour ends the process (with UBSAN_OPTIONS'
  # exit code) instead of printing a line and carrying on, which a test could pass despite.
  set(_flags -fsanitize=address,undefined -fno-sanitize-recover=all)
  list(APPEND KEBAB_TEST_ENV
    "ASAN_OPTIONS=exitcode=86:abort_on_error=0:detect_leaks=1:check_initialization_order=1:strict_init_order=1"
    "LSAN_OPTIONS=suppressions=${_supp}/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=87")
elseif(KEBAB_SANITIZE STREQUAL "thread")
  set(_flags -fsanitize=thread)
  list(APPEND KEBAB_TEST_ENV
    "TSAN_OPTIONS=halt_on_error=1:exitcode=88:second_deadlock_stack=1:suppressions=${_supp}/tsan.supp:print_suppressions=0")
else()
  message(FATAL_ERROR "KEBAB_SANITIZE=${KEBAB_SANITIZE}: expected empty, address,undefined or thread")
endif()

# Frame pointers give the reports whole stacks at the cost of one register. (kebab's own targets
# are C and C++ only, so no language guard is needed.)
add_compile_options(${_flags} -fno-omit-frame-pointer -UNDEBUG)
add_link_options(${_flags})
message(STATUS "kebab: sanitizers ${KEBAB_SANITIZE}, asserts on")
