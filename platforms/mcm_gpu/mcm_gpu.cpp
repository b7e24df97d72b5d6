#include "platforms/mcm_gpu/mcm_gpu.h"

#include <algorithm>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc {

GpuBlock::Params McmGpu::Params::gpm_defaults() {
  GpuBlock::Params b;
  b.sms = 64;   // 003 Table 3: 256 SMs in 4 GPMs
  b.mcs = 16;   // open: 16 partitions, each 256 KB of L2 and 48 GB/s of DRAM
  b.boundary = true;
  b.boundary_nodes = 4;  // open: the GPM's remote traffic spread over 4 nodes (see mcm_gpu.h)
  b.network = "vnets";
  b.placement = "top-bottom";  // 8 partitions on the top row, 8 on the bottom row
  b.noc.topology = "mesh";  // 64 + 16 + 4 = 84 nodes: a crossbar has at most 64 ports
  b.noc.k = 12;
  b.noc.m = 7;
  b.noc.routing = "xy-yx";
  b.noc.router.vnets = 2;
  b.noc.router.vcs_per_vnet = 2;
  b.noc.router.vc_depth = 4;
  b.noc.router.pipeline = 3;
  b.noc.ni.flit_bytes = 136;  // a 128 B line and an 8 B header in one flit
  b.noc.ni.header_bytes = 8;
  b.sm.max_warps = 64;  // 003 Table 3
  b.sm.scheduler = "gto";
  b.l1.line_bytes = 128;  // 003 Table 3: 128 KB, 4-way, 128 B lines
  b.l1.ways = 4;
  b.l1.sets = 256;
  b.l1.write_policy = "write-through";
  b.mc.l2.line_bytes = 128;  // 003 Table 3: 16 MB in all, 16-way: 4 MB per GPM
  b.mc.l2.ways = 16;
  b.mc.l2.sets = 128;
  b.mc.l2.write_policy = "write-back";
  b.mc.l2.mshrs = 128;  // open: enough lines in flight for 48 B/cycle over ~250 cycles (mcm_gpu.h)
  b.mc.memory = "bandwidth";  // 003 Table 3: 3 TB/s in all, 100 ns
  b.mc.bandwidth_memory.bytes_per_cycle = 48;
  b.mc.bandwidth_memory.latency = 99;
  return b;
}

namespace {
// Sets of a cache of `bytes` with `ways` and `line` bytes per line; a capacity that is not a
// power-of-two number of sets is an error naming `key`.
unsigned sets_for(double bytes, unsigned ways, unsigned line, const std::string& where, const char* key) {
  const double sets = bytes / (double(ways) * line);
  const auto s = static_cast<uint64_t>(sets);
  if (sets < 1 || double(s) != sets || (s & (s - 1)) != 0 || s > (1u << 24))
    error(where, key, " gives ", bytes, " bytes per cache = ", sets, " sets of ", ways, " ways x ", line,
          " B; it must be a power-of-two number of sets (at least one)");
  return static_cast<unsigned>(s);
}
}  // namespace

McmGpu::Params McmGpu::checked(const Params& in, const McStageRegistry& stages, const std::string& where) {
  validate(in, where);
  Params p = in;
  if (p.l2_bytes_per_gpm > 0)
    p.gpm.mc.l2.sets = sets_for(double(p.l2_bytes_per_gpm) * p.cache_scale / p.gpm.mcs, p.gpm.mc.l2.ways,
                                p.gpm.mc.l2.line_bytes, where, "l2_bytes_per_gpm x cache_scale / gpm.mcs");
  if (p.l15_bytes > 0)
    p.l15.sets = sets_for(double(p.l15_bytes) * p.cache_scale, p.l15.ways, p.l15.line_bytes, where,
                          "l15_bytes x cache_scale");
  if (p.gpms > 1 && !p.gpm.boundary)
    error(where, "gpm.boundary = false, but a GPM needs its boundary node to reach the ring; set it true");
  if (p.gpms == 1 && p.gpm.boundary)
    error(where, "gpms = 1 is a one-die GPU with no ring to reach: set gpm.boundary = false");
  if (p.link.classes != 1 && p.link.classes != 2)
    error(where, "link.classes must be 1 (one ring link per traffic class and neighbour pair) or 2 (requests and "
          "replies share one link per neighbour pair), got ", p.link.classes);
  if (p.gpms == 1 && p.l15_enabled)
    error(where, "l15_enabled with gpms = 1: a one-die GPU has no remote partitions for a remote-only L1.5");
  if (p.l15_enabled && p.l15_iso_budget_bytes > 0) {
    const uint64_t l15 = uint64_t{p.l15.sets} * p.l15.ways * p.l15.line_bytes;
    const double budget = double(p.l15_iso_budget_bytes) * p.cache_scale;
    if (double(l15) > budget)
      error(where, "l15 holds ", l15, " bytes per GPM (l15.sets x l15.ways x l15.line_bytes) but the iso-transistor "
            "budget l15_iso_budget_bytes x cache_scale is ", budget,
            ": an L1.5 cannot be larger than the L2 capacity it is carved from (set l15_iso_budget_bytes = 0 for a "
            "non-iso configuration)");
  }
  Params q = p;
  q.gpm.mc = MemoryPartition::Params::with_stage_defaults(p.gpm.mc, stages, "gpm.mc");
  return q;
}

namespace {
std::unique_ptr<AddressMapper> build_mapper(const McmGpu::Params& p, const std::string& where) {
  std::vector<std::vector<unsigned>> parts(p.gpms);
  for (unsigned g = 0; g < p.gpms; ++g)
    for (unsigned i = 0; i < p.gpm.mcs; ++i) parts[g].push_back(g * p.gpm.mcs + i);
  return make_address_mapper(p.address_map, p.interleave_bytes, parts, where + ".address_map");
}
}  // namespace

McmGpu::McmGpu(sc_core::sc_module_name name, const Params& p, Workload& workload, const McStageRegistry& stages)
    : sc_core::sc_module(name),
      p_(checked(p, stages, this->name())),
      core_("core_clk", p_.core_mhz),
      fabric_("fabric_clk", p_.fabric_mhz),
      dram_("dram_clk", p_.dram_mhz),
      mapper_(build_mapper(p_, this->name())) {
  build_gpms(workload, stages);
  if (p_.gpms > 1) {  // one GPM: a one-die GPU, nothing leaves it
    build_ring();
    for (unsigned g = 0; g < p_.gpms; ++g) connect_gpm(g);
    connect_ring(kRequest);
    connect_ring(kReply);
  }
  add_summaries();
}

void McmGpu::build_gpms(Workload& workload, const McStageRegistry& stages) {
  std::vector<GpuBlock*> blocks;
  for (unsigned g = 0; g < p_.gpms; ++g) {
    const std::string n = "gpm" + std::to_string(g);
    gpms_.push_back(std::make_unique<GpuBlock>(n.c_str(), p_.gpm,
                                               GpuBlock::Context{{core_, fabric_, dram_}, *mapper_, ids_, stages, g}));
    blocks.push_back(gpms_.back().get());
  }
  // CTA groups are the GPMs (cta.policy = contiguous-groups: one group of CTA ids per GPM).
  platform_ = std::make_unique<Platform>(core_, workload, blocks, p_.cta);
  if (p_.l15_enabled) {
    for (unsigned g = 0; g < p_.gpms; ++g) {
      GpuBlock& b = *gpms_[g];
      std::vector<unsigned> own;
      for (unsigned i = 0; i < b.mc_count(); ++i) own.push_back(b.first_partition() + i);
      const std::string n = "l15_" + std::to_string(g);
      l15s_.push_back(
          std::make_unique<mcm::L15Cache>(n.c_str(), p_.l15, fabric_, b.boundary_ids(), *mapper_, ids_, own));
    }
    // 003 §5.1.1: the L1.5 is invalidated once per synchronization event, with the L1s.
    platform_->add_kernel_boundary_listener([this](unsigned) {
      for (auto& c : l15s_) c->flush();
    });
  }
}

void McmGpu::build_ring() {
  const auto stop_of = [this](unsigned id) { return ids_.block_of(id, "mcm.ring_stop"); };
  for (Class c : {kRequest, kReply}) {
    const std::string cls = c == kRequest ? "req" : "rep";
    for (unsigned g = 0; g < p_.gpms; ++g) {
      const std::string s = "ring_" + cls + "_stop" + std::to_string(g);
      stops_[c].push_back(std::make_unique<noc::RingStop>(s.c_str(), p_.ring_stop, fabric_, g, p_.gpms, stop_of));
      if (shared_links() && c == kReply) continue;  // the request link carries both classes
      const std::string l = (shared_links() ? "ring_link" : "ring_" + cls + "_link") + std::to_string(g);
      links_[c].push_back(std::make_unique<noc::BandwidthLink>(l.c_str(), p_.link, core_));
    }
  }
}

void McmGpu::connect_gpm(unsigned g) {
  GpuBlock& b = *gpms_[g];
  noc::RingStop& req = *stops_[kRequest][g];
  noc::RingStop& rep = *stops_[kReply][g];
  if (p_.l15_enabled) {
    mcm::L15Cache& c = *l15s_[g];
    b.out(GpuBlock::kRequest).bind(c.up_in());
    c.down_out().bind(req.local_in);
    rep.local_out.bind(c.down_in());
    c.up_out().bind(b.in(GpuBlock::kReply));
    // Replies the L1.5 answers itself never met a memory partition: stamp them as served here,
    // so the block's memory / reply latency split stays meaningful (memory latency 0).
    b.in(GpuBlock::kReply).set_tap([](tlm::tlm_generic_payload& gp) {
      MemExt& e = mem_ext(gp, "mcm.l15");
      if (e.t_reply_inject == sc_core::SC_ZERO_TIME && e.grouped.empty()) {
        e.t_reply_inject = sc_core::sc_time_stamp();
        e.t_mem_accept = e.t_reply_inject;
      }
    });
  } else {
    b.out(GpuBlock::kRequest).bind(req.local_in);
    rep.local_out.bind(b.in(GpuBlock::kReply));
  }
  req.local_out.bind(b.in(GpuBlock::kRequest));
  b.out(GpuBlock::kReply).bind(rep.local_in);
}

void McmGpu::connect_ring(Class c) {
  for (unsigned g = 0; g < p_.gpms; ++g) {
    noc::RingStop& here = *stops_[c][g];
    noc::RingStop& next = *stops_[c][(g + 1) % p_.gpms];
    noc::BandwidthLink& l = link(c, g);
    const unsigned cls = shared_links() ? static_cast<unsigned>(c) : 0u;  // shared: 0 requests, 1 replies
    using L = noc::BandwidthLink;
    here.to_next.bind(l.in(L::kSideA, cls));
    l.out(L::kSideB, cls).bind(next.from_prev);
    next.to_prev.bind(l.in(L::kSideB, cls));
    l.out(L::kSideA, cls).bind(here.from_next);
  }
}

uint64_t McmGpu::inter_gpm_bytes() const {
  uint64_t n = 0;
  for (const auto& v : links_)
    for (const auto& l : v) n += l->bytes(noc::BandwidthLink::kAtoB) + l->bytes(noc::BandwidthLink::kBtoA);
  return n;
}

uint64_t McmGpu::inter_gpm_messages() const {
  uint64_t n = 0;
  for (const auto& v : links_)
    for (const auto& l : v) n += l->delivered(noc::BandwidthLink::kAtoB) + l->delivered(noc::BandwidthLink::kBtoA);
  return n;
}

void McmGpu::add_summaries() {
  platform_->add_summary([this](json& s) {
    s["inter_gpm_bytes"] = inter_gpm_bytes();
    s["inter_gpm_messages"] = inter_gpm_messages();
    if (!p_.l15_enabled) return;
    double reads = 0, hits = 0;
    uint64_t flushes = 0;
    const json all = collect_stats();
    const json& v = all.at("stats");
    for (const auto& c : l15s_) {
      const std::string n = c->cache().name();
      reads += v.at(n + ".reads").get<double>();
      hits += v.at(n + ".read_hits").get<double>();
      flushes = std::max(flushes, c->flushes());
    }
    s["l15_read_hit_rate"] = reads > 0 ? hits / reads : 0.0;
    s["l15_reads"] = reads;
    s["l15_flushes_per_gpm"] = flushes;
  });
}

}  // namespace gpusc
