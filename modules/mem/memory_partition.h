// MemoryPartition: one memory controller node of the GPU (issue 4 item 3): the MC request queue
// and L2 slice (a write-back Cache) in front of one memory model chosen by config (a GDDR5
// DramChannel by default, or a latency-bandwidth BandwidthMemory), with an ordered chain of
// stages between the node's network interface and the L2 (mem/mc_stage.h; e.g. the packet
// coalescing unit of paper 001 §3, registered by modules/coalesce). Its two ports face the NI:
// in() takes requests from the request network, out() gives replies to the reply network. Read
// requests are also fed to a LocalityMonitor (paper 001 §2.2).
//
//   NI --> in()  = [stage 0 ... stage n-1] --> L2.up_in      L2.down_out --> DRAM.in
//   NI <-- out() = [stage 0 ... stage n-1] <-- L2.up_out     L2.down_in  <-- DRAM.out
//
// Memory model: `memory` = "gddr5" builds a DramChannel from the `dram` section (bank timing,
// FR-FCFS); "bandwidth" builds a BandwidthMemory from the `bandwidth_memory` section (fixed
// latency + bytes per cycle, HBM-class, paper 003). Either is the module "dram" (so its stats are
// <partition>.dram.*: reads, writes, queue_full, read_latency exist for both), is bound
// l2.down_out -> in and out -> l2.down_in, decodes the partition-local address, and ticks in the
// partition's memory clock (the constructor's dram_clk): its parameters are in that clock's
// cycles, like the DRAM's, and the L2 <-> memory crossing is the same for both models (for
// paper 003's 1 GHz figures give the platform a 1000 MHz memory clock). The section of the model
// not chosen is validated but unused. "external" builds neither: the L2's memory side goes
// through an AtInitiatorBridge (common/at_initiator_bridge.h, module "memory") to
// memory_socket(), which speaks the TLM-2.0 AT base protocol to whatever the platform binds
// there (a third-party DRAM model): partition-local addresses, reads answered by fills, writes
// absorbed, at most 16 transactions open. Nothing else in the partition depends on the choice:
// idle() and memory_pending() ask whichever was built.
// Stages: `stages` names them, NI side first; each is built by the McStageRegistry the
// constructor is given, from its parameters in stage_params.<name> (a stage with no entry there
// takes its defaults). An unknown stage name, a name listed twice, or a stage_params key naming
// no listed stage is an error. With no stage, in() and out() are the L2's own ports.
// MC request queue = the L2's input queue; MC reply queue = the L2's output queue, or a reply
// stage's own queue (the PCU's after its merge unit). The MC stall time of paper 001 §2.1 is the
// number of cycles a reply waits because the NI injection queue is full: the stall_cycles() of
// the reply stage nearest the NI, or the L2's up_blocked_cycles without one (same definition).
// in()'s tap stamps MemExt::t_mem_accept and feeds the locality monitor: before any stage acts.
// Defaults: paper 001 Table 1 (64 KB L2 per MC, min L2 latency 120 core cycles; the 8-way
// associativity is paper 000 Table II's); DRAM per paper 000 Table II; no stage.
//
// Idle latency, no stage, from the cycle the L2 latches a request to the cycle its reply leaves
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
#include <string>
#include <vector>

#include <systemc>

#include "common/address_map.h"
#include "common/at_initiator_bridge.h"
#include "common/clock_domain.h"
#include "common/params.h"
#include "common/stats.h"
#include "mem/backing_store.h"
#include "mem/bandwidth_memory.h"
#include "mem/cache.h"
#include "mem/dram_channel.h"
#include "mem/locality_monitor.h"
#include "mem/mc_stage.h"

namespace gpusc {

class MemoryPartition : public sc_core::sc_module {
 public:
  struct Params {
    Cache::Params l2 = l2_defaults();
    std::string memory = "gddr5";         // memory model behind the L2: gddr5 (dram) | bandwidth (bandwidth_memory) | external
    DramChannel::Params dram = dram_defaults();
    BandwidthMemory::Params bandwidth_memory;
    std::vector<std::string> stages;      // McStage chain between the NI and the L2, NI side first
    json stage_params = json::object();   // stage name -> that stage's parameters
    LocalityMonitor::Params locality;
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM(l2, "L2 slice (a write-back Cache)");
      GPUSC_PARAM_C(memory, "gddr5|bandwidth|external",
                    "memory model behind the L2: gddr5 = DramChannel (section dram), bandwidth = BandwidthMemory "
                    "(section bandwidth_memory), both ticking in the memory clock; external = none: the platform "
                    "binds a TLM-2.0 target to memory_socket() (docs/tlm.md)");
      GPUSC_PARAM(dram, "GDDR5 DRAM channel (memory = gddr5)");
      GPUSC_PARAM(bandwidth_memory, "latency-bandwidth memory (memory = bandwidth) [memory clock cycles]");
      GPUSC_PARAM(stages, "stages between the NI and the L2, NI side first, by registered name (mem/mc_stage.h)");
      GPUSC_PARAM(stage_params, "parameters of the stages, keyed by stage name; a stage not named takes its defaults");
      GPUSC_PARAM(locality, "inter-core locality monitor (paper 001 §2.2)");
    }
    static Cache::Params l2_defaults();
    static DramChannel::Params dram_defaults();
    // `p` with stage_params holding, for every stage in `stages` and nothing else, its effective
    // parameters (defaults filled in): the configuration to dump. Errors (unknown stage, a stage
    // listed twice, stage_params of a stage not listed, a bad stage parameter) name `where`.
    static Params with_stage_defaults(const Params& p, const McStageRegistry& registry, const std::string& where);
  };

  // `stages` builds the stages p.stages names; it is used only during construction.
  MemoryPartition(sc_core::sc_module_name name, const Params& p, ClockDomain& core, ClockDomain& dram_clk,
                  unsigned node, const AddressMap& map, const McStageRegistry& stages = McStageRegistry{});
  MemoryPartition(const MemoryPartition&) = delete;
  MemoryPartition& operator=(const MemoryPartition&) = delete;

  MsgIn& in() { return *in_; }     // requests from the network interface
  MsgOut& out() { return *out_; }  // replies to the network interface

  Cache& l2() { return l2_; }
  // The memory model built (Params::memory): at most one of these is non-null (none: external).
  DramChannel* dram() { return dram_.get(); }
  BandwidthMemory* bandwidth_memory() { return bw_.get(); }
  // memory = external: the AT base-protocol initiator socket of the memory side (L2 misses and
  // write-backs out, partition-local addresses; fills back): bind a third-party memory target to
  // it before elaboration ends. An error with another memory model.
  tlm::tlm_initiator_socket<32>& memory_socket();
  // Requests the memory model has accepted and not yet retired (0 when drained).
  size_t memory_pending() const { return dram_ ? dram_->pending() : bw_ ? bw_->pending() : ext_->open(); }
  const Params& params() const { return p_; }  // stage_params with every stage's defaults
  // The stages in chain order (NI side first), and the one named `name` (nullptr if none).
  size_t stage_count() const { return stages_.size(); }
  McStage& stage(size_t i) { return *stages_.at(i); }
  const McStage& stage(size_t i) const { return *stages_.at(i); }
  McStage* stage(const std::string& name);
  const LocalityMonitor& locality() const { return locality_; }
  // Request latency of paper 001 §2.1 for reads and atomics (the requests the L1 miss penalty
  // counts): the head flit injected at the SM (MemExt::t_req_inject, stamped by the NI) until this
  // partition takes it [core cycles].
  const Average& request_latency() const { return req_lat_; }
  // Cycles a reply waited because the network interface did not take it (MC stall, 001 §2.1).
  uint64_t mc_stall_cycles() const;
  // Read requests this partition has taken from source node `node` (MemExt::src), before any
  // stage acts on them.
  uint64_t reads_from(unsigned node) const { return node < reads_from_.size() ? reads_from_[node] : 0; }
  bool idle() const;

  // Memory contents (issue 19): true when a stage reads line contents (McStage::needs_values).
  bool needs_values() const;
  // Attaches the memory image: the L2 keeps it up to date with the writes it takes (and fills the
  // data buffer of read replies that carry one) and every stage may read it. `store` must outlive
  // the partition.
  void attach_values(BackingStore& store);

  // The mechanism lines of `partitions`' stages for a platform summary: for each stage name, in
  // chain order, that stage's summarize() with its instances in every partition (McStage).
  static void summarize_stages(json& summary, const std::vector<const MemoryPartition*>& partitions);

 private:
  void build_stages(const McStageRegistry& registry, ClockDomain& core, unsigned node, const AddressMap& map);

  const Params p_;
  Cache l2_;
  std::unique_ptr<DramChannel> dram_;    // memory = gddr5
  std::unique_ptr<BandwidthMemory> bw_;  // memory = bandwidth
  std::unique_ptr<AtInitiatorBridge> ext_;  // memory = external
  LocalityMonitor locality_;
  std::vector<std::unique_ptr<McStage>> stages_;  // chain order, NI side first
  MsgIn* in_ = nullptr;                           // first request stage's in(), or the L2's up_in
  MsgOut* out_ = nullptr;                         // first reply stage's out(), or the L2's up_out
  const McStage* reply_head_ = nullptr;           // reply stage nearest the NI (MC stall), if any
  std::vector<uint64_t> reads_from_;  // [source node]
  StatGroup stats_;
  Average& req_lat_;
};

}  // namespace gpusc
