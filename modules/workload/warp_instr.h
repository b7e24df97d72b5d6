// WarpInstr: one dynamic warp instruction as a kernel model hands it to an SM model (DESIGN §6).
// Only what the memory system and the issue stage need: the operation, the static instruction
// (pc), the active lanes and, for memory operations, one byte address per active lane.
// Open choices (the SM model reads them, so they are fixed here):
//   * one WarpInstr per SASS-level warp instruction; a Compute instruction stands for one ALU,
//     SFU, shared-memory or barrier instruction, and compute_cycles is the latency before a
//     dependent instruction of the same warp can issue (kAluCycles / kSfuCycles below);
//   * pc is a per-kernel constant per static instruction (16-byte steps, program order), so
//     per-PC predictors and coalescers see a stable key;
//   * addresses are virtual addresses handed out by the workload's AddressSpace.
#pragma once
#include <array>
#include <cstdint>

namespace gpusc {

constexpr unsigned kWarpSize = 32;                // lanes per warp
constexpr uint32_t kAllLanes = 0xffffffffu;       // active_mask with every lane active
constexpr uint16_t kAluCycles = 4;                // int/FP32 add, mul, FMA, compare, select [cycles]
constexpr uint16_t kSfuCycles = 16;               // division, reciprocal, square root [cycles]

struct WarpInstr {
  enum class Op : uint8_t { Compute, Load, Store, Atomic };

  Op op = Op::Compute;
  uint32_t pc = 0;                           // static instruction address
  uint8_t access_bytes = 0;                  // bytes per lane: 1, 2, 4, 8 or 16 (0 for Compute)
  uint32_t active_mask = 0;                  // bit i = lane i active
  std::array<uint64_t, kWarpSize> addr{};    // byte address per lane, valid where active
  uint16_t compute_cycles = 0;               // Compute: issue latency [cycles]; 0 otherwise
  // Store with access_bytes 4 of a workload whose values are enabled (kernel.h): the word lane l
  // writes (a float's bit pattern for float arrays), valid where active; 0 otherwise.
  std::array<uint32_t, kWarpSize> data{};

  bool is_memory() const { return op != Op::Compute; }
  bool lane_active(unsigned lane) const { return (active_mask >> lane) & 1u; }
  unsigned active_lanes() const { return static_cast<unsigned>(__builtin_popcount(active_mask)); }
};

inline const char* to_string(WarpInstr::Op op) {
  switch (op) {
    case WarpInstr::Op::Compute: return "compute";
    case WarpInstr::Op::Load: return "load";
    case WarpInstr::Op::Store: return "store";
    case WarpInstr::Op::Atomic: return "atomic";
  }
  return "?";
}

}  // namespace gpusc
