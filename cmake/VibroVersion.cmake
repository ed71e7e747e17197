# Program version and git revision, recorded in every output file's provenance.
find_package(Git QUIET)
set(VIBRO_GIT_REVISION "unknown")
if(GIT_FOUND AND EXISTS ${CMAKE_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  OUTPUT_VARIABLE VIBRO_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(NOT VIBRO_GIT_REVISION)
  set(VIBRO_GIT_REVISION "unknown")
endif()
# Re-configure when a commit or checkout changes the revision.
foreach(git_file HEAD index)
  if(EXISTS ${CMAKE_SOURCE_DIR}/.git/${git_file})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/.git/${git_file})
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.hpp.in ${CMAKE_BINARY_DIR}/generated/vibro/version.hpp @ONLY)
