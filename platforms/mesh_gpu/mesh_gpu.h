// MeshGpu: the baseline GPU platform of issue 4, and the one the paper-001 mechanism modifies:
// SMs (SmCore + L1 Cache) and memory partitions (L2 + DRAM, and the chain of stages mc.stages
// names, e.g. the packet coalescing unit) on one network node each, connected by a request and a
// reply network, fed by a CtaScheduler running one Workload. Built from Params (a JSON config and
// a preset, platforms/mesh_gpu/presets) and a McStageRegistry (every paper folder's stages by
// default, platforms/paper_stages.h).
//
//   network = "vnets"    : one network, virtual network 0 carries requests, 1 replies (paper 001)
//   network = "separate" : two physical networks with one virtual network each (paper 000, and
//                          the separate request / reply crossbars of paper 001 §4.2)
// Nodes: a mesh has k x m nodes, each hosting an SM or an MC; MCs sit where `placement` puts them
// (noc/mesh_placement.h), SMs on the remaining nodes in id order. A crossbar has one port per SM
// and MC (SMs first).
// Blocks, address map, CTA policy: `blocks` groups consecutive SM ids and consecutive MC ids
// into that many blocks (ContiguousSplit: the first groups one larger when uneven); one block
// by default. `address_map.kind` picks the AddressMapper the L1s route with and the MCs index
// with (one mapper, shared): fine-interleave (default: interleave_bytes chunks over all MCs) or
// first-touch (a page lives in the block of the SM whose request reached memory first,
// interleaved in interleave_bytes chunks over that block's MCs). `cta.policy` picks the
// CtaPolicy: round-robin (default), contiguous-groups (one CTA group per block) or greedy.
// Measurement (paper 001 §2.1): a line request's L1 miss penalty splits into request latency
// (its head flit injected at the SM until the MC takes it; MemoryPartition measures it), memory
// latency (the MC takes it until its reply is handed to the MC's NI) and reply latency (until the
// L1 takes the reply; includes the MC stall in the NI queue), from MemExt timestamps stamped by
// the NI and at MsgIn taps. When a stage merges requests into one reply (the PCU), a merged
// request's memory latency runs from the MC taking that request (its own stamps, MemExt::grouped)
// until the reply it shares is handed to the NI, and its reply latency is that of the shared reply.
// Summary: the platform's own figures, then the lines each stage adds (McStage::summarize); the
// platform names no mechanism.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/address_map.h"
#include "common/address_mapper.h"
#include "common/clock_domain.h"
#include "common/params.h"
#include "common/stats.h"
#include "mem/cache.h"
#include "mem/memory_partition.h"
#include "mem/mc_stage.h"
#include "noc/network.h"
#include "platforms/paper_stages.h"
#include "sm/cta_scheduler.h"
#include "sm/sm_core.h"
#include "workload/kernel.h"

namespace gpusc {

class MeshGpu : public sc_core::sc_module {
 public:
  struct Params {
    unsigned sms = 56;                  // SM nodes
    unsigned mcs = 8;                   // memory-partition nodes
    double core_mhz = 1400;             // SMs, L1, L2 (paper 001 Table 1)
    double noc_mhz = 1400;              // interconnect clock
    double dram_mhz = 924;              // DRAM command clock (paper 000 Table II)
    std::string network = "vnets";     // vnets | separate
    std::string placement = "bottom";  // MC placement on a mesh
    unsigned interleave_bytes = 256;    // address interleave among MCs (paper 000 Table II)
    unsigned blocks = 1;                // blocks of consecutive SMs and MCs (address map, CTA policy)
    AddressMapper::Params address_map;  // fine-interleave | first-touch pages
    noc::Network::Params noc = noc_defaults();
    SmCore::Params sm;
    Cache::Params l1 = l1_defaults();
    MemoryPartition::Params mc;
    CtaScheduler::Params cta;
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(sms, 1, 1 << 16, "streaming multiprocessors [count] (the network limits the node count)");
      GPUSC_PARAM_R(mcs, 1, 64, "memory partitions (L2 slice + DRAM channel) [count]");
      GPUSC_PARAM_R(core_mhz, 1, 1e5, "core / L1 / L2 clock [MHz]");
      GPUSC_PARAM_R(noc_mhz, 1, 1e5, "interconnect clock [MHz]");
      GPUSC_PARAM_R(dram_mhz, 1, 1e5, "DRAM command clock [MHz]");
      GPUSC_PARAM_C(network, "vnets|separate", "request/reply as virtual networks of one NoC, or two physical NoCs");
      GPUSC_PARAM_C(placement, "bottom|top-bottom|edge|diamond", "MC placement on a mesh (001 §5.4)");
      GPUSC_PARAM_R(interleave_bytes, 1, 1 << 20,
                    "address interleave chunk among MCs [bytes] (first-touch: among the MCs of a page's block)");
      GPUSC_PARAM_R(blocks, 1, 1 << 16,
                    "blocks: consecutive SM ids and MC ids split into this many groups, for address_map.kind = "
                    "first-touch and cta.policy = contiguous-groups [count]");
      GPUSC_PARAM(address_map, "address mapper (which MC owns an address)");
      GPUSC_PARAM(noc, "network(s); with network=separate both use these parameters");
      GPUSC_PARAM(sm, "SM core");
      GPUSC_PARAM(l1, "L1 data cache (write-through, no write-allocate)");
      GPUSC_PARAM(mc, "memory partition");
      GPUSC_PARAM(cta, "CTA scheduler");
    }
    static noc::Network::Params noc_defaults();
    static Cache::Params l1_defaults();
  };

  // `stages` builds the memory-partition stages p.mc.stages names (used during construction).
  MeshGpu(sc_core::sc_module_name name, const Params& p, Workload& workload,
          const McStageRegistry& stages = paper_mc_stages());
  MeshGpu(const MeshGpu&) = delete;
  MeshGpu& operator=(const MeshGpu&) = delete;

  // Runs until the workload has finished and every write ack is back, or max_cycles core cycles.
  // Returns true when the workload finished.
  bool run(uint64_t max_cycles);

  // The effective configuration: p with every memory-partition stage's parameters filled in.
  const Params& params() const { return p_; }
  ClockDomain& core_clock() { return core_; }
  unsigned sm_count() const { return p_.sms; }
  unsigned mc_count() const { return p_.mcs; }
  SmCore& sm(unsigned i) { return sms_[i]; }
  Cache& l1(unsigned i) { return l1s_[i]; }
  MemoryPartition& mc(unsigned i) { return mcs_[i]; }
  noc::Network& request_net() { return *req_net_; }
  noc::Network& reply_net() { return rep_net_ ? *rep_net_ : *req_net_; }
  unsigned sm_node(unsigned i) const { return sm_nodes_[i]; }
  unsigned mc_node(unsigned i) const { return mc_nodes_[i]; }
  unsigned block_of_sm(unsigned i) const { return block_of_sm_[i]; }
  const AddressMapper& address_mapper() const { return *mapper_; }
  uint64_t cycles() const { return finish_cycle_; }

  // The summary of paper-style figures the command line prints (also in the stats JSON): the
  // platform's own figures and mechanism_summary()'s lines.
  json summary() const;
  // The lines the memory-partition stages add (McStage::summarize), merged over the partitions.
  json mechanism_summary() const;

  // Observers for tests and tracing, off by default: each line request SM i hands to its L1,
  // each reply its L1 hands back to it, and each message a network interface takes into a
  // network at `node` (requests at SM nodes, replies at MC nodes; called with MemExt final).
  struct Observers {
    std::function<void(unsigned sm, const tlm::tlm_generic_payload&)> sm_request, sm_reply;
    std::function<void(unsigned node, const tlm::tlm_generic_payload&)> injected;
  };
  void set_observers(Observers o) { obs_ = std::move(o); }

 private:
  static std::unique_ptr<AddressMapper> build_mapper(const Params& p, const std::string& where);
  void place_nodes();
  void build_networks();
  void wire_sm(unsigned i);
  void wire_mc(unsigned i);
  void close_unused(MsgOut& never_sends, MsgIn& never_receives);
  unsigned req_vnet() const { return 0; }
  unsigned rep_vnet() const { return p_.network == "vnets" ? 1 : 0; }
  noc::NetworkInterface& req_ni(unsigned node) { return req_net_->ni(node); }
  noc::NetworkInterface& rep_ni(unsigned node) { return reply_net().ni(node); }

  const Params p_;
  Workload& workload_;
  ClockDomain core_, noc_clk_, dram_clk_;
  std::unique_ptr<AddressMapper> mapper_;  // the one address mapper, shared by reference
  AddressMap map_;                         // a reference to *mapper_ for the MCs
  std::vector<unsigned> sm_nodes_, mc_nodes_, mc_of_node_;
  std::vector<unsigned> block_of_sm_;
  std::unique_ptr<noc::Network> req_net_, rep_net_;
  sc_core::sc_vector<SmCore> sms_;
  sc_core::sc_vector<Cache> l1s_;
  sc_core::sc_vector<MemoryPartition> mcs_;
  std::unique_ptr<CtaScheduler> cta_;
  std::vector<std::unique_ptr<sc_core::sc_module>> unused_;
  uint64_t finish_cycle_ = 0;
  Observers obs_;

  StatGroup stats_;
  Average& amat_;
  Average& mem_lat_;
  Average& rep_lat_;
  Counter& reply_bytes_;
  Counter& reply_packets_in_;
  Counter& request_packets_in_;
};

}  // namespace gpusc
