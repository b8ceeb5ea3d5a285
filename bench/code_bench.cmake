# bench/code_parse_floor: the parse-only floor of code ingest (see code_parse_floor.cc;
# bench/code_bench.py runs it): the grammars kebab links (kebab_grammars, from
# KEBAB_GRAMMARS_DIR) parsing the files kebab indexed, one worker per core, nothing stored.
add_executable(kebab_code_parse_floor code_parse_floor.cc)
target_link_libraries(kebab_code_parse_floor PRIVATE kebab_grammars)
# The grammars' entry points are declared once, in parse's grammars.h.
target_include_directories(kebab_code_parse_floor PRIVATE ${PROJECT_SOURCE_DIR}/src)
