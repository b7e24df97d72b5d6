# gpusc_add_library(<folder> SOURCES ... DEPS ...): the static library gpusc_<folder>, also
# gpusc::<folder> here and in the installed package (cmake/GpuscInstall.cmake).
function(gpusc_add_library folder)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS" ${ARGN})
  set(t gpusc_${folder})
  add_library(${t} STATIC ${A_SOURCES})
  target_include_directories(${t} PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/modules>)
  target_link_libraries(${t} PUBLIC ${A_DEPS})
  gpusc_warnings(${t})
  gpusc_export(${t} ${folder} ${folder})
endfunction()

# gpusc_add_testbench(<name> SOURCES ... DEPS ...): a Catch2 executable whose TEST_CASEs
# each run as their own ctest entry (SystemC cannot elaborate twice in one process).
function(gpusc_add_testbench name)
  cmake_parse_arguments(A "" "TIMEOUT" "SOURCES;DEPS" ${ARGN})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  add_executable(${name} ${A_SOURCES})
  target_link_libraries(${name} PRIVATE gpusc_harness ${A_DEPS})
  gpusc_warnings(${name})
  catch_discover_tests(${name} TEST_PREFIX "${name}: " PROPERTIES TIMEOUT ${A_TIMEOUT})
endfunction()
