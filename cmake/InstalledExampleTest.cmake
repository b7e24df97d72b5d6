# cmake -P script behind gpusc_add_installed_example_test (cmake/GpuscInstall.cmake): installs the
# gpusc build GPUSC_BUILD_DIR into WORK_DIR/prefix, checks that the installed CMake files name no
# path of the source or build tree, configures and builds EXAMPLE_DIR as an outside project with
# CMAKE_PREFIX_PATH=WORK_DIR/prefix, runs its EXECUTABLE and matches the output against EXPECT.
# Everything is written under WORK_DIR.
foreach(v GPUSC_BUILD_DIR GPUSC_SOURCE_DIR EXAMPLE_DIR EXECUTABLE WORK_DIR GENERATOR CXX EXPECT)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "InstalledExampleTest.cmake: -D${v}=... is required")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

set(config_args "")
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
run("cmake --install" ${CMAKE_COMMAND} --install ${GPUSC_BUILD_DIR} --prefix ${prefix} ${config_args})

# A relocatable package: no absolute path of the trees it was built from.
file(GLOB_RECURSE cmake_files ${prefix}/*.cmake)
if(NOT cmake_files)
  message(FATAL_ERROR "no CMake package files installed under ${prefix}")
endif()
foreach(f ${cmake_files})
  file(READ ${f} text)
  foreach(tree ${GPUSC_SOURCE_DIR} ${GPUSC_BUILD_DIR})
    string(FIND "${text}" "${tree}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} names ${tree}: the installed package must not point into the build")
    endif()
  endforeach()
endforeach()

# The example as an outside project: only the prefix, no package registry.
set(cfg ${CONFIG})
if(NOT cfg)
  set(cfg Release)
endif()
run("configuring ${EXAMPLE_DIR}" ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=${cfg} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
    "-DCMAKE_CXX_FLAGS=${FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}")
run("building ${EXAMPLE_DIR}" ${CMAKE_COMMAND} --build ${WORK_DIR}/build --config ${cfg})

# Its compile lines must take gpusc's headers from the prefix, not from the source tree.
file(READ ${WORK_DIR}/build/compile_commands.json commands)
string(FIND "${commands}" "${GPUSC_SOURCE_DIR}/modules" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "the example compiled against ${GPUSC_SOURCE_DIR}/modules, not the installed headers")
endif()

set(exe ${WORK_DIR}/build/${EXECUTABLE})
if(NOT EXISTS ${exe})
  set(exe ${WORK_DIR}/build/${cfg}/${EXECUTABLE})
endif()
run("running ${EXECUTABLE}" ${exe})
message("${out}")
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "${EXECUTABLE}'s output does not match '${EXPECT}'")
endif()
