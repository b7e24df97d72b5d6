// McmGpu: paper 003's multi-chip-module GPU (§3, Figure 3; Table 3), a recipe over gpusc's blocks
// (DESIGN §6): `gpms` GPU modules, each a GpuBlock (its SMs with their L1s, its memory partitions,
// its in-GPM network, boundary = true) run by one Platform (CTA scheduler, kernel-boundary
// flushes, run(), summary), joined by a bidirectional ring: per traffic class (requests,
// replies) one noc::RingStop per GPM and one noc::BandwidthLink between neighbours (GPM g and
// g+1 mod gpms), so a request never waits behind a reply (docs/composing.md); or, with
// link.classes = 2, one link per neighbour pair that both classes share. Optionally an
// L1.5 (mcm::L15Cache, §5.1) per GPM on its boundary path, remote-only by construction.
//
//   SMs+L1s --GPM network-- MCs (L2 slice + BandwidthMemory)
//        |  boundary out(req) -> [L1.5] -> ring stop (req) <-> links (req) <-> neighbours
//        |  boundary in(rep)  <- [L1.5] <- ring stop (rep) <-> links (rep) <-> neighbours
//        |  boundary in(req)  <- ring stop (req);  boundary out(rep) -> ring stop (rep)
//
// Ids: platform ids (gpu/node_numbering.h), GPM g's nodes after GPM g-1's; the ring stops route
// by the GPM that owns MemExt::dst (see noc/ring_stop.h for the routing rule and why it cannot
// deadlock). Partitions are numbered GPM by GPM, so GPM g owns partitions g*mcs .. g*mcs+mcs-1.
// Address map (address_map.kind): fine-interleave (baseline, §3.2: interleave_bytes chunks over
// all partitions of all GPMs) or first-touch (§5.3: a page lives in the GPM whose SM touched it
// first, interleaved in interleave_bytes chunks over that GPM's partitions). CTA scheduling
// (cta.policy): round-robin = the centralized scheduler of the baseline, contiguous-groups =
// §5.2's distributed scheduler (one contiguous group of CTA ids per GPM).
// L1.5 (l15_enabled, section l15: a Cache): flushed once per kernel boundary with the L1s. In an
// iso-transistor configuration, l15_iso_budget_bytes (per GPM) is the L2 capacity the L1.5 is
// carved from: an L1.5 larger than it is an error (0: not iso, no check; §5.1.2's 32 MB case).
// Clocks: core (SMs, L1s, L2s, ring links: Table 3's 1 GHz), fabric (the in-GPM network, the
// L1.5 and the ring stops), memory (the BandwidthMemory, 1 GHz so that its figures are ns).
// Choices paper 003 leaves open (all parameters; platforms/mcm_gpu/presets document theirs):
//   * in-GPM network: the paper's GPM-Xbar is a crossbar, which gpusc's router supports up to 64
//     ports (its switch allocator keeps port sets in 64-bit words, noc/switch_allocator.h), so a
//     64-SM GPM uses a 12x7 mesh (64 SMs + 16 partitions + 4 boundary nodes) and small presets a
//     crossbar; the fabric clock and 136 B flits (a 128 B line and its header in one flit) make
//     the GPM network fast enough for local traffic ("caches are banked such that they can
//     provide the necessary parallelism"); the remote traffic enters and leaves at 4 nodes
//     (gpm.boundary_nodes, gpu/gpu_block.h), joined into the GPM's one port pair: through one
//     node (a 9x9 mesh) a 64-SM GPM took in only ~2.8 replies per core cycle and a STREAM triad
//     ran 26,768 cycles, with 4 it runs 21,274, with 8 or 10 no faster (docs/validation/mcm.md);
//   * partitions per GPM (16: 256 KB of L2 and 48 GB/s of DRAM each), interleave 256 B;
//   * MSHRs per L2 slice: 128. A slice must keep bandwidth x latency in flight to reach its DRAM
//     share (48 B/cycle x ~250 cycles of L2 lookup and DRAM = 94 lines); with the generic 32 a
//     STREAM triad reaches 40% of Table 3's 3 TB/s, with 128 it reaches the DRAM bandwidth;
//   * ring: bidirectional, full duplex; one link per class and neighbour pair, each of
//     link.bytes_per_cycle per direction (768: Table 3's 768 GB/s per link); 32 cycles per hop
//     (BandwidthLink: 1 + 31); a ring stop adds one fabric cycle. link.classes = 2 instead puts
//     requests and replies on one link per neighbour pair (one serializer per direction, each
//     class its own credits), so a neighbour pair has half the bytes per cycle of the default;
//     the presets keep 1;
//   * monolithic references (monolithic128/256 presets, §2): gpms = 1, one GpuBlock without a
//     boundary holding all SMs and partitions on one network (no ring, no L1.5): a 16x10 or
//     16x20 mesh at the fabric clock with the partitions interleaved among the SMs (placement
//     "interleaved", noc/mesh_placement.h), the GPMs' router and flit. The same caches, DRAM,
//     clocks and CTA scheduler as mcm_baseline, so it differs only in having no GPM boundary.
//     The ideal_links overlay (free ring links) is not a monolithic GPU: its accesses still cross
//     two GPM meshes and a boundary node (docs/validation/mcm.md compares the two).
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
#include "mcm/l15_cache.h"
#include "mem/cache.h"
#include "mem/mc_stage.h"
#include "noc/bandwidth_link.h"
#include "noc/ring_stop.h"
#include "platforms/paper_stages.h"
#include "sm/cta_scheduler.h"
#include "workload/kernel.h"

namespace gpusc {

class McmGpu : public sc_core::sc_module {
 public:
  struct Params {
    unsigned gpms = 4;                   // GPU modules on the ring (003 Table 3: 4)
    double core_mhz = 1000;              // SMs, L1, L2, ring links (003 Table 3: 1 GHz)
    double fabric_mhz = 6000;            // in-GPM network, L1.5, ring stops
    double dram_mhz = 1000;              // memory clock (BandwidthMemory figures in ns)
    unsigned interleave_bytes = 256;     // address interleave chunk [bytes]
    AddressMapper::Params address_map;   // fine-interleave | first-touch
    GpuBlock::Params gpm = gpm_defaults();
    noc::BandwidthLink::Params link;     // each ring link (one per class and neighbour pair)
    noc::RingStop::Params ring_stop;
    double cache_scale = 1;              // multiplies l2_bytes_per_gpm, l15_bytes, l15_iso_budget_bytes
    uint64_t l2_bytes_per_gpm = 0;       // L2 per GPM, split over its partitions; 0: gpm.mc.l2.sets as given
    bool l15_enabled = false;            // an L1.5 per GPM (003 §5.1)
    uint64_t l15_bytes = 0;              // L1.5 per GPM; 0: l15.sets as given
    Cache::Params l15 = mcm::L15Cache::defaults();
    uint64_t l15_iso_budget_bytes = 0;   // per GPM; 0: not iso-transistor
    CtaScheduler::Params cta;
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(gpms, 1, 64,
                    "GPU modules on the ring [count] (003 Table 3: 4); 1 = a monolithic GPU on one die: no ring, "
                    "gpm.boundary false, no L1.5 (003's monolithic references)");
      GPUSC_PARAM_R(core_mhz, 1, 1e5, "core / L1 / L2 / ring-link clock [MHz] (003 Table 3: 1000)");
      GPUSC_PARAM_R(fabric_mhz, 1, 1e6,
                    "in-GPM network, L1.5 and ring-stop clock [MHz]; the GPM boundary moves one flit per fabric "
                    "cycle per class, so flit bytes x fabric_mhz should exceed the link bandwidth");
      GPUSC_PARAM_R(dram_mhz, 1, 1e5, "memory clock [MHz]");
      GPUSC_PARAM_R(interleave_bytes, 1, 1 << 20,
                    "address interleave chunk [bytes] over all partitions (fine-interleave) or a page's GPM's "
                    "partitions (first-touch)");
      GPUSC_PARAM(address_map, "address mapper: fine-interleave (003 §3.2) or first-touch pages (§5.3)");
      GPUSC_PARAM(gpm, "one GPU module (every GPM alike; boundary true, or false for a one-die GPU: gpms = 1)");
      GPUSC_PARAM(link, "each inter-GPM ring link (003 Table 3: 768 GB/s, 32 cycles per hop); classes = 1: one link per "
                        "traffic class and neighbour pair, 2: requests and replies share one link per pair");
      GPUSC_PARAM(ring_stop, "the ring stop of each GPM, per class");
      GPUSC_PARAM_R(cache_scale, 1e-6, 1,
                    "scales l2_bytes_per_gpm, l15_bytes and l15_iso_budget_bytes, so that a scaled-down preset "
                    "(fewer SMs per GPM) keeps the paper's capacities per SM with the same overlays");
      GPUSC_PARAM_R(l2_bytes_per_gpm, 0, 1e15,
                    "L2 capacity per GPM (x cache_scale), split evenly over its partitions: sets the partitions' "
                    "gpm.mc.l2.sets (003 Table 3: 16 MB / 4 = 4 MB); 0: gpm.mc.l2.sets as given [bytes]");
      GPUSC_PARAM(l15_enabled, "an L1.5 per GPM on its boundary path: remote-only, write-through (003 §5.1)");
      GPUSC_PARAM(l15, "the L1.5 of one GPM (a Cache, write-through), in fabric cycles");
      GPUSC_PARAM_R(l15_bytes, 0, 1e15,
                    "L1.5 capacity per GPM (x cache_scale): sets l15.sets (003 §5.1.2: 8, 16, 32 MB in all = 2, 4, 8 MB "
                    "per GPM); 0: l15.sets as given [bytes]");
      GPUSC_PARAM_R(l15_iso_budget_bytes, 0, 1e15,
                    "iso-transistor: the L2 capacity per GPM (x cache_scale) the L1.5 is carved from; a larger "
                    "L1.5 is an error (0: not iso) [bytes]");
      GPUSC_PARAM(cta, "CTA scheduler: round-robin (centralized, 003 §3.2) or contiguous-groups (distributed, §5.2)");
    }
    static GpuBlock::Params gpm_defaults();  // 003's GPM: 64 SMs, 16 partitions, 12x7 mesh
  };

  McmGpu(sc_core::sc_module_name name, const Params& p, Workload& workload,
         const McStageRegistry& stages = paper_mc_stages());
  McmGpu(const McmGpu&) = delete;
  McmGpu& operator=(const McmGpu&) = delete;

  bool run(uint64_t max_cycles, const Platform::ProgressFn& progress = {}, uint64_t stall_cycles = 0) {
    return platform_->run(max_cycles, progress, stall_cycles);
  }
  Platform::Stop stop() const { return platform_->stop(); }  // why run() returned
  uint64_t cycles() const { return platform_->cycles(); }

  const Params& params() const { return p_; }  // effective (stage parameters filled in)
  unsigned gpms() const { return p_.gpms; }
  GpuBlock& gpm(unsigned g) { return *gpms_.at(g); }
  mcm::L15Cache* l15(unsigned g) { return p_.l15_enabled ? l15s_.at(g).get() : nullptr; }
  enum Class : unsigned { kRequest = 0, kReply = 1 };
  noc::RingStop& ring_stop(Class c, unsigned g) { return *stops_[c].at(g); }
  // The link of class c between GPM g (side A) and GPM g+1 mod gpms (side B); with
  // link.classes = 2 both classes share one link (class 0 requests, class 1 replies).
  noc::BandwidthLink& link(Class c, unsigned g) { return *links_[shared_links() ? kRequest : c].at(g); }
  bool shared_links() const { return p_.link.classes == 2; }  // one link per neighbour pair
  Platform& platform() { return *platform_; }
  const AddressMapper& address_mapper() const { return *mapper_; }
  const NodeNumbering& ids() const { return ids_; }
  ClockDomain& core_clock() { return core_; }

  // Bytes and messages over all ring links, both classes and directions (a message crossing two
  // links counts twice).
  uint64_t inter_gpm_bytes() const;
  uint64_t inter_gpm_messages() const;
  json summary() const { return platform_->summary(); }
  json mechanism_summary() const { return platform_->mechanism_summary(); }

 private:
  static Params checked(const Params& p, const McStageRegistry& stages, const std::string& where);
  void build_gpms(Workload& workload, const McStageRegistry& stages);
  void build_ring();
  void connect_gpm(unsigned g);
  void connect_ring(Class c);
  void add_summaries();

  const Params p_;
  ClockDomain core_, fabric_, dram_;
  std::unique_ptr<AddressMapper> mapper_;
  NodeNumbering ids_;
  std::vector<std::unique_ptr<GpuBlock>> gpms_;
  std::vector<std::unique_ptr<mcm::L15Cache>> l15s_;
  std::vector<std::unique_ptr<noc::RingStop>> stops_[2];
  std::vector<std::unique_ptr<noc::BandwidthLink>> links_[2];
  std::unique_ptr<Platform> platform_;
};

}  // namespace gpusc
