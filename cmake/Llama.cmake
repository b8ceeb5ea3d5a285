# llama.cpp, built once by scripts/build-llama.sh into a cache outside the build tree (keyed by
# version and options) and linked statically. scripts/setup.sh passes the prefix; a plain
# `cmake` configure runs the script itself.
set(KEBAB_LLAMA_PREFIX "" CACHE PATH "llama.cpp install prefix made by scripts/build-llama.sh")
if(NOT KEBAB_LLAMA_PREFIX OR NOT EXISTS "${KEBAB_LLAMA_PREFIX}/.complete")
  message(STATUS "Building llama.cpp (cached after the first time) ...")
  execute_process(COMMAND "${CMAKE_SOURCE_DIR}/scripts/build-llama.sh"
                  OUTPUT_VARIABLE _llama_prefix OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _llama_rc)
  if(NOT _llama_rc EQUAL 0)
    message(FATAL_ERROR "scripts/build-llama.sh failed")
  endif()
  set(KEBAB_LLAMA_PREFIX "${_llama_prefix}" CACHE PATH
      "llama.cpp install prefix made by scripts/build-llama.sh" FORCE)
endif()

add_library(kebab_llama INTERFACE)
target_include_directories(kebab_llama SYSTEM INTERFACE "${KEBAB_LLAMA_PREFIX}/include")
# Order matters for static archives: users before what they use.
target_link_libraries(kebab_llama INTERFACE
  "${KEBAB_LLAMA_PREFIX}/lib/libllama.a"
  "${KEBAB_LLAMA_PREFIX}/lib/libggml.a"
  "${KEBAB_LLAMA_PREFIX}/lib/libggml-cpu.a"
  "${KEBAB_LLAMA_PREFIX}/lib/libggml-base.a"
  Threads::Threads m dl)

set(KEBAB_LLAMA_SERVER "${KEBAB_LLAMA_PREFIX}/bin/llama-server")
set(KEBAB_LLAMA_VOCAB_DIR "${KEBAB_LLAMA_PREFIX}/models")
