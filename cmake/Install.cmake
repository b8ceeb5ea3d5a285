# What `cmake --install build --prefix PREFIX` puts where (the GNU layout):
#   bin/kebab                                   the program
#   libexec/kebab/kebab-{pdf,ocr,audio}         its workers, which kebab looks for in
#                                               ../libexec/kebab from its own directory
#                                               (core/subprocess.h FindHelper)
#   share/man/man1/kebab.1                      the man page, made from --help
#   share/bash-completion/completions/kebab     completion for bash
#   share/zsh/site-functions/_kebab             completion for zsh
# kebab reads no file of its own besides these at run time: the tree-sitter grammars, the wire
# schemas and the model catalog are compiled in, so there is no share/kebab.
include(GNUInstallDirs)

install(TARGETS kebab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS kebab-pdf kebab-ocr kebab-audio
        RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/kebab)
file(RELATIVE_PATH _kebab_helpers_from_bin "${CMAKE_INSTALL_FULL_BINDIR}"
     "${CMAKE_INSTALL_FULL_LIBEXECDIR}/kebab")
if(NOT _kebab_helpers_from_bin STREQUAL "../libexec/kebab")
  message(WARNING "kebab looks for its workers in ../libexec/kebab from its own directory, but "
                  "they are installed in ${_kebab_helpers_from_bin} from it: an installed kebab "
                  "needs KEBAB_PDF_WORKER, KEBAB_OCR_WORKER and KEBAB_AUDIO_WORKER set")
endif()

# The man page and the completion scripts are made by the built kebab, from the same command
# tree it parses its arguments with, so they say what --help says. They are written into
# build/share in the installed layout (`man build/share/man/man1/kebab.1` reads the page
# uninstalled). Under a sanitizer kebab runs with the tests' options, so a report stops the build.
set(_kebab_share ${PROJECT_BINARY_DIR}/share)
set(_kebab_man ${_kebab_share}/man/man1/kebab.1)
set(_kebab_bash ${_kebab_share}/bash-completion/completions/kebab)
set(_kebab_zsh ${_kebab_share}/zsh/site-functions/_kebab)
set(_kebab_run ${CMAKE_COMMAND} -E env ${KEBAB_TEST_ENV})
add_custom_command(
  OUTPUT ${_kebab_man}
  COMMAND ${_kebab_run} python3 ${PROJECT_SOURCE_DIR}/cmake/man_page.py $<TARGET_FILE:kebab>
          ${_kebab_man}
  DEPENDS kebab $<TARGET_FILE:kebab> ${PROJECT_SOURCE_DIR}/cmake/man_page.py
  COMMENT "Writing the kebab(1) man page from kebab --help"
  VERBATIM)
add_custom_command(
  OUTPUT ${_kebab_bash} ${_kebab_zsh}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_kebab_share}/bash-completion/completions
          ${_kebab_share}/zsh/site-functions
  COMMAND ${_kebab_run} sh -c "\"$0\" completions bash >\"$1\" && \"$0\" completions zsh >\"$2\""
          $<TARGET_FILE:kebab> ${_kebab_bash} ${_kebab_zsh}
  DEPENDS kebab $<TARGET_FILE:kebab>
  COMMENT "Writing the bash and zsh completions from kebab's commands"
  VERBATIM)
add_custom_target(kebab_man_and_completions ALL DEPENDS ${_kebab_man} ${_kebab_bash} ${_kebab_zsh})

install(FILES ${_kebab_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${_kebab_bash} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${_kebab_zsh} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
