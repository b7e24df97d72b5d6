# Installing gpusc as a CMake package, so that an outside project writes
#   find_package(gpusc REQUIRED)
#   target_link_libraries(my_sim PRIVATE gpusc::noc gpusc::mem)
# Layout under the prefix:
#   include/gpusc/<folder>/*.h        headers, included as "noc/router.h", "common/params.h",
#                                      "platforms/mesh_gpu/mesh_gpu.h" (include/gpusc is on the path)
#   lib/libgpusc_<folder>.a            the static libraries
#   lib/cmake/gpusc/                   gpusc-config.cmake, gpusc-config-version.cmake, gpusc-targets*.cmake
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(GPUSC_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/gpusc)
set(GPUSC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpusc)

# gpusc_export(<target> <name> <header folder>): makes the library <target> available as
# gpusc::<name>, in this tree (ALIAS) and in the installed package, and installs the headers of
# the current source folder under include/gpusc/<header folder>. Its include directories must be
# given as $<BUILD_INTERFACE:...>; the installed target gets include/gpusc.
function(gpusc_export target name header_folder)
  add_library(gpusc::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_compile_features(${target} PUBLIC cxx_std_17)
  install(TARGETS ${target} EXPORT gpusc-targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${GPUSC_INSTALL_INCLUDEDIR})
  file(GLOB headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.h)
  install(FILES ${headers} DESTINATION ${GPUSC_INSTALL_INCLUDEDIR}/${header_folder})
endfunction()

# gpusc_install_package(): the exported targets and the package config; call once, after every
# folder is added.
function(gpusc_install_package)
  install(EXPORT gpusc-targets NAMESPACE gpusc:: DESTINATION ${GPUSC_INSTALL_CMAKEDIR})
  configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/gpusc-config.cmake.in
                                ${CMAKE_BINARY_DIR}/gpusc-config.cmake
                                INSTALL_DESTINATION ${GPUSC_INSTALL_CMAKEDIR})
  # 0.x: a minor version may break the API, so only the same major.minor is compatible.
  write_basic_package_version_file(${CMAKE_BINARY_DIR}/gpusc-config-version.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_BINARY_DIR}/gpusc-config.cmake ${CMAKE_BINARY_DIR}/gpusc-config-version.cmake
          DESTINATION ${GPUSC_INSTALL_CMAKEDIR})
endfunction()

# gpusc_add_installed_example_test(<example folder> <executable> <output regex>): a ctest test
# that installs this build into a prefix inside the build tree, builds the example folder as an
# outside project against it (find_package(gpusc)), runs <executable> and matches its output.
function(gpusc_add_installed_example_test example exe regex)
  get_filename_component(dir ${example} ABSOLUTE)
  get_filename_component(leaf ${dir} NAME)
  set(name "install: examples/${leaf} builds and runs against the installed gpusc package")
  set(flags "")
  if(GPUSC_SANITIZE)
    set(flags "-fsanitize=address,undefined -fno-omit-frame-pointer")
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND}
                   -DGPUSC_BUILD_DIR=${CMAKE_BINARY_DIR} -DGPUSC_SOURCE_DIR=${CMAKE_SOURCE_DIR}
                   -DCONFIG=$<CONFIG> -DEXAMPLE_DIR=${dir} -DEXECUTABLE=${exe}
                   -DWORK_DIR=${CMAKE_BINARY_DIR}/installed_examples/${leaf}
                   -DGENERATOR=${CMAKE_GENERATOR} -DCXX=${CMAKE_CXX_COMPILER} "-DFLAGS=${flags}"
                   "-DEXPECT=${regex}"
                   -P ${CMAKE_SOURCE_DIR}/cmake/InstalledExampleTest.cmake)
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 LABELS install)
endfunction()
