# vibro_add_model(NAME SOURCES file.cpp ...): a model plugin NAME.so that `vibro --plugin NAME.so`
# (or `plugin = ...` in a sweep file, or a folder on VIBRO_PLUGIN_PATH) loads. The sources register
# their models as built-in models do (static vibro::RegisterModel<MyModel> registration;).
#
# Also made: NAME_objects, the compiled sources, for a test executable to link
# (target_link_libraries(my_test PRIVATE NAME_objects)), so that the model compiles once.
#
# The plugin links the engine and analysis archives into itself and exports one symbol, its entry
# point (vibro_plugin.map): see the comment at the top of vibro's cmake/VibroPlugins.cmake for why.
set(VIBRO_PLUGIN_SUPPORT_DIR ${CMAKE_CURRENT_LIST_DIR})

function(vibro_add_model name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "vibro_add_model(${name} ...): unexpected arguments ${ARG_UNPARSED_ARGUMENTS}; expected SOURCES file.cpp ...")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "vibro_add_model(${name} ...): no SOURCES; expected SOURCES file.cpp ...")
  endif()
  add_library(${name}_objects OBJECT ${ARG_SOURCES})
  set_target_properties(${name}_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(${name}_objects PUBLIC vibro::analysis)
  add_library(${name} MODULE ${VIBRO_PLUGIN_SUPPORT_DIR}/vibro_plugin_entry.cpp)
  target_link_libraries(${name} PRIVATE ${name}_objects vibro::analysis)
  # NAME.so, not libNAME.so: the file is named on command lines and in sweep files, never linked to.
  set_target_properties(${name} PROPERTIES PREFIX "")
  # Every symbol resolved inside the plugin at link time (a missing one is a build error, not a load
  # error), and only the entry point visible to the loader.
  target_link_options(${name} PRIVATE "LINKER:--no-undefined" "LINKER:--exclude-libs,ALL"
                      "LINKER:--version-script=${VIBRO_PLUGIN_SUPPORT_DIR}/vibro_plugin.map")
  set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${VIBRO_PLUGIN_SUPPORT_DIR}/vibro_plugin.map)
endfunction()
