// SelectiveCacheBypass (SCBU): decides at an L1 cache controller whether a request bypasses the
// cache (paper 004 §4.1.2, Fig. 7(c); Table 1: "2 addr. registers, comparator"). Two registers
// hold the first and last physical address of the local GPU's memory; in coalescing mode a
// request whose address falls outside [local_first, local_last] is remote and bypasses the L1
// (it is fine-grained, so it cannot fill a line); a local one takes the conventional path.
// Outside coalescing mode (baseline, local-dominated, caching mode) nothing bypasses.
//
// Choices the paper leaves open:
//   * the end register holds the LAST local byte address (inclusive), so a range ending at the
//     top of the address space fits; local_first > local_last is an error;
//   * the address compared is the request's (line) address as the L1 sees it: the local range
//     is expected to start and end on line boundaries, so a line is wholly local or remote;
//   * only reads bypass (§4.5: non-read remote transactions stay conventional; a write-through,
//     no-write-allocate L1 sends writes down anyway, and a write that did not update a copy the
//     L1 still holds from before the decision would leave it stale); bypass_writes = true makes
//     writes and atomics bypass too;
//   * the mode is a register the decision engine sets once (set_coalescing), off at reset; the
//     range registers are loaded from Params (the driver's job in hardware) and may be reloaded.
// How it plugs in: Cache::set_bypass(scbu.policy()) on every L1 of the GPU (mem/cache.h's
// per-request bypass hook); the bypassed read's reply comes back as the same payload. On the
// platform, multi_gpu holds one SCBU per GPU and the SM-side MaskMshrStage asks it (with the
// platform's "physical" address, see multi_gpu.h) from the L1's bypass hook.
// Pure C++, not an sc_module: a comparator in the cache controller's lookup stage.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include <tlm>

#include "common/mem_ext.h"
#include "common/params.h"

namespace gpusc::multigpu {

class SelectiveCacheBypass {
 public:
  struct Params {
    uint64_t local_first = 0;            // first byte address of the local GPU memory
    uint64_t local_last = (4ull << 30) - 1;  // last byte address, inclusive (004 Table 1: 4 GB per GPU)
    bool bypass_writes = false;          // writes and atomics bypass too (default: reads only, §4.5)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM(local_first, "start address register: first physical byte address of the local GPU memory");
      GPUSC_PARAM(local_last, "end address register: last physical byte address of the local GPU memory (inclusive)");
      GPUSC_PARAM(bypass_writes, "remote writes and atomics bypass the L1 too (004 §4.5: non-read transactions "
                                 "stay conventional, so false)");
    }
  };

  explicit SelectiveCacheBypass(const Params& p, std::string who = "gpusc.scbu");

  // Reloads the two range registers (same checks as at construction).
  void set_range(uint64_t first, uint64_t last);
  // The mode register: true in coalescing mode (set by the decision engine), false otherwise.
  void set_coalescing(bool on) { coalescing_ = on; }
  bool coalescing() const { return coalescing_; }

  // The comparator: address outside [local_first, local_last].
  bool remote(uint64_t addr) const { return addr < first_ || addr > last_; }
  // The decision for one request reaching the L1.
  bool bypass(uint64_t addr, MemKind kind) const {
    return coalescing_ && remote(addr) && (kind == MemKind::Read || p_.bypass_writes);
  }
  bool bypass(const tlm::tlm_generic_payload& gp) const;
  // A policy for Cache::set_bypass; it reads this unit's registers at each call, so it must not
  // outlive the unit.
  std::function<bool(const tlm::tlm_generic_payload&)> policy() const;

  uint64_t local_first() const { return first_; }
  uint64_t local_last() const { return last_; }

 private:
  const Params p_;
  const std::string who_;
  uint64_t first_, last_;
  bool coalescing_ = false;
};

}  // namespace gpusc::multigpu
