// MarsGroup: the group stage of a Mars MapReduce job (MarsSort.cu's sort_GPU, He et al. PACT
// 2008): intermediate pairs with equal keys brought together, by
//   1. a bitonic sort of the int4 index entries (key offset, key size, value offset, value size)
//      by the app's compare of the keys they point to (Mars's bitonicKernel: one launch per
//      (k, j) step, 256-thread CTAs over the index padded to a power of two with x = -1 entries,
//      which sort first; thread i with partner i ^ j > i loads both entries, compares, and stores
//      both swapped when out of order);
//   2. the values, then the keys, scattered into sorted order (getZWArray / getXYArray: the
//      entries' offset and size pairs; copyChunks: the sizes, their prefix sum, then thread i
//      copies its pair's bytes byte by byte to its new offset and records it; setZWArray /
//      setXYArray: the new offsets back into the entries);
//   3. the group boundaries (getChunkBoundary: thread i compares entry i with entry i - 1; a prefix
//      sum of the start flags; writeBoundary; setBoundaryInt2: each group's [first, end)).
// Mars's helper kernels run 512-thread CTAs over chunks of 512 x 512 elements (copyChunks: 128 x
// 512) per launch; the CTAs past the end, which only test their index, are not launched.
// Choices: every index size uses the global bitonicKernel passes (Mars sorts up to 256 entries in
// one shared-memory CTA, and above 256K entries sorts 256-entry chunks in shared memory before the
// global passes: the same compares, with the entries in shared memory between steps); copies store
// one word per 4 bytes (mars_runtime.h); the padding entries are (-1, -1, 0, 0).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "workload/mars_runtime.h"

namespace gpusc {

struct MarsGroupResult {
  std::vector<MarsPair> sorted;       // the pairs in sorted order
  std::vector<MarsInt4> index;        // their entries (offsets into the sorted buffers)
  std::vector<std::pair<uint32_t, uint32_t>> groups;  // [first, end) per group
  uint64_t keys = 0, vals = 0, index_arr = 0;         // the sorted buffers (d_outputKeys, ...)
  unsigned sort_launches = 0;                          // bitonic passes
};

// Appends sort_GPU's launches over the job's intermediate pairs (whose buffers are at inter_keys,
// inter_vals, inter_index); arrays are allocated in `space` as prefix + ".group.*".
std::unique_ptr<MarsGroupResult> mars_group(AddressSpace& space, const std::string& prefix, const std::string& kp,
                                            std::shared_ptr<const MarsApp> app, uint64_t inter_keys,
                                            uint64_t inter_vals, const std::vector<MarsPair>& inter,
                                            const std::vector<MarsInt4>& inter_index, std::vector<MarsLaunch>& launches);

namespace mars_pc {
constexpr uint32_t kBitonic = 0xd000, kScatter = 0xd400, kBoundary = 0xd800, kCompare = 0xa000;
}  // namespace mars_pc

}  // namespace gpusc
