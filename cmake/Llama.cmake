# llama.cpp, built once by scripts/build-llama.sh into a cache outside the build tree (keyed by
# version and options) and linked statically. scripts/setup.sh passes the prefix; a plain
# `cmake` configure runs the script itself.
kebab_cached_dependency(KEBAB_LLAMA_PREFIX scripts/build-llama.sh
                        "llama.cpp install prefix made by scripts/build-llama.sh")

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
