# llama.cpp and whisper.cpp over one ggml, built once by scripts/build-llama.sh into a cache
# outside the build tree (keyed by versions and options) and linked statically.
# scripts/setup.sh passes the prefix; a plain `cmake` configure runs the script itself.
kebab_cached_dependency(KEBAB_LLAMA_PREFIX scripts/build-llama.sh
                        "llama.cpp + whisper.cpp install prefix made by scripts/build-llama.sh")

# Order matters for static archives: users before what they use.
add_library(kebab_ggml INTERFACE)
target_include_directories(kebab_ggml SYSTEM INTERFACE "${KEBAB_LLAMA_PREFIX}/include")
target_link_libraries(kebab_ggml INTERFACE
  "${KEBAB_LLAMA_PREFIX}/lib/libggml.a"
  "${KEBAB_LLAMA_PREFIX}/lib/libggml-cpu.a"
  "${KEBAB_LLAMA_PREFIX}/lib/libggml-base.a"
  Threads::Threads m dl)

add_library(kebab_llama INTERFACE)
target_link_libraries(kebab_llama INTERFACE "${KEBAB_LLAMA_PREFIX}/lib/libllama.a" kebab_ggml)

add_library(kebab_whisper INTERFACE)
target_link_libraries(kebab_whisper INTERFACE "${KEBAB_LLAMA_PREFIX}/lib/libwhisper.a" kebab_ggml)

# The projects' own programs (llama-server for the tests, llama-bench and whisper-cli for the
# benchmarks) are a second cache entry, made only for a build with tests or benchmarks.
if(KEBAB_BUILD_TESTS OR KEBAB_BUILD_BENCH)
  kebab_cached_dependency(KEBAB_LLAMA_TOOLS_PREFIX scripts/build-llama.sh
                          "llama-server, llama-bench, whisper-cli made by scripts/build-llama.sh --tools"
                          --tools)
  set(KEBAB_LLAMA_SERVER "${KEBAB_LLAMA_TOOLS_PREFIX}/bin/llama-server")
endif()
set(KEBAB_LLAMA_VOCAB_DIR "${KEBAB_LLAMA_PREFIX}/models")

# The whisper.cpp version, which names the engine in transcript cache keys (parse/transcriber.cc)
# without kebab linking whisper.cpp itself: only the kebab-audio worker does.
file(STRINGS "${KEBAB_LLAMA_PREFIX}/VERSION" _whisper_line REGEX "whisper\\.cpp@")
string(REGEX REPLACE ".*whisper\\.cpp@([0-9.]+).*" "\\1" KEBAB_WHISPER_VERSION "${_whisper_line}")
