# Compiler defects gpusc works around, each checked at configure time and again by a test.
#
# GCC 12.2 (Debian bookworm, 12.2.0-14) at -O2 and -O3 miscompiles `s = m & *p; return s ? s : *p;`
# in a function of its own (cmake/and_cmov_check.cpp: the peephole2 pass ANDs with a register
# that was never set). Cache::sectors_of_mask had that shape; it was harmless only where inlined.
# When the compiler shows the defect, gpusc builds with -fno-peephole2: mesh_gpu's stats are
# identical with and without the flag, and its speed is the same.
try_run(gpusc_cmov_run gpusc_cmov_compiled ${CMAKE_BINARY_DIR}/toolchain_checks
        ${CMAKE_CURRENT_LIST_DIR}/and_cmov_check.cpp
        COMPILE_DEFINITIONS -O2
        RUN_OUTPUT_VARIABLE gpusc_cmov_out)
if(gpusc_cmov_compiled AND NOT gpusc_cmov_run EQUAL 0)
  message(STATUS "gpusc: ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} miscompiles AND+CMOV at -O2 "
                 "(cmake/and_cmov_check.cpp): building with -fno-peephole2")
  add_compile_options(-fno-peephole2)
endif()
