#include "platforms/multi_gpu/multi_gpu.h"

#include <algorithm>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc {

// Defaults: paper 004 Table 1 where it gives a figure, MGPUSim's R9 Nano (amd/samples/runner,
// the simulator the paper used) where it does not; the preset (presets/dca4.json) says which.

noc::Network::Params MultiGpu::Params::noc_defaults() {
  noc::Network::Params n = GpuBlock::Params::noc_defaults();
  n.k = 9, n.m = 9;      // 64 CUs + 16 partitions + the boundary = 81 nodes
  n.ni.flit_bytes = 72;  // a whole message per flit (64 B line + 8 B header): MGPUSim's L1-L2 is ideal
  return n;
}

SmCore::Params MultiGpu::Params::sm_defaults() {
  SmCore::Params s;
  s.line_bytes = 64;     // 004 Table 1
  s.max_warps = 80;      // GCN CU: 40 wavefronts of 64 = 2560 work items = 80 warps of 32
  s.max_threads = 2560;
  s.max_ctas = 16;       // open (GCN: 16 work groups per CU with LDS)
  s.schedulers = 4;      // GCN CU: 4 SIMDs
  return s;
}

Cache::Params MultiGpu::Params::l1_defaults() {
  Cache::Params c = GpuBlock::Params::l1_defaults();
  c.line_bytes = 64;  // 004 Table 1: 16 KB 4-way, 64 B lines -> 64 sets
  c.sets = 64;
  c.ways = 4;
  c.mshrs = 32;       // 004 Table 1 "MSHR 32 entries" (the L1 MSHR DUALOPT extends, §4.1.2)
  c.hit_latency = 60;  // MGPUSim R9 Nano L1V: 60-cycle bank pipeline for hits; misses leave at once
  c.lookup_latency = 0;
  return c;
}

MemoryPartition::Params MultiGpu::Params::mc_defaults() {
  MemoryPartition::Params m;
  m.l2.line_bytes = 64;  // 004 Table 1: 2 MB 16-way write-back per GPU = 16 x 128 KB
  m.l2.sets = 128;
  m.l2.ways = 16;
  m.l2.write_policy = "write-back";
  m.l2.mshrs = 64;           // MGPUSim R9 Nano L2 bank: WithNumMSHREntry(64)
  m.l2.hit_latency = 10;     // MGPUSim write-back L2 bank: 10-cycle bank latency; not in the paper
  m.l2.lookup_latency = 10;
  m.memory = "bandwidth";
  m.bandwidth_memory.bytes_per_cycle = 32;  // MGPUSim HBM: 256-bit bus, 500 MHz DDR = 32 GB/s per bank, 16 banks
  m.bandwidth_memory.latency = 41;          // tRP + tRCD + tCL = 21 HBM cycles at 500 MHz = 42 ns = 1 + 41
  m.bandwidth_memory.access_bytes = 32;
  m.bandwidth_memory.line_bytes = 64;
  m.bandwidth_memory.queue = 32;            // MGPUSim: WithTransactionQueueSize(32)
  return m;
}

CtaScheduler::Params MultiGpu::Params::cta_defaults() {
  CtaScheduler::Params c;
  c.policy = "contiguous-groups";  // 004 Table 1: "partition"
  return c;
}

noc::BandwidthLink::Params MultiGpu::Params::link_defaults() {
  noc::BandwidthLink::Params l;
  l.bytes_per_cycle = 64;  // 004 Table 1: 64 GB/s at 1 GHz
  l.flit_bytes = 16;       // 004 Table 1
  l.latency = 70;          // MGPUSim: 140 cycles per switch, half on each GPU link of a same-pair message
  l.header_bytes = 8;
  l.rx_buffer_bytes = 65536;  // per class > 64 x (2 x 70 + 1) = 9 KB: full rate
  l.tx_queue = 16;
  l.classes = 2;           // requests and replies over one serializer (MGPUSim: one endpoint per GPU)
  return l;
}

noc::BandwidthLink::Params MultiGpu::Switch::uplink_defaults() {
  noc::BandwidthLink::Params l = Params::link_defaults();
  l.latency = 140;  // MGPUSim: 140 cycles per switch; a message between pairs crosses 3 switches
  return l;
}

noc::Router::Params MultiGpu::Switch::router_defaults() {
  noc::Router::Params r;
  r.vnets = 2;
  r.vcs_per_vnet = 2;
  r.vc_depth = 8;
  r.pipeline = 3;
  return r;
}

noc::NetworkInterface::Params MultiGpu::Switch::ni_defaults() {
  noc::NetworkInterface::Params n;
  n.flit_bytes = 80;  // a port moves one message (up to 80 B, a line reply in 16 B link flits) per cycle
  n.header_bytes = 8;
  n.inject_queue = 8;
  n.eject_queue = 8;
  return n;
}

MultiGpu::Params MultiGpu::checked(const Params& p, const McStageRegistry& stages) {
  const std::string w = "multi_gpu";
  validate(p, w);
  if (p.fabric.router.vnets != 2)
    error(w, "fabric.router.vnets must be 2 (requests on 0, replies on 1), got ", p.fabric.router.vnets);
  if (p.link.classes != 2)
    error(w, "link.classes must be 2 (class 0 requests, class 1 replies over one serializer), got ", p.link.classes);
  if (p.fabric.topology == "tree" && p.fabric.uplink.classes != 2)
    error(w, "fabric.uplink.classes must be 2 (class 0 requests, class 1 replies), got ", p.fabric.uplink.classes);
  if (p.gpus > 64) error(w, "gpus = ", p.gpus, ": the switch is a crossbar of at most 64 ports");
  if (p.page_map.page_bytes < p.interleave_bytes)
    error(w, "page_map.page_bytes (", p.page_map.page_bytes, ") must be at least interleave_bytes (", p.interleave_bytes,
          "): a page is interleaved over its GPU's partitions");
  if (p.cta.policy == "contiguous-groups" && p.sms == 0) error(w, "sms must be at least 1");
  const auto& d = p.dualopt;
  if (d.coalescing()) {
    if (p.l1.line_bytes / d.front.word_bytes != d.front.mshr.mask_bits)
      error(w, "dualopt.front.mshr.mask_bits (", d.front.mshr.mask_bits, ") must be the words of a ", p.l1.line_bytes,
            " B line (", p.l1.line_bytes / d.front.word_bytes, ")");
    if (p.l1.line_bytes > 128) error(w, "coalescing needs lines of at most 32 words of 4 B (MemExt::word_mask)");
    if (d.codec.data_bytes != d.front.transfer_bytes)
      error(w, "dualopt.codec.data_bytes (", d.codec.data_bytes, ") must equal the transfer unit the CUs ask for "
            "(dualopt.front.transfer_bytes = ", d.front.transfer_bytes, " B)");
  }
  if (p.migration.enabled && d.mode != "off")
    error(w, "migration.enabled with dualopt.mode = ", d.mode,
          ": the page-migration baseline and DUALOPT are separate configurations (one of them off)");
  if (d.caching() && d.rdma_cache.line_bytes != p.l1.line_bytes)
    error(w, "dualopt.rdma_cache.line_bytes (", d.rdma_cache.line_bytes, ") must equal l1.line_bytes (",
          p.l1.line_bytes, ")");
  if (d.caching() && d.rdma_cache.write_policy != "write-back")
    error(w, "dualopt.rdma_cache.write_policy must be write-back (004 Table 1)");
  Params q = p;
  q.mc = MemoryPartition::Params::with_stage_defaults(p.mc, stages, "mc");
  return q;
}

std::unique_ptr<FirstTouchPageMapper> MultiGpu::build_mapper() const {
  std::vector<std::vector<unsigned>> parts(p_.gpus);
  for (unsigned g = 0; g < p_.gpus; ++g)
    for (unsigned i = 0; i < p_.mcs; ++i) parts[g].push_back(g * p_.mcs + i);
  return std::make_unique<FirstTouchPageMapper>(parts, p_.page_map.page_bytes, p_.interleave_bytes,
                                                "multi_gpu.page_map");
}

void MultiGpu::distribute_pages(const Workload& w) {
  if (p_.page_map.kind == "first-touch") return;
  const uint64_t page = p_.page_map.page_bytes;
  const uint64_t G = p_.gpus;
  for (const ArrayRecord& a : w.address_space().arrays()) {
    if (a.bytes == 0) continue;
    const uint64_t first = a.base / page, n = (a.base + a.bytes - 1) / page - first + 1;
    if (p_.page_map.kind == "interleave") {
      for (uint64_t i = 0; i < n; ++i) mapper_->map((first + i) * page, static_cast<unsigned>((first + i) % G));
      continue;
    }
    if (p_.page_map.kind == "first-gpu") {  // MGPUSim's AllocateUnified: every page on the first GPU
      for (uint64_t i = 0; i < n; ++i) mapper_->map((first + i) * page, 0);
      continue;
    }
    // MGPUSim's distributor: n / G pages per GPU in GPU order, the rest on the last GPU used.
    const uint64_t per = n / G, use = per > 0 ? std::min(n / per, G) : 0;
    uint64_t i = 0;
    for (uint64_t g = 0; g < use; ++g)
      for (uint64_t k = 0; k < per; ++k, ++i) mapper_->map((first + i) * page, static_cast<unsigned>(g));
    const unsigned last = use > 0 ? static_cast<unsigned>(use - 1) : 0;
    for (; i < n; ++i) mapper_->map((first + i) * page, last);
  }
}

GpuBlock::Params MultiGpu::block_params() const {
  GpuBlock::Params b;
  b.sms = p_.sms;
  b.mcs = p_.mcs;
  b.network = p_.network;
  b.placement = p_.placement;
  b.boundary = true;
  b.boundary_nodes = p_.boundary_nodes;
  b.noc = p_.noc;
  b.sm = p_.sm;
  b.l1 = p_.l1;
  b.mc = p_.mc;
  if (p_.dualopt.coalescing()) {
    b.sm_front.stages = {"mask_mshr"};
    b.sm_front.stage_params = json::object();
    b.sm_front.stage_params["mask_mshr"] = params_to_json(p_.dualopt.front);
  }
  if (p_.migration.enabled) {
    b.sm_front.stages = {"page_fault"};
    b.sm_front.stage_params = json::object();
    b.sm_front.stage_params["page_fault"] = params_to_json(p_.migration.stage);
  }
  return b;
}

MultiGpu::MultiGpu(const Params& p, Workload& workload, const McStageRegistry& stages)
    : p_(checked(p, stages)),
      core_("core_clk", p.core_mhz),
      noc_clk_("noc_clk", p.noc_mhz),
      dram_clk_("dram_clk", p.dram_mhz),
      fabric_clk_("fabric_clk", p.fabric_mhz),
      switch_clk_("switch_clk", p.fabric.mhz > 0 ? p.fabric.mhz : p.fabric_mhz),
      mapper_(build_mapper()),
      gpus_("gpu"),
      links_("link"),
      uplinks_("uplink") {
  distribute_pages(workload);
  if (p_.dualopt.coalescing()) {
    const uint64_t gb4 = uint64_t{4} << 30;
    for (unsigned g = 0; g < p_.gpus; ++g) {
      multigpu::SelectiveCacheBypass::Params sp;
      sp.local_first = g * gb4;
      sp.local_last = (g + 1) * gb4 - 1;
      scbus_.push_back(std::make_unique<multigpu::SelectiveCacheBypass>(sp, "multi_gpu.scbu" + std::to_string(g)));
      if (p_.dualopt.mode == "coalescing") scbus_.back()->set_coalescing(true);
    }
    front_ = paper_sm_front_stages();
    multigpu::register_mask_mshr_stage(front_, [this](unsigned node) -> multigpu::MaskMshrStage::Bypass {
      const multigpu::SelectiveCacheBypass* s = scbus_.at(gpu_of_node(node)).get();
      return [this, s](const tlm::tlm_generic_payload& gp) {
        if (!s->coalescing() || !mapper_->placed(gp.get_address())) return false;
        return s->bypass(physical(gp.get_address()), gp.get_extension<MemExt>()->kind);
      };
    });
  }
  if (p_.migration.enabled) build_migration();
  const GpuBlock::Params bp = block_params();
  gpus_.init(p_.gpus, [&](const char* nm, size_t g) {
    GpuBlock::Context ctx{{core_, noc_clk_, dram_clk_}, *mapper_, ids_, stages, static_cast<unsigned>(g)};
    ctx.front = &front_;
    return new GpuBlock(nm, bp, ctx);
  });
  for (unsigned g = 0; g < p_.gpus; ++g)
    if (gpus_[g].first_partition() != g * p_.mcs || gpus_[g].base() != g * bp.nodes())
      error("multi_gpu", "GPU ", g, " was numbered out of order (first partition ", gpus_[g].first_partition(),
            ", base ", gpus_[g].base(), ")");
  build_dualopt();
  build_fabric();
  remote_lines_.resize(p_.gpus);
  for (unsigned g = 0; g < p_.gpus; ++g) observe(g);
  std::vector<GpuBlock*> blocks;
  for (auto& b : gpus_) blocks.push_back(&b);
  platform_ = std::make_unique<Platform>(core_, workload, blocks, p_.cta);
  if (!rdma_caches_.empty())
    platform_->add_kernel_boundary_listener([this](unsigned) {
      for (auto& c : rdma_caches_) c->request_flush();
    });
  add_summary();
}

void MultiGpu::build_migration() {
  multigpu::PageMigrationEngine::Hooks h;
  h.owner = [this](uint64_t addr) { return gpu_of_address(addr); };
  h.move = [this](uint64_t page_addr, unsigned to) { mapper_->move(page_addr, to); };
  h.flush = [this](unsigned g, uint64_t page_addr, bool page_only) {
    const uint64_t end = page_addr + p_.page_map.page_bytes;
    std::function<bool(uint64_t)> which;
    if (page_only) which = [page_addr, end](uint64_t line) { return line >= page_addr && line < end; };
    for (unsigned i = 0; i < p_.sms; ++i) gpus_[g].sm(i).l1().invalidate(which);
    for (unsigned i = 0; i < p_.mcs; ++i) gpus_[g].mc(i).l2().invalidate(which);
  };
  h.flushed = [this](unsigned g) {
    for (unsigned i = 0; i < p_.mcs; ++i)
      if (!gpus_[g].mc(i).idle()) return false;
    return true;
  };
  migration_ = std::make_unique<multigpu::PageMigrationEngine>("page_migration", p_.migration.engine, p_.gpus,
                                                               p_.page_map.page_bytes, core_, std::move(h));
  front_ = paper_sm_front_stages();
  multigpu::register_page_fault_stage(front_, [this](unsigned node) {
    multigpu::PageFaultStage::Context c;
    c.engine = migration_.get();
    c.gpu = gpu_of_node(node);
    c.owner = [this](uint64_t addr) { return gpu_of_address(addr); };
    c.route = [this](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.dst = ids_.partition_node(mapper_->partition(gp.get_address()), "multi_gpu.page_fault");
    };
    return c;
  });
}

uint64_t MultiGpu::physical(uint64_t addr) const {
  return (uint64_t{gpu_of_address(addr)} << 32) | (addr & 0xffffffffull);
}

void MultiGpu::build_dualopt() {
  const auto& d = p_.dualopt;
  for (unsigned g = 0; g < p_.gpus; ++g) {
    const std::string n = std::to_string(g);
    if (d.coalescing()) {
      multigpu::RdmaWordSelector::Params wp;
      wp.line_bytes = p_.l1.line_bytes;
      wp.word_bytes = d.front.word_bytes;
      selectors_.push_back(std::make_unique<multigpu::RdmaWordSelector>(("word_selector" + n).c_str(), wp));
      multigpu::RdmaCoalescer::Params cp = d.codec;
      cp.gpus = p_.gpus;
      cp.self = g;
      coalescers_.push_back(std::make_unique<multigpu::RdmaCoalescer>(("rdma_coalescer" + n).c_str(), cp, fabric_clk_));
      coalescers_.back()->set_gpu_of([this](unsigned node) { return gpu_of_node(node); });
      selectors_.back()->out.bind(coalescers_.back()->in);
      decoalescers_.push_back(
          std::make_unique<multigpu::RdmaDecoalescer>(("rdma_decoalescer" + n).c_str(), d.decoalescer, fabric_clk_));
    }
    if (d.caching()) {
      rdma_caches_.push_back(
          std::make_unique<multigpu::RdmaCache>(("rdma_cache" + n).c_str(), d.rdma_cache, core_,
                                                gpus_[g].boundary_ids()));
      rdma_caches_.back()->set_route([this](tlm::tlm_generic_payload& gp, MemExt& e) {
        e.dst = ids_.partition_node(mapper_->partition(gp.get_address()), "multi_gpu.rdma_cache");
      });
      if (d.mode == "caching") rdma_caches_.back()->set_enabled(true);
    }
  }
  if (d.mode == "dualopt") {
    engine_ = std::make_unique<multigpu::DecisionEngine>("decision_engine", d.engine);
    engine_->on_decision([this](multigpu::DecisionEngine::Mode m) { apply(m); });
    for (unsigned g = 0; g < p_.gpus; ++g)
      for (unsigned i = 0; i < p_.sms; ++i)
        gpus_[g].sm(i).l1().on_evict([this, id = g * p_.sms + i](uint64_t line, bool) {
          if (engine_->mode() == multigpu::DecisionEngine::Mode::Undecided) engine_->observe_eviction(id, line);
        });
  }
}

void MultiGpu::apply(multigpu::DecisionEngine::Mode m) {
  if (m == multigpu::DecisionEngine::Mode::Coalescing)
    for (auto& s : scbus_) s->set_coalescing(true);
  if (m == multigpu::DecisionEngine::Mode::Caching)
    for (auto& c : rdma_caches_) c->set_enabled(true);
}

std::unique_ptr<noc::Network> MultiGpu::make_switch(const std::string& name, unsigned ports,
                                                     const std::vector<unsigned>& port_of_gpu) {
  noc::Network::Params sp;
  sp.topology = "crossbar";
  sp.k = ports;
  sp.router = p_.fabric.router;
  sp.ni = p_.fabric.ni;
  sp.link_latency = p_.fabric.link_latency;
  sp.credit_latency = p_.fabric.credit_latency;
  auto sw = std::make_unique<noc::Network>(name.c_str(), sp, switch_clk_);
  noc::NodeMap to_port;
  const unsigned per_gpu = block_params().nodes();
  for (unsigned g = 0; g < p_.gpus; ++g) to_port.node.insert(to_port.node.end(), per_gpu, port_of_gpu[g]);
  sw->set_node_map(to_port);
  return sw;
}

void MultiGpu::build_fabric() {
  const unsigned G = p_.gpus;
  links_.init(G, [&](const char* nm, size_t) { return new noc::BandwidthLink(nm, p_.link, fabric_clk_); });
  // Switch ports: where GPU g's link ends, and (tree) the pair switches' uplinks.
  std::vector<std::pair<noc::Network*, unsigned>> gpu_port(G);
  if (p_.fabric.topology == "star") {
    std::vector<unsigned> port(G);
    for (unsigned g = 0; g < G; ++g) port[g] = g;
    switches_.push_back(make_switch("switch", G, port));
    for (unsigned g = 0; g < G; ++g) gpu_port[g] = {switches_[0].get(), g};
  } else {
    const unsigned pairs = (G + 1) / 2;
    for (unsigned q = 0; q < pairs; ++q) {
      const unsigned in_pair = std::min(2u, G - 2 * q), up = pairs > 1 ? in_pair : ~0u;
      std::vector<unsigned> port(G, up);
      for (unsigned i = 0; i < in_pair; ++i) port[2 * q + i] = i;
      switches_.push_back(make_switch("pair_switch_" + std::to_string(q), in_pair + (pairs > 1 ? 1 : 0), port));
      for (unsigned i = 0; i < in_pair; ++i) gpu_port[2 * q + i] = {switches_.back().get(), i};
    }
    if (pairs > 1) {
      std::vector<unsigned> port(G);
      for (unsigned g = 0; g < G; ++g) port[g] = g / 2;
      switches_.push_back(make_switch("root_switch", pairs, port));
      noc::Network& root = *switches_.back();
      uplinks_.init(pairs, [&](const char* nm, size_t) { return new noc::BandwidthLink(nm, p_.fabric.uplink, fabric_clk_); });
      for (unsigned q = 0; q < pairs; ++q) {
        noc::Network& sw = *switches_[q];
        const unsigned up = std::min(2u, G - 2 * q);
        for (unsigned c : {kRequestClass, kReplyClass}) {
          sw.ni(up).out[c].bind(uplinks_[q].in(noc::BandwidthLink::kSideA, c));
          uplinks_[q].out(noc::BandwidthLink::kSideA, c).bind(sw.ni(up).in[c]);
          root.ni(q).out[c].bind(uplinks_[q].in(noc::BandwidthLink::kSideB, c));
          uplinks_[q].out(noc::BandwidthLink::kSideB, c).bind(root.ni(q).in[c]);
        }
      }
    }
  }
  using noc::BandwidthLink;
  for (unsigned g = 0; g < G; ++g) {
    BandwidthLink& l = links_[g];
    MsgIn& req_in = l.in(BandwidthLink::kSideA, kRequestClass);
    MsgIn& rep_in = l.in(BandwidthLink::kSideA, kReplyClass);
    // Requests: GPU -> [RDMA cache] -> link; link -> GPU.
    gpus_[g].out(GpuBlock::kRequest).bind(wire_request_exit(g));
    if (!rdma_caches_.empty()) rdma_caches_[g]->down_out().bind(req_in);
    l.out(BandwidthLink::kSideA, kRequestClass).bind(gpus_[g].in(GpuBlock::kRequest));
    // Replies: GPU -> [word selector -> coalescer] -> link; link -> [de-coalescer] -> [RDMA cache] -> GPU.
    if (!selectors_.empty()) {
      gpus_[g].out(GpuBlock::kReply).bind(selectors_[g]->in);
      coalescers_[g]->out.bind(rep_in);
    } else {
      gpus_[g].out(GpuBlock::kReply).bind(rep_in);
    }
    MsgIn& into = !rdma_caches_.empty() ? rdma_caches_[g]->down_in() : gpus_[g].in(GpuBlock::kReply);
    if (!rdma_caches_.empty()) rdma_caches_[g]->up_out.bind(gpus_[g].in(GpuBlock::kReply));
    MsgOut& rep_out = l.out(BandwidthLink::kSideA, kReplyClass);
    if (!decoalescers_.empty()) {
      rep_out.bind(decoalescers_[g]->in);
      decoalescers_[g]->out.bind(into);
    } else {
      rep_out.bind(into);
    }
    auto [sw, port] = gpu_port[g];
    for (unsigned c : {kRequestClass, kReplyClass}) {
      l.out(BandwidthLink::kSideB, c).bind(sw->ni(port).in[c]);
      sw->ni(port).out[c].bind(l.in(BandwidthLink::kSideB, c));
    }
  }
}

bool MultiGpu::fabric_drained() const {
  for (const auto& sw : switches_)
    if (sw->packets_in_flight() != 0) return false;
  for (const auto& l : links_)
    if (l.in_flight(noc::BandwidthLink::kAtoB) || l.in_flight(noc::BandwidthLink::kBtoA)) return false;
  for (const auto& l : uplinks_)
    if (l.in_flight(noc::BandwidthLink::kAtoB) || l.in_flight(noc::BandwidthLink::kBtoA)) return false;
  return true;
}

MsgIn& MultiGpu::wire_request_exit(unsigned g) {
  return rdma_caches_.empty() ? links_[g].in(noc::BandwidthLink::kSideA, kRequestClass) : rdma_caches_[g]->up_in();
}

unsigned MultiGpu::gpu_of_node(unsigned node) const {
  return ids_.block_of(node, "multi_gpu");  // GPU g is block g (checked at construction)
}

unsigned MultiGpu::gpu_of_address(uint64_t addr) const {
  return mapper_->block_of_partition(mapper_->partition(addr));
}

void MultiGpu::observe(unsigned g) {
  GpuBlock::Observers o;
  o.sm_request = [this, g](unsigned sm, const tlm::tlm_generic_payload& gp) {
    ++count_.l1_accesses;
    const bool remote = mapper_->placed(gp.get_address()) && gpu_of_address(gp.get_address()) != g;
    if (remote) ++count_.l1_remote;
    if (engine_ && engine_->mode() == multigpu::DecisionEngine::Mode::Undecided) {
      const MemExt& e = *gp.get_extension<MemExt>();
      const uint64_t line = gp.get_address() & ~uint64_t(p_.l1.line_bytes - 1);
      multigpu::DecisionEngine::Access a;
      a.cache = g * p_.sms + sm;
      a.line = line;
      a.read = e.kind == MemKind::Read;
      a.word_mask = e.word_mask;
      a.remote = remote;
      a.hit = a.read && gpus_[g].sm(sm).l1().present(line);  // the tag the lookup will find
      engine_->observe(a);
    }
    if (obs_.sm_request) obs_.sm_request(g, sm, gp);
  };
  o.sm_reply = [this, g](unsigned sm, const tlm::tlm_generic_payload& gp) {
    const MemExt& e = *gp.get_extension<MemExt>();
    if (e.kind == MemKind::Read && mapper_->placed(gp.get_address()) && gpu_of_address(gp.get_address()) != g) {
      ++count_.remote_answered;
      count_.remote_latency += static_cast<double>((sc_core::sc_time_stamp() - e.t_issue).value()) /
                               static_cast<double>(core_.period().value());
    }
    if (obs_.sm_reply) obs_.sm_reply(g, sm, gp);
  };
  o.injected = [this, g](unsigned node, const tlm::tlm_generic_payload& gp) {
    const MemExt* e = gp.get_extension<MemExt>();
    if (e && !e->is_reply) {  // a request injected at an SM node: it left an L1 for memory
      ++count_.requests;
      if (gpu_of_node(e->dst) != g) {
        ++count_.remote_requests;
        if (e->kind == MemKind::Read) {
          ++count_.remote_reads;
          remote_lines_[g].insert(gp.get_address() / p_.l1.line_bytes);
        }
      }
    }
    if (obs_.injected) obs_.injected(g, node, gp);
  };
  gpus_[g].set_observers(std::move(o));
}

void MultiGpu::add_summary() {
  platform_->add_summary([this](json& s) {
    using noc::BandwidthLink;
    uint64_t req_out = 0, req_in = 0, rep_out = 0, rep_in = 0;
    double util_max = 0;
    const double cycles =
        std::max(1.0, static_cast<double>(fabric_clk_.cycle_of(core_.time_of(platform_->cycles()))));
    for (unsigned g = 0; g < p_.gpus; ++g) {
      req_out += links_[g].bytes(BandwidthLink::kAtoB, kRequestClass);
      req_in += links_[g].bytes(BandwidthLink::kBtoA, kRequestClass);
      rep_out += links_[g].bytes(BandwidthLink::kAtoB, kReplyClass);
      rep_in += links_[g].bytes(BandwidthLink::kBtoA, kReplyClass);
      for (auto d : {BandwidthLink::kAtoB, BandwidthLink::kBtoA})
        util_max = std::max(util_max, static_cast<double>(links_[g].bytes(d)) / (cycles * p_.link.bytes_per_cycle));
    }
    double up_max = 0;
    for (unsigned q = 0; q < uplinks_.size(); ++q)
      for (auto d : {BandwidthLink::kAtoB, BandwidthLink::kBtoA})
        up_max = std::max(up_max, static_cast<double>(uplinks_[q].bytes(d)) / (cycles * p_.fabric.uplink.bytes_per_cycle));
    s["gpus"] = p_.gpus;
    s["l1_remote_access_ratio"] = count_.l1_accesses ? double(count_.l1_remote) / double(count_.l1_accesses) : 0.0;
    s["remote_request_ratio"] = count_.requests ? double(count_.remote_requests) / double(count_.requests) : 0.0;
    s["remote_requests"] = count_.remote_requests;
    s["remote_reads"] = count_.remote_reads;
    uint64_t lines_max = 0, lines_sum = 0;
    for (const auto& l : remote_lines_) lines_max = std::max<uint64_t>(lines_max, l.size()), lines_sum += l.size();
    s["remote_footprint_bytes_max"] = lines_max * p_.l1.line_bytes;  // distinct remote lines an L1 fetched, busiest GPU
    s["remote_footprint_bytes_mean"] = lines_sum * p_.l1.line_bytes / p_.gpus;
    s["fabric_request_bytes_gpu_to_switch"] = req_out;
    s["fabric_request_bytes_switch_to_gpu"] = req_in;
    s["fabric_reply_bytes_gpu_to_switch"] = rep_out;
    s["fabric_reply_bytes_switch_to_gpu"] = rep_in;
    s["fabric_bytes"] = req_out + rep_out;  // inter-GPU bytes, each message counted once
    s["fabric_link_util_max"] = util_max;  // GPU links, both classes, busiest direction
    if (uplinks_.size() > 0) s["fabric_uplink_util_max"] = up_max;
    s["remote_read_latency"] = remote_read_latency();
    s["dualopt_mode"] = p_.dualopt.mode;
    if (engine_) {
      s["dualopt_decision"] = multigpu::to_string(engine_->mode());
      const auto& w = engine_->window();
      s["dualopt_window_remote_ratio"] = w.remote_ratio();
      s["dualopt_window_block_use"] = w.block_use(engine_->params().words_per_line);
      s["dualopt_window_remote_hit_rate"] = w.hit_rate();
    }
    if (!coalescers_.empty()) {
      uint64_t packets = 0, responses = 0;
      for (auto& c : coalescers_) packets += c->packets(), responses += c->responses();
      s["codec_packets"] = packets;
      s["codec_responses"] = responses;
    }
    if (migration_) {
      s["pm_faults"] = migration_->faults();
      s["pm_migrations"] = migration_->migrations();
      s["pm_pages_moved"] = mapper_->moves();
      s["pm_busy_ratio"] = static_cast<double>(migration_->busy_cycles()) / std::max<uint64_t>(1, platform_->cycles());
    }
    if (!rdma_caches_.empty()) {
      uint64_t reads = 0, fetches = 0;
      for (auto& c : rdma_caches_) reads += c->reads(), fetches += c->read_fetches();
      s["rdma_cache_reads"] = reads;
      s["rdma_cache_served_ratio"] = reads ? double(reads - fetches) / double(reads) : 0.0;
    }
  });
}

}  // namespace gpusc
