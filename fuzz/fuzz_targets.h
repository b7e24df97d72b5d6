// Fuzz targets (issue 22 item 5): one function per input a user can hand to gpusc, each taking
// arbitrary bytes. A target returns normally for any input: a malformed input must end in the
// input's own clear error (gpusc::error's sc_report, or the reader's documented exception), never
// in a crash, a hang, an allocation the input's size does not justify, or another exception.
// The same functions run under libFuzzer (libfuzzer_entry.cpp, scripts/fuzz) and, on the seed
// and regression inputs of fuzz/corpus/<target>/, in the normal test suite
// (testbenches/fuzz/fuzz_corpus_tb.cpp), so every input a fuzzer once broke stays a test.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusc::fuzz {

// A JSON --config text (first line on) and --set assignments (lines starting with "--set "),
// merged over the ics8x8 preset and read as mesh_gpu's Params.
int config(const uint8_t* data, size_t size);
// A Matrix Market file.
int matrix_market(const uint8_t* data, size_t size);
// A SNAP edge list; the first byte picks symmetrize / keep_self_loops.
int edge_list(const uint8_t* data, size_t size);
// An Accel-Sim kernel trace file (kernel-1.traceg in a kernelslist.g folder): checked, indexed,
// and up to 256 warp streams read to the end.
int accel_sim_trace(const uint8_t* data, size_t size);
// The DPC decoder on arbitrary bits (first byte: format and bits dropped from the last byte),
// and the encode-decode round trip of the first 128 bytes in every mode.
int dpc(const uint8_t* data, size_t size);

struct Target {
  const char* name;
  int (*run)(const uint8_t*, size_t);
};
const std::vector<Target>& targets();

}  // namespace gpusc::fuzz
