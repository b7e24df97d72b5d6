// MarsScan: Mars's prefix sum (He et al., PACT 2008; its MarsScan.cu is the CUDA SDK's
// work-efficient scan, Blelloch 1990), the step between MapCount and Map (and ReduceCount and
// Reduce, and inside the group stage) that turns per-thread output sizes into write offsets.
// prescanArray(out, in, n), exclusive, as Mars launches it:
//   * blocks of 256 threads, each scanning 512 elements; numBlocks = max(1, ceil(n / 512));
//   * numBlocks > 1: prescan over the full blocks (each stores its total into a block-sum array),
//     a separate one-block launch for a last non-full block (256 threads or floorPow2 of its
//     elements), the same scan recursively over the block sums (in place), then uniformAdd over
//     the full blocks and, separately, the last block;
//   * numBlocks = 1: one prescan of n/2 threads (n a power of two) or floorPow2(n) threads.
// Per prescan thread: loads in[base + t] and, unless past n, in[base + t + threads] (coalesced);
// the up-sweep and down-sweep in shared memory, log2(threads) + 1 levels each, every level a
// barrier and, for the threads below the level's width, 4 shared-memory/ALU instructions;
// thread 0 stores the block's sum; then out[base + t] and out[base + t + threads].
// Per uniformAdd thread: thread 0 loads the block's sum (a shared store and a barrier follow), then
// two read-modify-writes of out.
// Choices: shared-memory work is Compute (no bank conflicts modelled); uniformAdd's second RMW
// is skipped for threads past n (Mars does it with a zero addend, reading and writing past the
// array's end in its last block); n = 1 uses one thread (Mars would launch none); each call has
// its own block-sum arrays (Mars reuses one preallocation), so every array has one writer.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "workload/address_space.h"
#include "workload/mars_launch.h"

namespace gpusc {

// Appends the launches of prescanArray(out, in, n) over the n 4-byte words at `in` whose values
// are `in_values` (host), writing `out` (which may be `in`); block-sum arrays are allocated in
// `space` as array_name + ".sums<level>", launches are named kernel_name + [".l<level>"] +
// ".prescan" / ".uniform_add" (+ "_np2"). Returns the exclusive scan.
std::vector<uint32_t> mars_scan(AddressSpace& space, const std::string& array_name, const std::string& kernel_name,
                                uint64_t in, uint64_t out,
                                const std::vector<uint32_t>& in_values, std::vector<MarsLaunch>& launches);

// Pcs of the scan kernels (shared by every Mars kernel model).
namespace mars_pc {
constexpr uint32_t kScan = 0xe000, kUniformAdd = 0xe800;
}  // namespace mars_pc

}  // namespace gpusc
