# A build without Verilator (issue 23: "a missing verilator is a clear configure message and the
# RTL targets are skipped, never a broken build"): configures this source tree into WORK_DIR with
# find_package(verilator) disabled, checks the configure message and that nothing was verilated,
# then compiles the two RTL wrappers in that mode (their no-Verilator branch: a clear error when
# a platform asks for an RTL unit). Run as
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX=... [-DLAUNCHER=ccache] -P no_verilator.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK_DIR})
set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR} -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_BUILD_TYPE=Release -DGPUSC_BUILD_TESTS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_verilator=TRUE
                        ${launcher}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure without Verilator failed (exit ${rc}):\n${out}${err}")
endif()
if(NOT out MATCHES "Verilator \\(>= 5, Debian package 'verilator'\\) not found: the RTL units of rtl/")
  message(FATAL_ERROR "configure without Verilator did not say so:\n${out}")
endif()
if(EXISTS ${WORK_DIR}/rtl)
  message(FATAL_ERROR "configure without Verilator still verilated something (${WORK_DIR}/rtl exists)")
endif()
foreach(obj "modules/critical;rtl_dpc_codec.cpp.o" "modules/coalesce;rtl_grouping_registers.cpp.o")
  list(GET obj 0 dir)
  list(GET obj 1 target)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/${dir} --target ${target}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${dir}/${target} does not compile without Verilator (exit ${rc}):\n${out}${err}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
message(STATUS "configured without Verilator, the RTL wrappers compile in that mode")
