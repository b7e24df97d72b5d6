// libFuzzer entry point for one target of fuzz_targets.h, chosen at compile time
// (GPUSC_FUZZ_TARGET = the function's name); built only by scripts/fuzz (clang, GPUSC_FUZZ=ON).
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gpusc::fuzz::GPUSC_FUZZ_TARGET(data, size);
}

// libsystemc.so refers to sc_main (its own main() calls it); libFuzzer's main() runs instead.
extern "C" int sc_main(int, char**) { return 0; }
