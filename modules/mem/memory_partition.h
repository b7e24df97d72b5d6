// MemoryPartition: one memory controller node of the GPU (issue 4 item 3): the MC request queue
// and L2 slice (a write-back Cache) in front of one GDDR5 DramChannel, optionally behind a packet
// coalescing unit (paper 001 §3; modules/coalesce). Its two ports face the node's network
// interface: in() takes requests from the request network, out() gives replies to the reply
// network. Read requests are also fed to a LocalityMonitor (paper 001 §2.2).
//
//   NI --> in() = [PCU.req_in, PCU.to_mem -->] L2.up_in      L2.down_out --> DRAM.in
//   NI <-- out() = [PCU.reply_out, PCU.from_mem <--] L2.up_out  L2.down_in <-- DRAM.out
//
// MC request queue = the L2's input queue; MC reply queue = the L2's output queue (or, with the
// PCU, its reply queue after the merge unit). The MC stall time of paper 001 §2.1 is the number of
// cycles a reply waits because the NI injection queue is full (the L2's up_blocked_cycles, or the
// PCU's mc_stall_cycles: the same definition).
// Defaults: paper 001 Table 1 (64 KB L2 per MC, min L2 latency 120 core cycles; the 8-way
// associativity is paper 000 Table II's); DRAM per paper 000 Table II.
//
// Idle latency, no PCU, from the cycle the L2 latches a request to the cycle its reply leaves
// on out() (core cycles at 1400 MHz; DRAM cycles at 924 MHz; memory_partition_tb checks each):
//   L2 hit   hit_latency = 120
//   L2 miss  lookup_latency (120) before the fetch leaves, then the DRAM channel's accept-to-reply
//            latency 1 + fixed_latency + bank timing (row hit 149, closed bank 161, row conflict
//            173 DRAM cycles, dram_channel.h), then the crossing back to the core clock, where
//            the fill is latched and answered in one cycle: 345, 364 and 382 cycles in the
//            testbench (the crossings shift them by a cycle with the clocks' phase).
// So an idle miss costs a hit's 120 cycles plus at least 225 for the DRAM access, above the
// 220-cycle minimum DRAM latency of paper 001 Table 1. This is GPGPU-Sim's structure, which
// papers 000 and 001 used: rop_latency (120) before the L2 lookup for hits and misses, then
// dram_latency in front of the DRAM scheduler, then the bank timing.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "coalesce/packet_coalescing_unit.h"
#include "common/address_map.h"
#include "common/clock_domain.h"
#include "common/params.h"
#include "common/stats.h"
#include "mem/cache.h"
#include "mem/dram_channel.h"
#include "mem/locality_monitor.h"

namespace gpusc {

class MemoryPartition : public sc_core::sc_module {
 public:
  struct Params {
    Cache::Params l2 = l2_defaults();
    DramChannel::Params dram = dram_defaults();
    bool pcu = false;                     // packet coalescing unit in front of the L2 (paper 001)
    PacketCoalescingUnit::Params coalescer;
    LocalityMonitor::Params locality;
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM(l2, "L2 slice (a write-back Cache)");
      GPUSC_PARAM(dram, "DRAM channel");
      GPUSC_PARAM(pcu, "put a packet coalescing unit in front of the L2 (paper 001)");
      GPUSC_PARAM(coalescer, "packet coalescing unit (used when pcu is true)");
      GPUSC_PARAM(locality, "inter-core locality monitor (paper 001 §2.2)");
    }
    static Cache::Params l2_defaults();
    static DramChannel::Params dram_defaults();
  };

  MemoryPartition(sc_core::sc_module_name name, const Params& p, ClockDomain& core, ClockDomain& dram_clk,
                  unsigned node, const AddressMap& map);
  MemoryPartition(const MemoryPartition&) = delete;
  MemoryPartition& operator=(const MemoryPartition&) = delete;

  MsgIn& in();    // requests from the network interface
  MsgOut& out();  // replies to the network interface

  Cache& l2() { return l2_; }
  DramChannel& dram() { return dram_; }
  PacketCoalescingUnit* pcu() { return pcu_.get(); }
  const LocalityMonitor& locality() const { return locality_; }
  // Request latency of paper 001 §2.1 for reads and atomics (the requests the L1 miss penalty
  // counts): the head flit injected at the SM (MemExt::t_req_inject, stamped by the NI) until this
  // partition takes it [core cycles].
  const Average& request_latency() const { return req_lat_; }
  // Cycles a reply waited because the network interface did not take it (MC stall, 001 §2.1).
  uint64_t mc_stall_cycles() const;
  // Read requests this partition has taken from source node `node` (MemExt::src), before any
  // grouping by the PCU.
  uint64_t reads_from(unsigned node) const { return node < reads_from_.size() ? reads_from_[node] : 0; }
  bool idle() const;

 private:
  const Params p_;
  Cache l2_;
  DramChannel dram_;
  std::unique_ptr<PacketCoalescingUnit> pcu_;
  LocalityMonitor locality_;
  std::vector<uint64_t> reads_from_;  // [source node]
  StatGroup stats_;
  Average& req_lat_;
};

}  // namespace gpusc
