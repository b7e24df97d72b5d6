# -DGPUSC_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer on everything we build
# (scripts/test --sanitize).
# -DGPUSC_FUZZ=ON (clang only; scripts/fuzz): the same plus libFuzzer's coverage instrumentation,
# and the fuzz/ executables.
if(GPUSC_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GPUSC_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++ "
                        "-DCMAKE_C_COMPILER=clang (Debian: clang, libclang-rt-14-dev); scripts/fuzz does it")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(GPUSC_SANITIZE)
  # -fno-sanitize-recover: undefined behaviour aborts the program (by default UBSan prints and
  # goes on, and a test would pass); scripts/test --sanitize.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
