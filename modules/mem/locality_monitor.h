// LocalityMonitor: measures inter-core locality at a memory controller exactly as paper 001 §2.2
// defines it. Read requests arriving at the MC (before the L2) are looked up by block address in
// a table of unlimited size: a miss allocates an entry that lives for a fixed time window from its
// allocation and counts one access; a hit within the window counts one more. An entry with two or
// more accesses has inter-core locality; the ratio is the accesses in such entries over all read
// requests. One table per window: 120, 240, 480, 960, 1920 cycles (multiples of the minimum L2 hit
// latency), all measured at once.
// Open choices: the window is in core cycles (the paper's unit); an access exactly `window`
// cycles after allocation starts a new entry; entries still open when stats are dumped count
// as they stand. It is a monitor, not hardware: the platform feeds it from a MsgIn tap.
// Implementation (speed): one hash lookup per read serves every window (a block's entries, one
// per window, sit side by side); an entry closes lazily when its block is read again after the
// window, and once per longest window a sweep drops the blocks whose entries have all closed,
// so the table holds about the blocks read in the last two longest windows.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/clock_domain.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc {

class LocalityMonitor : public sc_core::sc_module {
 public:
  struct Params {
    std::vector<unsigned> windows = {120, 240, 480, 960, 1920};  // grouping windows [core cycles]
    unsigned block_bytes = 128;                                  // cache block [bytes]
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(windows, 1, 1e9, "time windows of the locality tables (001 §2.2) [cycles]");
      GPUSC_PARAM_R(block_bytes, 1, 4096, "cache block size [bytes]");
    }
  };

  LocalityMonitor(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  // One read request arriving at the memory controller now.
  void observe(const tlm::tlm_generic_payload& gp) { observe(gp.get_address(), clk_.now()); }
  void observe(uint64_t addr, uint64_t cycle);

  uint64_t reads() const { return reads_.value(); }
  // Accesses in entries with inter-core locality so far, for window index w.
  uint64_t shared_accesses(size_t w) const;
  double ratio(size_t w) const;
  const std::vector<unsigned>& windows() const { return p_.windows; }
  // Blocks the table holds now (open entries, and closed ones not yet swept).
  size_t blocks_tracked() const { return slot_of_.size(); }

 private:
  struct Entry {
    uint64_t start = 0;  // allocation cycle
    uint32_t count = 0;  // accesses so far; 0 = no entry
  };
  // Drops the blocks whose entries have all closed by `cycle`.
  void sweep(uint64_t cycle);

  const Params p_;
  ClockDomain& clk_;
  const uint64_t longest_;                               // the longest window
  std::unordered_map<uint64_t, uint32_t> slot_of_;       // block -> its slot in entries_
  std::vector<Entry> entries_;                           // [slot * windows + window index]
  std::vector<uint32_t> free_slots_;
  std::vector<uint64_t> shared_;                         // [window index] accesses in entries with >= 2
  uint64_t next_sweep_ = 0;
  StatGroup stats_;
  Counter& reads_;
};

}  // namespace gpusc
