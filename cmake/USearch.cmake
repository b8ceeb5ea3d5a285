# USearch (header-only HNSW / exact vector search) from the npm package, fetched once into a
# cache by scripts/fetch-usearch.sh. SimSIMD's distance kernels are compiled once with dynamic
# dispatch (simsimd/c/lib.c): each kernel is built for several x86 / Arm targets and picked at
# run time from the CPU's features, so the binary runs on CPUs other than the build machine's.
kebab_cached_dependency(KEBAB_USEARCH_DIR scripts/fetch-usearch.sh
                        "usearch package directory made by scripts/fetch-usearch.sh")

add_library(kebab_simsimd STATIC "${KEBAB_USEARCH_DIR}/simsimd/c/lib.c")
target_include_directories(kebab_simsimd SYSTEM PUBLIC "${KEBAB_USEARCH_DIR}/simsimd/include")
set_target_properties(kebab_simsimd PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_compile_options(kebab_simsimd PRIVATE -O3 -w)

add_library(kebab_usearch INTERFACE)
target_include_directories(kebab_usearch SYSTEM INTERFACE
  "${KEBAB_USEARCH_DIR}/include" "${KEBAB_USEARCH_DIR}/fp16/include")
target_compile_definitions(kebab_usearch INTERFACE
  USEARCH_USE_SIMSIMD=1 SIMSIMD_DYNAMIC_DISPATCH=1 SIMSIMD_NATIVE_F16=0 SIMSIMD_NATIVE_BF16=0
  USEARCH_USE_FP16LIB=1 USEARCH_USE_OPENMP=0)
target_link_libraries(kebab_usearch INTERFACE kebab_simsimd Threads::Threads)
