# bench/vector_bench: kebab's vector search (store + OpenIndex + NearestChunks) against a bare
# USearch index and FAISS, on clustered vectors (see vector_bench.cc). FAISS is optional: when
# Debian's libfaiss-dev (a static libfaiss.a needing OpenMP, BLAS and LAPACK) is installed the
# FAISS rows are compiled in, else they print how to install it. bench/suite.py installs it.
add_executable(kebab_vector_bench
  vector_bench.cc
  vector_bench_faiss.cc
  vector_bench_kebab.cc
  vector_bench_usearch.cc)
target_link_libraries(kebab_vector_bench PRIVATE kebab_search kebab_index kebab_store kebab_usearch)

find_library(FAISS_LIBRARY faiss)
find_path(FAISS_INCLUDE_DIR faiss/IndexFlat.h)
if(FAISS_LIBRARY AND FAISS_INCLUDE_DIR)
  find_package(OpenMP COMPONENTS CXX)
  find_package(BLAS)
  find_package(LAPACK)
  if(OpenMP_CXX_FOUND AND BLAS_FOUND AND LAPACK_FOUND)
    target_compile_definitions(kebab_vector_bench PRIVATE KEBAB_BENCH_HAVE_FAISS=1)
    target_include_directories(kebab_vector_bench SYSTEM PRIVATE "${FAISS_INCLUDE_DIR}")
    target_link_libraries(kebab_vector_bench PRIVATE
      "${FAISS_LIBRARY}" OpenMP::OpenMP_CXX ${LAPACK_LIBRARIES} ${BLAS_LIBRARIES})
    message(STATUS "kebab_vector_bench: with FAISS (${FAISS_LIBRARY})")
  else()
    message(STATUS "kebab_vector_bench: FAISS found but OpenMP/BLAS/LAPACK missing; without FAISS")
  endif()
else()
  message(STATUS "kebab_vector_bench: without FAISS (apt-get install libfaiss-dev)")
endif()
