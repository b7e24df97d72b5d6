// MeshGpu: the baseline GPU platform of issue 4, and the one the paper-001 mechanism modifies: one
// GpuBlock (gpu/gpu_block.h: SM nodes and memory partitions on one network, its request and
// reply classes as virtual networks or separate networks) run by a Platform (gpu/platform.h:
// the CTA scheduler, kernel-boundary L1 flushes, run(), the summary), plus the recipe that
// fills them from Params (a JSON config and a preset, platforms/mesh_gpu/presets) and a
// McStageRegistry (every paper folder's stages by default, platforms/paper_stages.h). It owns
// the clock domains, the address mapper and the node numbering the block takes from outside.
// Groups, address map, CTA policy: `blocks` groups consecutive SM ids and consecutive MC ids
// into that many groups inside the one GpuBlock (ContiguousSplit: the first groups one larger
// when uneven); one group by default. `address_map.kind` picks the AddressMapper the L1s route
// with and the MCs index with (one mapper, shared): fine-interleave (default: interleave_bytes
// chunks over all MCs) or first-touch (a page lives in the group of the SM whose request
// reached memory first, interleaved in interleave_bytes chunks over that group's MCs).
// `cta.policy` picks the CtaPolicy: round-robin (default), contiguous-groups (one CTA group per
// group of SMs) or greedy.
// Measurement and summary: GpuBlock's and Platform's headers.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/address_mapper.h"
#include "common/clock_domain.h"
#include "common/params.h"
#include "gpu/gpu_block.h"
#include "gpu/node_numbering.h"
#include "gpu/platform.h"
#include "mem/cache.h"
#include "mem/mc_stage.h"
#include "mem/memory_partition.h"
#include "noc/network.h"
#include "platforms/paper_stages.h"
#include "sm/cta_scheduler.h"
#include "sm/sm_core.h"
#include "workload/kernel.h"

namespace gpusc {

class MeshGpu {
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
    SmFrontParams sm_front;             // SM-side stages of every SM (none)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(sms, 1, 1 << 16, "streaming multiprocessors [count] (the network limits the node count)");
      GPUSC_PARAM_R(mcs, 1, 64, "memory partitions (L2 slice + DRAM channel) [count]");
      GPUSC_PARAM_R(core_mhz, 1, 1e5, "core / L1 / L2 clock [MHz]");
      GPUSC_PARAM_R(noc_mhz, 1, 1e5, "interconnect clock [MHz]");
      GPUSC_PARAM_R(dram_mhz, 1, 1e5, "DRAM command clock [MHz]");
      GPUSC_PARAM_C(network, "vnets|separate", "request/reply as virtual networks of one NoC, or two physical NoCs");
      GPUSC_PARAM_C(placement, "bottom|top-bottom|edge|diamond|interleaved|gpgpusim", "MC placement on a mesh (001 §5.4)");
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
      GPUSC_PARAM(sm_front, "SM-side stages between each L1 and the network interfaces (gpu/sm_front_stage.h; "
                            "e.g. [\"probe\"], paper 000)");
    }
    static noc::Network::Params noc_defaults() { return GpuBlock::Params::noc_defaults(); }
    static Cache::Params l1_defaults() { return GpuBlock::Params::l1_defaults(); }
  };

  // `stages` builds the memory-partition stages p.mc.stages names, `front` the SM-side stages
  // p.sm_front.stages names (both used during construction).
  // `name` names the block (its units' statistics are name.sm_0.core..., name.mc_0...).
  MeshGpu(const std::string& name, const Params& p, Workload& workload,
          const McStageRegistry& stages = paper_mc_stages(),
          const SmFrontRegistry& front = paper_sm_front_stages());
  MeshGpu(const MeshGpu&) = delete;
  MeshGpu& operator=(const MeshGpu&) = delete;

  // Runs until the workload has finished and every write ack is back, or max_cycles core cycles.
  // Returns true when the workload finished.
  bool run(uint64_t max_cycles, const Platform::ProgressFn& progress = {}, uint64_t stall_cycles = 0) {
    return platform_.run(max_cycles, progress, stall_cycles);
  }
  Platform::Stop stop() const { return platform_.stop(); }  // why run() returned

  // The effective configuration: p with every memory-partition and SM-side stage's parameters
  // filled in.
  const Params& params() const { return p_; }
  ClockDomain& core_clock() { return core_; }
  unsigned sm_count() const { return p_.sms; }
  unsigned mc_count() const { return p_.mcs; }
  GpuBlock& block() { return block_; }
  Platform& platform() { return platform_; }
  SmCore& sm(unsigned i) { return block_.sm(i).core(); }
  Cache& l1(unsigned i) { return block_.sm(i).l1(); }
  MemoryPartition& mc(unsigned i) { return block_.mc(i); }
  noc::Network& request_net() { return block_.request_net(); }
  noc::Network& reply_net() { return block_.reply_net(); }
  unsigned sm_node(unsigned i) const { return block_.sm_node(i); }
  unsigned mc_node(unsigned i) const { return block_.mc_node(i); }
  unsigned block_of_sm(unsigned i) const { return group_of_sm_[i]; }
  const AddressMapper& address_mapper() const { return *mapper_; }
  uint64_t cycles() const { return platform_.cycles(); }

  // The summary of paper-style figures the command line prints (also in the stats JSON).
  json summary() const { return platform_.summary(); }
  // The lines the memory-partition stages add (McStage::summarize), merged over the partitions.
  json mechanism_summary() const { return platform_.mechanism_summary(); }

  using Observers = GpuBlock::Observers;  // for tests and tracing
  void set_observers(Observers o) { block_.set_observers(std::move(o)); }

 private:
  static std::unique_ptr<AddressMapper> build_mapper(const Params& p, const std::string& where);
  static GpuBlock::Params block_params(const Params& p);
  GpuBlock::Context block_context(const McStageRegistry& stages, const SmFrontRegistry& front);

  const Params p_;
  ClockDomain core_, noc_clk_, dram_clk_;
  std::unique_ptr<AddressMapper> mapper_;  // the one address mapper, shared by reference
  std::vector<unsigned> group_of_sm_;
  NodeNumbering ids_;
  GpuBlock block_;
  Platform platform_;
};

}  // namespace gpusc
