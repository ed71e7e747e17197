# cmake --install build --prefix P: the vibro command (P/bin), the engine and analysis headers
# (P/include/vibro) and archives (P/lib) a model plugin compiles and links against, and the CMake
# package P/lib/cmake/vibro (vibroConfig.cmake, its version file, the exported targets vibro::engine,
# vibro::analysis and vibro::vibro, and vibro_add_model()).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VIBRO_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vibro)
install(TARGETS vibro_engine vibro_analysis vibro EXPORT vibroTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine ${PROJECT_SOURCE_DIR}/analysis
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vibro FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/generated/vibro/version.hpp ${VIBRO_PLUGIN_ABI_HEADER}
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vibro/vibro)
install(EXPORT vibroTargets NAMESPACE vibro:: DESTINATION ${VIBRO_PACKAGE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/package/vibroConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/vibroConfig.cmake INSTALL_DESTINATION ${VIBRO_PACKAGE_DIR})
# A plugin runs only in the vibro whose headers it was built with (its ABI stamp), so only the exact
# version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/vibroConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY ExactVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/vibroConfig.cmake ${PROJECT_BINARY_DIR}/package/vibroConfigVersion.cmake
              ${VIBRO_PLUGIN_SUPPORT_DIR}/VibroAddModel.cmake ${VIBRO_PLUGIN_SUPPORT_DIR}/vibro_plugin_entry.cpp
              ${VIBRO_PLUGIN_SUPPORT_DIR}/vibro_plugin.map
        DESTINATION ${VIBRO_PACKAGE_DIR})
