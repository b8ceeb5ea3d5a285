# cpp-httplib, the HTTP server under `kebab mcp --http`, fetched once into a cache by
# scripts/fetch-httplib.sh (llama.cpp's vendored copy) and compiled here as a static library
# without TLS (kebab serves loopback; see the script for why not Debian's shared library).
kebab_cached_dependency(KEBAB_HTTPLIB_DIR scripts/fetch-httplib.sh
                        "cpp-httplib directory made by scripts/fetch-httplib.sh")

add_library(kebab_httplib STATIC "${KEBAB_HTTPLIB_DIR}/httplib.cpp")
target_include_directories(kebab_httplib SYSTEM PUBLIC "${KEBAB_HTTPLIB_DIR}")
# Replies go out at once (no Nagle delay on a small JSON body), as llama.cpp's server does.
target_compile_definitions(kebab_httplib PRIVATE CPPHTTPLIB_TCP_NODELAY=1)
target_compile_options(kebab_httplib PRIVATE -w)
target_link_libraries(kebab_httplib PUBLIC Threads::Threads)
