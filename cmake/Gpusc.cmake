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

# gpusc_add_platform(<name> SOURCES ... DEPS ...): a platform folder (platforms/<name>): the
# library gpusc_<name> from SOURCES plus its presets (presets/*.json compiled in as
# gpusc::<name>::preset_texts(), so the binary runs from anywhere), exported as gpusc::<name>,
# and the executable <name> from main.cpp on the shared command line (platforms/run_options.h).
function(gpusc_add_platform name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS" ${ARGN})
  file(GLOB preset_files CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/presets/*.json)
  set(entries "")
  foreach(f ${preset_files})
    get_filename_component(n ${f} NAME_WE)
    file(READ ${f} text)
    string(APPEND entries "      {\"${n}\", R\"gpusc_preset(${text})gpusc_preset\"},\n")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${preset_files})
  file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/presets_data.cpp CONTENT
"// Generated from platforms/${name}/presets/*.json at configure time.
#include <map>
#include <string>
namespace gpusc::${name} {
const std::map<std::string, std::string>& preset_texts() {
  static const std::map<std::string, std::string> texts = {
${entries}  };
  return texts;
}
}  // namespace gpusc::${name}
" @ONLY)
  add_library(gpusc_${name} STATIC ${A_SOURCES} ${CMAKE_CURRENT_BINARY_DIR}/presets_data.cpp)
  target_include_directories(gpusc_${name} PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}>)
  target_link_libraries(gpusc_${name} PUBLIC gpusc_preset_catalog ${A_DEPS})
  gpusc_warnings(gpusc_${name})
  gpusc_export(gpusc_${name} ${name} platforms/${name})
  add_executable(${name} main.cpp)
  target_link_libraries(${name} PRIVATE gpusc_${name} gpusc_run_options)
  gpusc_warnings(${name})
endfunction()

# gpusc_split_case(<case> <first> <second> <third>): the three fields of "A|B|C", for tables of
# test cases written one string per case (a field may be a ';' argument list; it is kept whole).
function(gpusc_split_case case_ first second third)
  string(FIND "${case_}" "|" a)
  string(SUBSTRING "${case_}" 0 ${a} f)
  math(EXPR a "${a} + 1")
  string(SUBSTRING "${case_}" ${a} -1 rest)
  string(FIND "${rest}" "|" b)
  string(SUBSTRING "${rest}" 0 ${b} s)
  math(EXPR b "${b} + 1")
  string(SUBSTRING "${rest}" ${b} -1 t)
  set(${first} "${f}" PARENT_SCOPE)
  set(${second} "${s}" PARENT_SCOPE)
  set(${third} "${t}" PARENT_SCOPE)
endfunction()
