# SQLite from its amalgamation, built once into a cache by scripts/build-sqlite.sh (see there
# for why not Debian's libsqlite3). Always linked statically: every kebab command opens the
# store, and `kebab search` is a whole process per query.
kebab_cached_dependency(KEBAB_SQLITE_PREFIX scripts/build-sqlite.sh
                        "SQLite install prefix made by scripts/build-sqlite.sh")

add_library(kebab_sqlite3 STATIC IMPORTED GLOBAL)
set_target_properties(kebab_sqlite3 PROPERTIES
  IMPORTED_LOCATION "${KEBAB_SQLITE_PREFIX}/lib/libsqlite3.a"
  INTERFACE_LINK_LIBRARIES "m;Threads::Threads")
# SYSTEM, and ahead of /usr/include, so this sqlite3.h wins over Debian's (libsqlite3-dev stays
# installed for the sqlite3 CLI the benchmarks use as their floor).
target_include_directories(kebab_sqlite3 SYSTEM BEFORE INTERFACE "${KEBAB_SQLITE_PREFIX}/include")
