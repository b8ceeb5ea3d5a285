# bench/embed_bench: embedding throughput of a GGUF model in kebab's llama embedder, batched as
# ingest embeds vs one text at a time, on the chunk texts of a kebab index (see embed_bench.cc;
# bench/embed_bench.py runs it on the models `cmake --build build --target kebab_bench_models`
# generates).
add_executable(kebab_embed_bench embed_bench.cc)
target_link_libraries(kebab_embed_bench PRIVATE kebab_embed kebab_store CLI11::CLI11)
