# RTL co-simulation (docs/rtl-cosim.md): finds Verilator (Debian bookworm's 5.006 ships a CMake
# package, /usr/share/verilator/verilator-config.cmake) and verilates rtl/*.v with --sc into
# SystemC modules that the paper folders wrap.
#   GPUSC_RTL (option, ON): build the RTL units when Verilator is found.
#   GPUSC_HAVE_RTL: set ON here when they are built; without Verilator the configure step says so
#   and every RTL target and test is skipped (the rest of gpusc builds and runs unchanged; asking
#   a platform for an RTL unit is then an error naming the missing Verilator).
# gpusc_verilate(<target> <top> <file.v> [verilator args]) verilates <top> of <file.v> at configure
# time (like Verilator's own verilate(), so the generated file list is known; editing the .v
# reconfigures) into ${CMAKE_BINARY_DIR}/rtl/V<top>/ and compiles the model class V<top> into
# <target>. The Verilator runtime (verilated.cpp, verilated_threads.cpp) is compiled once, into
# gpusc_rtl (modules/rtl), so several models link into one program.
# gpusc_verilator_includes(<target> <top>): the include folders to use V<top> from <target>.
option(GPUSC_RTL "Build the RTL units (rtl/*.v, verilated with verilator --sc) when Verilator is found" ON)
set(GPUSC_HAVE_RTL OFF)
if(GPUSC_RTL)
  find_package(verilator 5 CONFIG QUIET)
  if(verilator_FOUND AND VERILATOR_BIN)
    set(GPUSC_HAVE_RTL ON)
    message(STATUS "gpusc: Verilator ${verilator_VERSION} (${VERILATOR_BIN}): the RTL units of rtl/ are built")
  else()
    message(STATUS "gpusc: Verilator (>= 5, Debian package 'verilator') not found: the RTL units of rtl/ "
                   "(DPC codec, PCU grouping registers), their co-simulation tests and examples/rtl_cosim are "
                   "skipped; the rest of gpusc is built as usual. Install it (scripts/setup) and reconfigure to build them.")
  endif()
else()
  message(STATUS "gpusc: GPUSC_RTL=OFF: the RTL units of rtl/ and their tests are not built")
endif()

# Compile settings of Verilator's generated code and runtime (they must agree).
function(gpusc_verilator_flags target)
  target_include_directories(${target} SYSTEM PRIVATE ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
  target_compile_definitions(${target} PRIVATE VM_SC=1 VM_TRACE=0 VM_TRACE_VCD=0 VM_TRACE_FST=0 VM_COVERAGE=0)
endfunction()

function(gpusc_verilator_includes target top)
  gpusc_verilator_flags(${target})
  target_include_directories(${target} SYSTEM PRIVATE ${CMAKE_BINARY_DIR}/rtl/V${top})
endfunction()

function(gpusc_verilate target top file)
  get_filename_component(src ${file} ABSOLUTE)
  set(prefix V${top})
  set(dir ${CMAKE_BINARY_DIR}/rtl/${prefix})
  # --pins-bv 2: every port of 2 bits or more is an sc_bv<W> (the pin adapters are generic over W).
  set(cmd ${VERILATOR_BIN} --sc --pins-bv 2 --top-module ${top} --prefix ${prefix} --Mdir ${dir}
          --make cmake -O3 --x-assign fast --x-initial fast ${ARGN} ${src})
  set(stamp ${dir}/gpusc_verilate_command.txt)
  file(SHA256 ${src} src_hash)
  set(key "${cmd} ${src_hash}")
  set(old "")
  if(EXISTS ${stamp})
    file(READ ${stamp} old)
  endif()
  if(NOT old STREQUAL key OR NOT EXISTS ${dir}/${prefix}.cmake)
    file(MAKE_DIRECTORY ${dir})
    execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
      string(REPLACE ";" " " shown "${cmd}")
      message(FATAL_ERROR "gpusc: Verilator failed on ${file} (exit ${rc}):\n${shown}\n${out}")
    endif()
    file(WRITE ${stamp} "${key}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
  include(${dir}/${prefix}.cmake)
  set(fast ${${prefix}_CLASSES_FAST} ${${prefix}_SUPPORT_FAST})
  set(slow ${${prefix}_CLASSES_SLOW} ${${prefix}_SUPPORT_SLOW})
  target_sources(${target} PRIVATE ${fast} ${slow})
  # Generated code: no project warnings on it, and no sanitizers (GPUSC_SANITIZE): it is not ours
  # to check, and instrumented, one of the DPC decoder's files took over 5 CPU minutes to compile
  # (our wrappers and adapters around it stay instrumented). The "slow" files run once
  # (construction, the initial settle): -O0 (Verilator's own advice) keeps the build short; the
  # per-cycle code -O2.
  set_source_files_properties(${fast} PROPERTIES COMPILE_OPTIONS "-w;-O2;-fno-sanitize=all")
  set_source_files_properties(${slow} PROPERTIES COMPILE_OPTIONS "-w;-O0;-fno-sanitize=all")
  gpusc_verilator_includes(${target} ${top})
endfunction()
