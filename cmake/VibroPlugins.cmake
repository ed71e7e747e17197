# What model plugins need from the build: the ABI stamp every plugin carries, position-independent
# archives of the engine and analysis under the names an installed vibro exports (vibro::engine,
# vibro::analysis), and vibro_add_model() for plugins built inside this tree (tests).
#
# Why a plugin links its own copy of these archives instead of binding, at load time, to symbols the
# vibro executable would export (ENABLE_EXPORTS / -rdynamic):
#  - an executable exports only the archive members it happened to link; a plugin calling an engine
#    function no built-in model uses would fail to load with "undefined symbol";
#  - exported template instantiations (Eigen, std::, the integrators) would interpose the plugin's
#    own, which a plugin built with other flags (-march=native changes Eigen's alignment) must not get;
#  - a plugin's Catch2 test is an ordinary executable that needs the same libraries anyway.
# So the archives are built with -fPIC, a plugin links them and exports one symbol (its entry point,
# cmake/package/vibro_plugin.map), and it hands its models to the host through that entry point (the
# host's registry, never a second copy of it). -fno-semantic-interposition keeps the cost of -fPIC off
# calls inside the archives (they cannot be interposed when the symbols are local to a plugin or linked
# into the executable).
#
# Floating-point contraction: vibro itself builds with -ffp-contract=off (CMakeLists.txt) so that its
# shared kernels give the CUDA back end's bits. That option is not exported to installed plugins: a
# plugin keeps the right to its own flags. A plugin's hybrid-model fields run as compiled on the cpu
# back end and as traced tapes (+ - * / one at a time) on the batched one, so a plugin built with
# contraction (-march=native on an FMA machine) gets batched results equal to its cpu ones to rounding,
# not bit for bit; one that wants the bits adds -ffp-contract=off itself.

# The ABI stamp: the project version and a hash of every header a plugin compiles against, regenerated
# at build time whenever one of them changes, so that a plugin built against other headers is refused.
# Called from the folder of `target` (a custom command's rule belongs to its own folder's targets).
set(VIBRO_PLUGIN_ABI_HEADER ${PROJECT_BINARY_DIR}/generated/vibro/plugin_abi_hash.hpp)
function(vibro_plugin_abi_stamp target)
  file(GLOB_RECURSE inputs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/engine/*.hpp ${PROJECT_SOURCE_DIR}/analysis/*.hpp)
  add_custom_command(
    OUTPUT ${VIBRO_PLUGIN_ABI_HEADER}
    COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -DOUT=${VIBRO_PLUGIN_ABI_HEADER}
            -DVERSION=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/VibroPluginAbi.cmake
    DEPENDS ${inputs} ${PROJECT_SOURCE_DIR}/cmake/VibroPluginAbi.cmake
    COMMENT "Stamping the plugin ABI")
  target_sources(${target} PRIVATE ${VIBRO_PLUGIN_ABI_HEADER})
endfunction()

# target: a static library a plugin links; export_name: its name as vibro::<export_name>.
function(vibro_pluggable_archive target export_name)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME ${export_name})
  target_compile_options(${target} PRIVATE -fno-semantic-interposition)
  add_library(vibro::${export_name} ALIAS ${target})
endfunction()

set(VIBRO_PLUGIN_SUPPORT_DIR ${CMAKE_CURRENT_LIST_DIR}/package)
include(${VIBRO_PLUGIN_SUPPORT_DIR}/VibroAddModel.cmake)
