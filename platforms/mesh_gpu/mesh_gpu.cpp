#include "platforms/mesh_gpu/mesh_gpu.h"

#include <algorithm>

#include "common/contiguous_split.h"
#include "common/report.h"
#include "noc/mesh_placement.h"

namespace gpusc {

namespace {

// Closes the NI ports a node does not use (an SM never receives requests, an MC never sends
// them); a message arriving there is a routing error.
struct UnusedPort : sc_core::sc_module {
  MsgIn in{"in"};
  MsgOut out{"out"};
  explicit UnusedPort(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) -> bool {
      error(name(), "a message for address 0x", std::hex, gp.get_address(), " reached a node that cannot take it");
    });
  }
};

MeshGpu::Params with_stage_defaults(MeshGpu::Params p, const McStageRegistry& stages) {
  p.mc = MemoryPartition::Params::with_stage_defaults(p.mc, stages, "mc");
  return p;
}

double cycles_between(const sc_core::sc_time& a, const sc_core::sc_time& b, const ClockDomain& clk) {
  return (b - a) / clk.period();
}

}  // namespace

void MeshGpu::close_unused(MsgOut& never_sends, MsgIn& never_receives) {
  auto* u = new UnusedPort(sc_core::sc_gen_unique_name("unused_port"));
  unused_.emplace_back(u);
  never_sends.bind(u->in);
  u->out.bind(never_receives);
}

noc::Network::Params MeshGpu::Params::noc_defaults() {
  noc::Network::Params n;  // paper 001 Table 1: 8x8 mesh, 4 VCs per port, 8-flit buffers, 128-bit channels
  n.topology = "mesh";
  n.k = 8;
  n.m = 8;
  n.routing = "xy-xy";
  n.router.vnets = 2;
  n.router.vcs_per_vnet = 2;
  n.router.vc_depth = 9;  // a 9-flit multicast reply must fit in one VC (router.cpp, deadlock freedom)
  n.router.pipeline = 3;
  n.ni.flit_bytes = 16;
  n.ni.header_bytes = 8;
  return n;
}

Cache::Params MeshGpu::Params::l1_defaults() {
  Cache::Params c;  // 16 KB, 4-way, 128 B lines (paper 000 Table II, paper 001 Table 1)
  c.line_bytes = 128;
  c.sets = 32;
  c.ways = 4;
  c.hit_latency = 1;
  c.write_policy = "write-through";
  return c;
}

std::unique_ptr<AddressMapper> MeshGpu::build_mapper(const Params& p, const std::string& where) {
  validate(p, where);
  if (p.blocks > p.sms)
    error(where, "blocks = ", p.blocks, " but sms = ", p.sms, ": every block needs at least one SM");
  if (p.address_map.kind == "first-touch" && p.blocks > p.mcs)
    error(where, "address_map.kind = first-touch with blocks = ", p.blocks, " needs at least one MC per block, but mcs = ",
          p.mcs);
  const ContiguousSplit split(p.mcs, p.blocks);
  std::vector<std::vector<unsigned>> mcs_of_block(p.blocks);
  for (unsigned b = 0; b < p.blocks; ++b)
    for (unsigned i = split.begin(b); i < split.end(b); ++i) mcs_of_block[b].push_back(i);
  return make_address_mapper(p.address_map, p.interleave_bytes, mcs_of_block, where + ".address_map");
}

MeshGpu::MeshGpu(sc_core::sc_module_name name, const Params& p, Workload& workload, const McStageRegistry& stages)
    : sc_core::sc_module(name),
      p_(with_stage_defaults(p, stages)),
      workload_(workload),
      core_("core_clk", p.core_mhz),
      noc_clk_("noc_clk", p.noc_mhz),
      dram_clk_("dram_clk", p.dram_mhz),
      mapper_(build_mapper(p, this->name())),
      map_(*mapper_),
      sms_("sm"),
      l1s_("l1"),
      mcs_("mc"),
      amat_(stats_.average("amat", Unit::Cycles, "load line requests: SM issue to reply at the SM [core cycles]")),
      mem_lat_(stats_.average("memory_latency", Unit::Cycles,
                              "L1 miss: MC takes the request until its reply is handed to the NI [core cycles]")),
      rep_lat_(stats_.average("reply_latency", Unit::Cycles,
                              "L1 miss: reply handed to the NI until the L1 takes it [core cycles]")),
      reply_bytes_(stats_.counter("reply_data_bytes", Unit::Bytes, "read/atomic reply data delivered to L1s")),
      reply_packets_in_(stats_.counter("reply_messages_injected", Unit::Count, "replies handed to MC NIs")),
      request_packets_in_(stats_.counter("request_messages_injected", Unit::Count, "requests handed to SM NIs")) {
  place_nodes();
  const ContiguousSplit sm_split(p_.sms, p_.blocks);
  for (unsigned i = 0; i < p_.sms; ++i) block_of_sm_.push_back(sm_split.group_of(i));
  build_networks();
  sms_.init(p_.sms, [&](const char* nm, size_t i) { return new SmCore(nm, p_.sm, core_, sm_nodes_[i]); });
  l1s_.init(p_.sms, [&](const char* nm, size_t i) { return new Cache(nm, p_.l1, core_, sm_nodes_[i]); });
  mcs_.init(p_.mcs, [&](const char* nm, size_t i) {
    return new MemoryPartition(nm, p_.mc, core_, dram_clk_, mc_nodes_[i], map_, stages);
  });
  for (unsigned i = 0; i < p_.sms; ++i) wire_sm(i);
  for (unsigned i = 0; i < p_.mcs; ++i) wire_mc(i);

  std::vector<SmCore*> cores;
  for (auto& s : sms_) cores.push_back(&s);
  cta_ = std::make_unique<CtaScheduler>("cta", p_.cta, core_, workload_, cores, block_of_sm_);
  cta_->set_on_kernel_boundary([this](unsigned) {
    for (auto& l1 : l1s_) l1.flush();  // L1s are not coherent: invalidate between kernels
  });
}

void MeshGpu::place_nodes() {
  const auto& n = p_.noc;
  const unsigned nodes = p_.sms + p_.mcs;
  if (n.topology == "mesh") {
    if (n.k * n.m != nodes)
      error(name(), "a ", n.k, "x", n.m, " mesh has ", n.k * n.m, " nodes but sms + mcs = ", nodes,
            "; every node hosts one SM or one MC");
    mc_nodes_ = noc::mc_placement(n.k, n.m, p_.mcs, p_.placement);
  } else if (n.topology == "crossbar") {
    if (n.k != nodes) error(name(), "a crossbar of ", n.k, " ports cannot connect sms + mcs = ", nodes, " nodes");
    for (unsigned i = 0; i < p_.mcs; ++i) mc_nodes_.push_back(p_.sms + i);
  } else {
    error(name(), "noc.topology '", n.topology, "' is not supported by the mesh GPU (use mesh or crossbar)");
  }
  mc_of_node_.assign(nodes, ~0u);
  for (unsigned i = 0; i < p_.mcs; ++i) mc_of_node_[mc_nodes_[i]] = i;
  for (unsigned node = 0; node < nodes; ++node)
    if (mc_of_node_[node] == ~0u) sm_nodes_.push_back(node);
}

void MeshGpu::build_networks() {
  noc::Network::Params np = p_.noc;
  if (p_.network == "vnets") {
    if (np.router.vnets != 2)
      error(name(), "network=vnets needs noc.router.vnets = 2 (requests and replies), got ", np.router.vnets);
    req_net_ = std::make_unique<noc::Network>("noc", np, noc_clk_);
  } else {
    if (np.router.vnets != 1)
      error(name(), "network=separate needs noc.router.vnets = 1 (one class per physical network), got ",
            np.router.vnets);
    const auto r = np.routing;
    const auto dash = r.find('-');
    noc::Network::Params rp = np;
    np.routing = r.substr(0, dash);
    rp.routing = dash == std::string::npos ? r : r.substr(dash + 1);
    req_net_ = std::make_unique<noc::Network>("req_noc", np, noc_clk_);
    rep_net_ = std::make_unique<noc::Network>("reply_noc", rp, noc_clk_);
  }
}

void MeshGpu::wire_sm(unsigned i) {
  const unsigned node = sm_nodes_[i];
  SmCore& sm = sms_[i];
  Cache& l1 = l1s_[i];
  sm.mem_out.bind(l1.up_in);
  l1.up_out.bind(sm.mem_in);
  l1.down_out.bind(req_ni(node).in[req_vnet()]);
  rep_ni(node).out[rep_vnet()].bind(l1.down_in);
  // The requester's route is where first touch is reported: the block of the SM behind this L1.
  l1.set_route([this, block = block_of_sm_[i]](tlm::tlm_generic_payload& gp, MemExt& e) {
    e.dst = mc_nodes_[mapper_->map(gp.get_address(), block).partition];
  });

  close_unused(req_ni(node).out[req_vnet()], rep_ni(node).in[rep_vnet()]);  // SMs take no requests, send no replies

  req_ni(node).in[req_vnet()].set_tap([this, node](tlm::tlm_generic_payload& gp) {
    ++request_packets_in_;
    if (obs_.injected) obs_.injected(node, gp);
  });
  l1.up_in.set_tap([this, i](tlm::tlm_generic_payload& gp) {
    if (obs_.sm_request) obs_.sm_request(i, gp);
  });
  l1.down_in.set_tap([this, node](tlm::tlm_generic_payload& gp) {
    const MemExt& e = mem_ext(gp, "gpu.l1");
    if (e.kind != MemKind::Read && e.kind != MemKind::Atomic) return;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    // From when the MC took this SM's own request (a merged reply carries each one's stamps).
    mem_lat_.add(cycles_between(e.stamps_of(node).t_mem_accept, e.t_reply_inject, core_));
    rep_lat_.add(cycles_between(e.t_reply_inject, now, core_));
    reply_bytes_ += gp.get_data_length();
  });
  sm.mem_in.set_tap([this, i](tlm::tlm_generic_payload& gp) {
    const MemExt& e = mem_ext(gp, "gpu.sm");
    if (e.kind == MemKind::Read) amat_.add(cycles_between(e.t_issue, sc_core::sc_time_stamp(), core_));
    if (obs_.sm_reply) obs_.sm_reply(i, gp);
  });
}

void MeshGpu::wire_mc(unsigned i) {
  const unsigned node = mc_nodes_[i];
  MemoryPartition& mc = mcs_[i];
  req_ni(node).out[req_vnet()].bind(mc.in());
  mc.out().bind(rep_ni(node).in[rep_vnet()]);
  close_unused(rep_ni(node).out[rep_vnet()], req_ni(node).in[req_vnet()]);  // MCs take no replies, send no requests
  rep_ni(node).in[rep_vnet()].set_tap([this, node](tlm::tlm_generic_payload& gp) {
    mem_ext(gp, "gpu.reply_ni").t_reply_inject = sc_core::sc_time_stamp();
    ++reply_packets_in_;
    if (obs_.injected) obs_.injected(node, gp);
  });
}

}  // namespace gpusc

namespace gpusc {

bool MeshGpu::run(uint64_t max_cycles) {
  // Event-driven: once the workload is done and every write ack is back, nothing is scheduled
  // and sc_start returns on its own.
  sc_core::sc_start(core_.time_of(max_cycles), sc_core::SC_EXIT_ON_STARVATION);
  finish_cycle_ = cta_->done() ? cta_->finish_cycle() : core_.now();
  return cta_->done();
}

json MeshGpu::mechanism_summary() const {
  json s = json::object();
  std::vector<const MemoryPartition*> partitions;
  for (const auto& mc : mcs_) partitions.push_back(&mc);
  MemoryPartition::summarize_stages(s, partitions);
  return s;
}

json MeshGpu::summary() const {
  const json all = collect_stats();
  const json& v = all.at("stats");
  auto get = [&](const std::string& key) -> double {
    const auto it = v.find(key);
    if (it == v.end()) error(name(), "summary: statistic '", key, "' not found");
    return it->get<double>();
  };
  auto sum = [&](const sc_core::sc_vector_base& units, const std::string& suffix) {
    double s = 0;
    for (const sc_core::sc_object* u : units.get_elements()) s += get(std::string(u->name()) + suffix);
    return s;
  };
  const double cycles = static_cast<double>(std::max<uint64_t>(finish_cycle_, 1));

  json s;
  s["cycles"] = finish_cycle_;
  const double thread_instr = sum(sms_, ".thread_instructions");
  s["thread_instructions"] = thread_instr;
  s["warp_instructions"] = sum(sms_, ".warp_instructions");
  s["ipc"] = thread_instr / cycles;
  s["amat"] = amat_.mean();
  double req_sum = 0, req_n = 0;
  for (const auto& mc : mcs_) {
    req_sum += mc.request_latency().sum();
    req_n += static_cast<double>(mc.request_latency().samples());
  }
  const double req_lat = req_n > 0 ? req_sum / req_n : 0.0;
  s["request_latency"] = req_lat;
  s["memory_latency"] = mem_lat_.mean();
  s["reply_latency"] = rep_lat_.mean();
  s["l1_miss_penalty"] = req_lat + mem_lat_.mean() + rep_lat_.mean();
  const double l1_reads = sum(l1s_, ".reads");
  s["l1_hit_rate"] = l1_reads > 0 ? sum(l1s_, ".read_hits") / l1_reads : 0.0;
  double l2_reads = 0, l2_hits = 0, stall = 0;
  for (const auto& mc : mcs_) {
    l2_reads += get(std::string(mc.name()) + ".l2.reads");
    l2_hits += get(std::string(mc.name()) + ".l2.read_hits");
    stall += static_cast<double>(mc.mc_stall_cycles());
  }
  s["l2_hit_rate"] = l2_reads > 0 ? l2_hits / l2_reads : 0.0;
  s["mc_stall_ratio"] = stall / (cycles * p_.mcs);
  s["reply_bytes_per_core_cycle"] = static_cast<double>(reply_bytes_.value()) / (cycles * p_.sms);

  // Packets each network injected (all NIs), and link utilization of router-to-router links.
  const double noc_cycles = std::max(1.0, static_cast<double>(noc_clk_.cycle_of(core_.time_of(finish_cycle_))));
  auto net_figures = [&](const noc::Network& net, const char* tag) {
    double util_max = 0, util_sum = 0;
    unsigned n = 0;
    for (const noc::FlitLink& l : net.links()) {
      if (!dynamic_cast<const noc::Router*>(l.up) || !dynamic_cast<const noc::Router*>(l.down)) continue;
      const double u = static_cast<double>(l.flits) / noc_cycles;
      util_max = std::max(util_max, u);
      util_sum += u;
      ++n;
    }
    s[std::string("link_util_max_") + tag] = util_max;
    s[std::string("link_util_mean_") + tag] = n ? util_sum / n : 0.0;
    return std::make_pair(util_max, n ? util_sum / n : 0.0);
  };
  s["request_packets"] = request_packets_in_.value();
  s["reply_packets"] = reply_packets_in_.value();
  if (rep_net_) {
    const auto a = net_figures(*req_net_, "request");
    const auto b = net_figures(*rep_net_, "reply");
    s["link_util_max"] = std::max(a.first, b.first);
    s["link_util_mean"] = (a.second + b.second) / 2;
  } else {
    const auto a = net_figures(*req_net_, "all");
    s["link_util_max"] = a.first;
    s["link_util_mean"] = a.second;
  }
  s["flit_hops"] = req_net_->flit_hops() + (rep_net_ ? rep_net_->flit_hops() : 0);

  json loc = json::object();
  for (size_t w = 0; w < p_.mc.locality.windows.size(); ++w) {
    double shared = 0, reads = 0;
    for (const auto& mc : mcs_) {
      shared += static_cast<double>(mc.locality().shared_accesses(w));
      reads += static_cast<double>(mc.locality().reads());
    }
    loc[std::to_string(p_.mc.locality.windows[w])] = reads > 0 ? shared / reads : 0.0;
  }
  s["locality_ratio"] = loc;
  s.update(mechanism_summary());
  s["invariant_failures"] = all.at("invariant_failures");
  return s;
}

}  // namespace gpusc
