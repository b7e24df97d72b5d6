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
#pragma once
#include <cstdint>
#include <deque>
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

 private:
  struct Entry {
    uint64_t start;
    uint32_t count;
  };
  struct Table {
    uint64_t window;
    std::unordered_map<uint64_t, Entry> open;
    std::deque<std::pair<uint64_t, uint64_t>> order;  // (start, block) in allocation order
    uint64_t closed_shared = 0;                        // accesses in closed entries with count >= 2
    uint64_t open_shared = 0;                          // accesses in open entries with count >= 2
  };
  void expire(Table& t, uint64_t cycle);

  const Params p_;
  ClockDomain& clk_;
  std::vector<Table> tables_;
  StatGroup stats_;
  Counter& reads_;
};

}  // namespace gpusc
