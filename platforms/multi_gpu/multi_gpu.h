// MultiGpu: the multi-GPU platform of paper 004 (issue 21), built from GpuBlocks (DESIGN §6):
// N GPUs (default 4), each a GpuBlock with a boundary node, joined by a PCIe-like fabric, one
// unified address space, run by one Platform. The DCA baseline of §2.3 (direct cache access).
//
//   GPU g:  SMs + L1s, MCs (L2 slice + HBM), in-GPU mesh -- boundary out(kRequest), out(kReply) -->
//           link[g] side A (class 0 requests, class 1 replies), side B at a switch port
//   fabric.topology = tree (MGPUSim): GPUs 2p and 2p + 1 on pair switch p, pair switch p on the
//           root switch by uplink[p]; star: every GPU on one switch.
//   switches: noc::Network crossbars, vnet 0 = requests, vnet 1 = replies; their NodeMaps send
//           every platform id towards the GPU that owns it (a pair switch sends the ids of the
//           GPUs it does not hold to its uplink port).
//
// Fabric (004 §5, Table 1: PCIe-4-like, 64 GB/s, 16 B flits; MGPUSim v2.0.1's PCIe network, read
// for this model: timingplatform.go and akita's pcie / switching packages, see dca4.json
// "sources"): each GPU has ONE link (noc::BandwidthLink with classes = 2): requests and replies
// share one serializer per direction, 64 B/cycle at 1 GHz in 16 B flits, as MGPUSim's endpoint
// sends every message of the GPU one flit per cycle from one queue; each class has its own
// transmit queue and receive-buffer credits, so a class can never block the other on the wire
// (MGPUSim's single queue could; this is where we keep the classes apart). MGPUSim's switches
// add 140 cycles per switch crossed: the link from a GPU to its pair switch has latency 70
// (a same-pair message crosses two such links: 140), an uplink has 140 (a message between pairs
// crosses GPU link, uplink, uplink, GPU link: 420, three switches). The crossbars' ports are
// one 80 B flit wide (a whole message: a line reply is 80 B in 16 B link flits) and move one
// message per switch cycle. On the fabric clock (fabric.mhz = 0) that keeps up with a link
// carrying replies only (0.8 per cycle) but not with the real mix: a link moves up to 4 requests
// of 16 B per cycle, and DCA's half requests, half replies is 1.33 messages per cycle. Measured
// (docs/validation/dualopt.md): spmv under DCA saturates the pair switches at 0.6 messages per
// port and cycle, 46% of the links' bytes; with fabric.mhz = 2 x fabric_mhz the uplinks carry
// 92%. The dca4 preset sets fabric.mhz = 4 x fabric_mhz (a port's message rate = the link's 16 B
// flit rate, as MGPUSim's switches forward one flit per port and cycle): the switches never
// throttle below the links.
// Deadlock freedom: requests and replies never share a buffer or an in-order channel:
// virtual networks 0/1 inside each GPU (separate VCs and NI queues), one boundary port per
// class, per-class credits on every link, virtual networks 0/1 in every switch; the tree has
// one path between any two GPUs. Replies are always consumed at their sink (an SM takes every
// reply; an L1 fill never waits for the path down), so the reply class drains whatever the
// request class does, and a request can only wait for replies: no cycle.
// In-GPU network: MGPUSim joins L1s, L2 banks and the RDMA engine by an ideal direct connection;
// ours is a mesh whose flits carry a whole message (72 B: a 64 B line and the 8 B header), so a
// port moves one message per cycle. boundary_nodes spreads the remote traffic over several
// nodes (gpu/gpu_block.h; the mesh has sms + mcs + boundary_nodes nodes), joined into the one
// link. One node would cap a GPU at one remote message per cycle each way, below a link of small
// messages and below the de-coalescer's output (up to 10 responses per packet); the dca4 preset
// has 4 on a 12 x 7 mesh (its "sources" give the measurements).
// Unified address space (004 §2.1 "all GPUs share a unified address space", §6.1 "our baseline
// adopts the runtime of MGPUSim to distribute data"): page_map.kind
//   distributed  (default) MGPUSim's driver (amd/driver/distributor.go): every array of the
//                workload is split into N contiguous runs of whole pages, run g on GPU g, the
//                remainder pages on the last GPU used (an array of fewer than N pages lives on
//                GPU 0); a page two arrays share belongs to the first one;
//   interleave   page p on GPU p mod N (a page-interleaved mapper over all GPUs);
//   first-touch  a page lives on the GPU whose SM requested it first (paper 003 §5.3).
// All three are one FirstTouchPageMapper over the GPUs' partitions: distributed and interleave
// place every page of the workload's arrays at construction (the driver's allocation, before
// the kernel), pages outside every array fall back to first touch. Inside a GPU a page is
// interleaved over its partitions in interleave_bytes chunks.
// CTA policy: cta.policy = contiguous-groups (MGPUSim's "partition", 004 Table 1) by default:
// the grid is split into one contiguous group of CTAs per GPU; round-robin and greedy as options.
// DCA path: an L1 miss for a page of another GPU is routed by the L1 (its route hook) to the
// owning partition's platform id; the GPU's network sends it to the boundary, the links and
// switches deliver it to the owner's boundary and network, the owner's L2 slice (which
// holds only its own GPU's memory) and HBM serve the 64 B line, and the reply returns the same
// way to the requesting L1, which caches it (the requester's L2 never sees remote data). Remote
// writes and atomics are conventional (a write-through L1 sends them to the owner, acks return).
// DUALOPT (004 §4; `dualopt.mode`, presets coalescing, caching, dualopt), attached at the hook
// points, nothing in the generic units:
//   coalescing  per CU, the SM-side stage "mask_mshr" (multigpu/mask_mshr_stage.h): the GPU's
//               SCBU (multigpu/selective_cache_bypass.h, one per GPU: range registers and the mode
//               register) on the L1's bypass hook, and the mask-aware MSHR behind it; the word
//               mask is the SM coalescer's (MemExt::word_mask, the BGU's OR over the lanes);
//               at the serving GPU's exit, replies -> RdmaWordSelector (the line the L2 returned
//               cut to the requested words: fine-grained on the link only) -> RdmaCoalescer (n - 1
//               per-destination buffers, 10 x 6 B per packet, 30-cycle timeout) -> the link (reply class);
//               at the destination, the link -> RdmaDecoalescer -> the GPU. A coalesced packet
//               is a reply-class message of its own (RdmaPacketExt) through the same links and
//               switches; nothing in them knows it.
//   caching     per GPU, an RdmaCache (multigpu/rdma_cache.h: the generic Cache, 1.5 MB,
//               write-back, remote data only) between the boundary and the links: requests
//               leaving the GPU enter it, its misses and write-backs take the link (request class), the
//               link's replies feed its fills; flushed (dirty lines home, invalidated) at kernel end.
//               The preset shrinks the L2 to 0.5 MB (iso-area, 004 Table 1).
//   dualopt     both, with neither active, and one DecisionEngine watching every L1 (requests
//               as the SMs hand them over, hit = the line present at that moment; evictions from
//               the L1s' eviction hook); its decision (once per run) turns on the SCBUs' mode
//               registers (coalescing) or the RDMA caches (caching); local-dominated changes
//               nothing. The L2 is 0.5 MB in every mode (the preset), as in the paper's DUALOPT.
// SCBU range registers: MGPUSim's L1 sees physical addresses, each GPU's memory one contiguous
// range; ours are unified virtual addresses placed by the page map, so the SCBU compares the
// "physical" address (owner GPU << 32) | (address mod 4 GB): GPU g's range is [g x 4 GB, (g + 1)
// x 4 GB) (004 Table 1: 4 GB per GPU).
// Measurement: remote_* counters at the SM side (requests injected by SM NIs whose partition is
// in another GPU), per-link bytes and messages per direction, and the platform summary.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/first_touch_page_mapper.h"
#include "common/params.h"
#include "gpu/gpu_block.h"
#include "gpu/node_numbering.h"
#include "gpu/platform.h"
#include "mem/cache.h"
#include "mem/mc_stage.h"
#include "mem/memory_partition.h"
#include "noc/bandwidth_link.h"
#include "noc/network.h"
#include "platforms/paper_stages.h"
#include "sm/cta_scheduler.h"
#include "sm/sm_core.h"
#include "multigpu/decision_engine.h"
#include "multigpu/mask_mshr_stage.h"
#include "multigpu/page_fault_stage.h"
#include "multigpu/page_migration_engine.h"
#include "multigpu/rdma_cache.h"
#include "multigpu/rdma_coalescer.h"
#include "multigpu/rdma_decoalescer.h"
#include "multigpu/rdma_word_selector.h"
#include "multigpu/selective_cache_bypass.h"
#include "workload/kernel.h"

namespace gpusc {

class MultiGpu {
 public:
  struct PageMap {
    std::string kind = "distributed";  // distributed | interleave | first-touch | first-gpu
    uint64_t page_bytes = 4096;        // (MGPUSim: log2PageSize = 12)
    template <class F> static void describe(F&& f) {
      using S = PageMap;
      GPUSC_PARAM_C(kind, "distributed|interleave|first-touch|first-gpu",
                    "distributed: each array split into one contiguous run of pages per GPU (MGPUSim's driver, "
                    "the paper's baseline); interleave: page p on GPU p mod gpus; first-touch: the GPU that "
                    "requested the page first; first-gpu: every array on GPU 0 (MGPUSim's unified memory, where "
                    "page migration distributes the pages)");
      GPUSC_PARAM_R(page_bytes, 64, uint64_t{1} << 30, "page size [bytes], a power of two (MGPUSim: 4 KB)");
    }
  };
  // The switch: a crossbar noc::Network of one port per GPU (its k is `gpus`), 2 virtual networks.
  struct Switch {
    std::string topology = "tree";  // tree (MGPUSim: a switch per GPU pair under a root) | star
    noc::BandwidthLink::Params uplink = uplink_defaults();  // pair switch <-> root (tree)
    noc::Router::Params router = router_defaults();
    noc::NetworkInterface::Params ni = ni_defaults();
    unsigned link_latency = 1;    // port channel traversal [switch cycles]
    unsigned credit_latency = 1;  // credit return [switch cycles]
    double mhz = 0;               // the switches' clock; 0: fabric_mhz
    template <class F> static void describe(F&& f) {
      using S = Switch;
      GPUSC_PARAM_C(topology, "tree|star",
                    "tree: GPUs 2p and 2p + 1 on pair switch p, the pair switches on one root switch (MGPUSim's "
                    "PCIe platform); star: every GPU on one switch");
      GPUSC_PARAM(uplink, "tree: each pair switch's link to the root (classes must be 2)");
      GPUSC_PARAM(router, "the switch's router (vnets must be 2: requests and replies)");
      GPUSC_PARAM(ni, "the switch's port interfaces (flit_bytes = port width per cycle)");
      GPUSC_PARAM_R(link_latency, 1, 1000, "port channel traversal [switch cycles]");
      GPUSC_PARAM_R(credit_latency, 1, 1000, "credit return [switch cycles]");
      GPUSC_PARAM_R(mhz, 0, 1e5,
                    "the switches' clock [MHz]; 0: fabric_mhz. A port moves one message per cycle, a link "
                    "bytes_per_cycle / flit_bytes flits per fabric cycle: below that multiple of fabric_mhz the "
                    "switches throttle a stream of small messages under the links' rate");
    }
    static noc::Router::Params router_defaults();
    static noc::NetworkInterface::Params ni_defaults();
    static noc::BandwidthLink::Params uplink_defaults();
  };
  // DUALOPT (004 §4): which of its mechanisms are built and active, and their parameters.
  struct Dualopt {
    std::string mode = "off";  // off (DCA baseline) | coalescing | caching | dualopt
    multigpu::MaskMshrStage::Params front;        // SCBU + mask-aware MSHR per CU
    multigpu::RdmaCoalescer::Params codec;        // gpus and self are set per GPU by the platform
    multigpu::RdmaDecoalescer::Params decoalescer;
    Cache::Params rdma_cache = multigpu::RdmaCache::defaults();
    multigpu::DecisionEngine::Params engine;
    template <class F> static void describe(F&& f) {
      using S = Dualopt;
      GPUSC_PARAM_C(mode, "off|coalescing|caching|dualopt",
                    "off: the DCA baseline; coalescing: remote access coalescing always on (L1 bypass, mask-aware "
                    "MSHR, fine-grained link transfer, RDMA CoDec); caching: the RDMA cache always on; dualopt: both "
                    "built, the decision engine turns one on");
      GPUSC_PARAM(front, "per CU: the mask-aware MSHR of the bypassed remote reads");
      GPUSC_PARAM(codec, "per GPU: the RDMA coalescer (its gpus and self are set by the platform)");
      GPUSC_PARAM(decoalescer, "per GPU: the RDMA de-coalescer");
      GPUSC_PARAM(rdma_cache, "per GPU: the RDMA cache (004 Table 1: 1.5 MB, write-back)");
      GPUSC_PARAM(engine, "the decision engine (dualopt mode)");
    }
    bool coalescing() const { return mode == "coalescing" || mode == "dualopt"; }
    bool caching() const { return mode == "caching" || mode == "dualopt"; }
  };
  // The page-migration baseline (004 §2.3; multigpu/page_migration_engine.h).
  struct Migration {
    bool enabled = false;
    multigpu::PageMigrationEngine::Params engine;
    multigpu::PageFaultStage::Params stage;
    template <class F> static void describe(F&& f) {
      using S = Migration;
      GPUSC_PARAM(enabled, "page migration on a fault: a request to a remote page that is not pinned moves the page");
      GPUSC_PARAM(engine, "the migration's phases and latencies (driver, IOMMU, page-migration controller)");
      GPUSC_PARAM(stage, "per CU: the stage that holds faulting and drained requests");
    }
  };
  struct Params {
    unsigned gpus = 4;                // GPUs (004 §5: 4; 8 and 16 in §6.2)
    unsigned sms = 64;                // CUs per GPU (004 Table 1: 16 SEs x 4 CUs)
    unsigned mcs = 16;                // memory partitions per GPU (MGPUSim R9 Nano: 16 L2 banks + DRAM ctrls)
    double core_mhz = 1000;           // CUs, L1, L2 (MGPUSim R9 Nano: 1 GHz)
    double noc_mhz = 1000;            // in-GPU network
    double dram_mhz = 1000;           // HBM model clock (bandwidth_memory figures are in these cycles)
    double fabric_mhz = 1000;         // links and switch (MGPUSim RDMA and PCIe at 1 GHz)
    std::string network = "vnets";    // in-GPU request / reply classes: vnets | separate
    unsigned boundary_nodes = 1;      // in-GPU network nodes where remote traffic enters and leaves
    std::string placement = "top-bottom";  // MC placement on the in-GPU mesh
    unsigned interleave_bytes = 128;  // chunk over a GPU's partitions (MGPUSim platform: 2^7 B)
    PageMap page_map;
    noc::Network::Params noc = noc_defaults();            // in-GPU network
    SmCore::Params sm = sm_defaults();
    Cache::Params l1 = l1_defaults();
    MemoryPartition::Params mc = mc_defaults();
    CtaScheduler::Params cta = cta_defaults();
    noc::BandwidthLink::Params link = link_defaults();    // each GPU's link to its switch
    Switch fabric;                                        // the switches
    Dualopt dualopt;                                      // paper 004's mechanisms (off: DCA)
    Migration migration;                                  // the page-migration baseline (off: DCA)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(gpus, 2, 64, "GPUs [count] (004: 4; 8 and 16 for scaling)");
      GPUSC_PARAM_R(sms, 1, 1 << 16, "CUs (SMs) per GPU [count]");
      GPUSC_PARAM_R(mcs, 1, 64, "memory partitions (L2 slice + HBM channel) per GPU [count]");
      GPUSC_PARAM_R(core_mhz, 1, 1e5, "CU / L1 / L2 clock [MHz]");
      GPUSC_PARAM_R(noc_mhz, 1, 1e5, "in-GPU network clock [MHz]");
      GPUSC_PARAM_R(dram_mhz, 1, 1e5, "memory model clock [MHz]");
      GPUSC_PARAM_R(fabric_mhz, 1, 1e5, "inter-GPU links and switch clock [MHz]");
      GPUSC_PARAM_C(network, "vnets|separate", "in-GPU request/reply classes: virtual networks or two networks");
      GPUSC_PARAM_R(boundary_nodes, 1, 64, "in-GPU network nodes that join the GPU to its link [count] "
                                           "(gpu/gpu_block.h: spread by destination)");
      GPUSC_PARAM_C(placement, "bottom|top-bottom|edge|diamond|interleaved|gpgpusim", "MC placement on the in-GPU mesh");
      GPUSC_PARAM_R(interleave_bytes, 1, 1 << 20, "interleave chunk over a GPU's partitions [bytes]");
      GPUSC_PARAM(page_map, "unified address space: which GPU owns a page");
      GPUSC_PARAM(noc, "in-GPU network (mesh k x m = sms + mcs + boundary_nodes, or crossbar k = the same)");
      GPUSC_PARAM(sm, "CU core");
      GPUSC_PARAM(l1, "L1 vector cache (write-through, no write-allocate)");
      GPUSC_PARAM(mc, "memory partition (L2 slice + memory)");
      GPUSC_PARAM(cta, "CTA scheduler");
      GPUSC_PARAM(link, "each GPU's link to its switch, requests and replies over one serializer (classes must be 2) "
                        "[fabric cycles]");
      GPUSC_PARAM(fabric, "the switches: crossbars, requests on vnet 0, replies on vnet 1");
      GPUSC_PARAM(dualopt, "DUALOPT (004 §4): off (DCA baseline), coalescing, caching or dualopt");
      GPUSC_PARAM(migration, "the page-migration baseline (004 §2.3): off (DCA) or on");
    }
    static noc::Network::Params noc_defaults();
    static SmCore::Params sm_defaults();
    static Cache::Params l1_defaults();
    static MemoryPartition::Params mc_defaults();
    static CtaScheduler::Params cta_defaults();
    static noc::BandwidthLink::Params link_defaults();
  };

  // `stages` builds the memory-partition stages p.mc.stages names (used during construction).
  MultiGpu(const Params& p, Workload& workload, const McStageRegistry& stages = paper_mc_stages());
  MultiGpu(const MultiGpu&) = delete;
  MultiGpu& operator=(const MultiGpu&) = delete;

  bool run(uint64_t max_cycles, const Platform::ProgressFn& progress = {}, uint64_t stall_cycles = 0) {
    return platform_->run(max_cycles, progress, stall_cycles);
  }
  Platform::Stop stop() const { return platform_->stop(); }  // why run() returned

  const Params& params() const { return p_; }  // with the stages' effective parameters
  unsigned gpus() const { return p_.gpus; }
  GpuBlock& gpu(unsigned g) { return gpus_[g]; }
  Platform& platform() { return *platform_; }
  // GPU g's link: side A = GPU g, side B = its switch; class kRequestClass / kReplyClass.
  static constexpr unsigned kRequestClass = 0, kReplyClass = 1;
  noc::BandwidthLink& link(unsigned g) { return links_[g]; }
  // Switches: star: one; tree: the pair switches 0 .. pairs - 1, then the root (when pairs > 1).
  unsigned switches() const { return static_cast<unsigned>(switches_.size()); }
  const noc::Network& switch_network(unsigned i) const { return *switches_.at(i); }  // pairs, then the root
  noc::Network& fabric_switch(unsigned i = 0) { return *switches_.at(i); }
  unsigned uplinks() const { return static_cast<unsigned>(uplinks_.size()); }
  noc::BandwidthLink& uplink(unsigned p) { return uplinks_[p]; }  // side A = pair switch p, B = root
  // Nothing left in any switch or link of the fabric.
  bool fabric_drained() const;
  const FirstTouchPageMapper& page_map() const { return *mapper_; }
  // The GPU owning platform id `node` (every node of a GPU's network, boundary included).
  unsigned gpu_of_node(unsigned node) const;
  // The GPU owning a placed address.
  unsigned gpu_of_address(uint64_t addr) const;
  uint64_t cycles() const { return platform_->cycles(); }

  // Counted at SM NIs (requests leaving an L1 towards memory), all GPUs.
  uint64_t requests() const { return count_.requests; }
  uint64_t remote_requests() const { return count_.remote_requests; }
  uint64_t remote_reads() const { return count_.remote_reads; }
  // L1 accesses (requests an SM handed to its L1) and those to another GPU's memory.
  uint64_t l1_accesses() const { return count_.l1_accesses; }
  uint64_t l1_remote_accesses() const { return count_.l1_remote; }
  // Distinct remote lines (line address) the L1s of GPU g fetched (remote footprint), per GPU.
  const std::unordered_set<uint64_t>& remote_lines(unsigned g) const { return remote_lines_.at(g); }
  // Remote reads answered to the SMs (L1 hits included) and their mean latency, issue to reply
  // [core cycles].
  uint64_t remote_reads_answered() const { return count_.remote_answered; }
  double remote_read_latency() const {
    return count_.remote_answered ? count_.remote_latency / double(count_.remote_answered) : 0.0;
  }
  // DUALOPT units (nullptr / empty when the mode does not build them).
  multigpu::DecisionEngine* decision_engine() { return engine_.get(); }
  multigpu::RdmaCache* rdma_cache(unsigned g) { return rdma_caches_.empty() ? nullptr : rdma_caches_.at(g).get(); }
  multigpu::RdmaCoalescer* coalescer(unsigned g) { return coalescers_.empty() ? nullptr : coalescers_.at(g).get(); }
  multigpu::SelectiveCacheBypass* scbu(unsigned g) { return scbus_.empty() ? nullptr : scbus_.at(g).get(); }
  multigpu::PageMigrationEngine* migration_engine() { return migration_.get(); }
  // The "physical" address the SCBU compares (see above).
  uint64_t physical(uint64_t addr) const;

  json summary() const { return platform_->summary(); }
  json mechanism_summary() const { return platform_->mechanism_summary(); }

  // Observers of every GPU (gpu index first); they run after the platform's own counting.
  struct Observers {
    std::function<void(unsigned gpu, unsigned sm, const tlm::tlm_generic_payload&)> sm_request, sm_reply;
    std::function<void(unsigned gpu, unsigned node, const tlm::tlm_generic_payload&)> injected;
  };
  void set_observers(Observers o) { obs_ = std::move(o); }

 private:
  static Params checked(const Params& p, const McStageRegistry& stages);
  std::unique_ptr<FirstTouchPageMapper> build_mapper() const;
  void distribute_pages(const Workload& w);
  GpuBlock::Params block_params() const;
  void build_fabric();
  std::unique_ptr<noc::Network> make_switch(const std::string& name, unsigned ports, const std::vector<unsigned>& port_of_gpu);
  void observe(unsigned g);
  void add_summary();
  void build_dualopt();
  void build_migration();
  void apply(multigpu::DecisionEngine::Mode m);
  MsgIn& wire_request_exit(unsigned g);  // what gpu g's out(kRequest) feeds

  const Params p_;
  ClockDomain core_, noc_clk_, dram_clk_, fabric_clk_, switch_clk_;
  std::unique_ptr<FirstTouchPageMapper> mapper_;
  NodeNumbering ids_;
  std::vector<std::unique_ptr<multigpu::SelectiveCacheBypass>> scbus_;  // per GPU (coalescing modes)
  SmFrontRegistry front_;  // the SM-side stages (mask_mshr)
  sc_core::sc_vector<GpuBlock> gpus_;
  std::vector<std::unique_ptr<noc::Network>> switches_;
  sc_core::sc_vector<noc::BandwidthLink> links_, uplinks_;
  std::vector<std::unique_ptr<multigpu::RdmaWordSelector>> selectors_;
  std::vector<std::unique_ptr<multigpu::RdmaCoalescer>> coalescers_;
  std::vector<std::unique_ptr<multigpu::RdmaDecoalescer>> decoalescers_;
  std::vector<std::unique_ptr<multigpu::RdmaCache>> rdma_caches_;
  std::unique_ptr<multigpu::DecisionEngine> engine_;
  std::unique_ptr<multigpu::PageMigrationEngine> migration_;
  std::unique_ptr<Platform> platform_;
  Observers obs_;
  std::vector<std::unordered_set<uint64_t>> remote_lines_;  // [gpu] distinct remote lines its L1s fetched

  struct Counts {  // summary lines (MultiGpu is not a module, so not a StatGroup)
    uint64_t requests = 0, remote_requests = 0, remote_reads = 0, l1_accesses = 0, l1_remote = 0;
    uint64_t remote_answered = 0;
    double remote_latency = 0;  // sum [core cycles]
  } count_;
};

}  // namespace gpusc
