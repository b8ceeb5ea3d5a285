# USearch (header-only HNSW / exact vector search) from the npm package, fetched once into a
# cache by scripts/fetch-usearch.sh. SimSIMD's distance kernels are compiled once with dynamic
# dispatch (simsimd/c/lib.c): each kernel is built for several x86 / Arm targets and picked at
# run time from the CPU's features, so the binary runs on CPUs other than the build machine's.
set(KEBAB_USEARCH_DIR "" CACHE PATH "usearch package directory made by scripts/fetch-usearch.sh")
if(NOT KEBAB_USEARCH_DIR OR NOT EXISTS "${KEBAB_USEARCH_DIR}/.complete")
  execute_process(COMMAND "${CMAKE_SOURCE_DIR}/scripts/fetch-usearch.sh"
                  OUTPUT_VARIABLE _usearch_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _usearch_rc)
  if(NOT _usearch_rc EQUAL 0)
    message(FATAL_ERROR "scripts/fetch-usearch.sh failed")
  endif()
  set(KEBAB_USEARCH_DIR "${_usearch_dir}" CACHE PATH
      "usearch package directory made by scripts/fetch-usearch.sh" FORCE)
endif()

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
