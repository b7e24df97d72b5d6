#include "gpu/gpu_block.h"

#include "common/report.h"
#include "noc/mesh_placement.h"

namespace gpusc {

namespace {

// Close the NI ports a node does not use (an SM never receives requests, an MC never sends
// them, no node but a boundary injects on the inbound virtual networks): a message arriving at
// a closed output is a routing error; a closed input never sends.
struct ClosedSink : sc_core::sc_module {
  MsgIn in{"in"};
  explicit ClosedSink(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) -> bool {
      error(name(), "a message for address 0x", std::hex, gp.get_address(), " reached a node that cannot take it");
    });
  }
};
struct ClosedSource : sc_core::sc_module {
  MsgOut out{"out"};
  explicit ClosedSource(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

double cycles_between(const sc_core::sc_time& a, const sc_core::sc_time& b, const ClockDomain& clk) {
  return (b - a) / clk.period();
}

}  // namespace

noc::Network::Params GpuBlock::Params::noc_defaults() {
  noc::Network::Params n;  // paper 001 Table 1: 8x8 mesh, 4 VCs per port, 8-flit buffers, 128-bit channels
  n.topology = "mesh";
  n.k = 8;
  n.m = 8;
  n.routing = "";  // xy on both virtual networks (empty: each topology's own routing)
  n.router.vnets = 2;
  n.router.vcs_per_vnet = 2;
  n.router.vc_depth = 9;  // a 9-flit multicast reply must fit in one VC (router.cpp, deadlock freedom)
  n.router.pipeline = 3;
  n.ni.flit_bytes = 16;
  n.ni.header_bytes = 8;
  return n;
}

Cache::Params GpuBlock::Params::l1_defaults() {
  Cache::Params c;  // 16 KB, 4-way, 128 B lines (paper 000 Table II, paper 001 Table 1)
  c.line_bytes = 128;
  c.sets = 32;
  c.ways = 4;
  c.hit_latency = 1;
  c.write_policy = "write-through";
  return c;
}

GpuBlock::Params GpuBlock::checked(const Params& p, const McStageRegistry& stages, const SmFrontRegistry* front,
                                   const std::string& where) {
  validate(p, where);
  Params q = p;
  q.mc = MemoryPartition::Params::with_stage_defaults(p.mc, stages, "mc");
  q.sm_front = SmFrontParams::with_defaults(p.sm_front, front ? *front : SmFrontRegistry{}, "sm_front");
  return q;
}

void GpuBlock::build_front_shared(const SmFrontRegistry& front) {
  std::vector<unsigned> ids;
  for (unsigned n : sm_nodes_) ids.push_back(base_ + n);
  const SmFrontBlockContext ctx{clocks_.core, ids, base_, *req_net_, reply_net(), req_vnet(), rep_vnet(), ids_};
  for (const std::string& s : p_.sm_front.stages) {
    const SmFrontRegistry::Entry& e = front.at(s, "sm_front.stages");
    if (e.shared) front_shared_[s] = e.shared(p_.sm_front.stage_params.at(s), ctx);
  }
}

GpuBlock::GpuBlock(sc_core::sc_module_name name, const Params& p, Context ctx)
    : sc_core::sc_module(name),
      p_(checked(p, ctx.stages, ctx.front, this->name())),
      clocks_(ctx.clocks),
      mapper_(ctx.mapper),
      ids_(ctx.ids),
      map_(ctx.mapper),
      sms_("sm"),
      mcs_("mc"),
      amat_(stats_.average("amat", Unit::Cycles, "load line requests: SM issue to reply at the SM [core cycles]")),
      mem_lat_(stats_.average("memory_latency", Unit::Cycles,
                              "L1 miss: MC takes the request until its reply is handed to the NI [core cycles]")),
      rep_lat_(stats_.average("reply_latency", Unit::Cycles,
                              "L1 miss: reply handed to the NI until the L1 takes it [core cycles]")),
      reply_bytes_(stats_.counter("reply_data_bytes", Unit::Bytes, "read/atomic reply data delivered to L1s")),
      reply_packets_in_(stats_.counter("reply_messages_injected", Unit::Count, "replies handed to MC NIs")),
      request_packets_in_(stats_.counter("request_messages_injected", Unit::Count, "requests handed to SM NIs")) {
  if (p_.sm.line_bytes != p_.l1.line_bytes || p_.l1.line_bytes != p_.mc.l2.line_bytes)
    error(this->name(), "sm.line_bytes (", p_.sm.line_bytes, "), l1.line_bytes (", p_.l1.line_bytes,
          ") and mc.l2.line_bytes (", p_.mc.l2.line_bytes, ") must be equal: a request is one line at every level");
  if (!ctx.sm_groups.empty() && ctx.sm_groups.size() != p_.sms)
    error(this->name(), "Context::sm_groups has ", ctx.sm_groups.size(), " entries but the block has ", p_.sms, " SMs");
  sm_groups_ = ctx.sm_groups.empty() ? std::vector<unsigned>(p_.sms, ctx.group) : ctx.sm_groups;
  place_nodes();
  base_ = ids_.add_block(p_.nodes());
  inbound_vnets_ = boundary_count() > 1 && p_.noc.topology == "mesh";
  build_networks();
  join_boundaries();
  SmNode::Front front;
  if (!p_.sm_front.stages.empty()) {
    build_front_shared(*ctx.front);
    front.params = &p_.sm_front;
    front.registry = ctx.front;
    front.sms = p_.sms;
    for (auto& [n, sh] : front_shared_) front.shared[n] = sh.get();
  }
  sms_.init(p_.sms, [&](const char* nm, size_t i) {
    front.index = static_cast<unsigned>(i);
    return new SmNode(nm, p_.sm, p_.l1, clocks_.core, base_ + sm_nodes_[i], front);
  });
  mcs_.init(p_.mcs, [&](const char* nm, size_t i) {
    return new MemoryPartition(nm, p_.mc, clocks_.core, clocks_.dram, base_ + mc_nodes_[i], map_, ctx.stages);
  });
  for (unsigned i = 0; i < p_.mcs; ++i) {
    const unsigned part = ids_.add_partition(base_ + mc_nodes_[i]);
    if (i == 0) first_partition_ = part;
  }
  for (unsigned i = 0; i < p_.sms; ++i) wire_sm(i);
  for (unsigned i = 0; i < p_.mcs; ++i) wire_mc(i);
}

void GpuBlock::place_nodes() {
  const auto& n = p_.noc;
  const unsigned nodes = p_.nodes();
  if (n.topology == "mesh") {
    if (n.k * n.m != nodes)
      error(name(), "a ", n.k, "x", n.m, " mesh has ", n.k * n.m, " nodes but sms + mcs",
            p_.boundary ? " + boundary_nodes" : "", " = ", nodes, "; every node hosts one SM or one MC",
            p_.boundary ? ", or is a boundary node" : "");
    mc_nodes_ = noc::mc_placement(n.k, n.m, p_.mcs, p_.placement);
  } else if (n.topology == "crossbar") {
    if (n.k != nodes)
      error(name(), "a crossbar of ", n.k, " ports cannot connect sms + mcs", p_.boundary ? " + boundary_nodes" : "",
            " = ", nodes, " nodes");
    for (unsigned i = 0; i < p_.mcs; ++i) mc_nodes_.push_back(p_.sms + i);
  } else {
    error(name(), "noc.topology '", n.topology, "' is not supported by a GPU block (use mesh or crossbar)");
  }
  mc_of_node_.assign(nodes, ~0u);
  for (unsigned i = 0; i < p_.mcs; ++i) mc_of_node_[mc_nodes_[i]] = i;
  std::vector<unsigned> rest;
  for (unsigned node = 0; node < nodes; ++node)
    if (mc_of_node_[node] == ~0u) rest.push_back(node);
  std::vector<bool> is_boundary(nodes, false);
  const size_t B = boundary_count(), R = rest.size();
  const bool mesh = p_.noc.topology == "mesh";
  for (size_t b = 0; b < B; ++b) {
    // Mesh: spread over the rest in id order; crossbar: the last ports (position is no matter).
    const unsigned node = rest[mesh ? ((b + 1) * R + B - 1) / B - 1 : R - B + b];
    boundary_nodes_.push_back(node);
    is_boundary[node] = true;
  }
  for (unsigned node : rest)
    if (!is_boundary[node]) sm_nodes_.push_back(node);
}

unsigned GpuBlock::boundary_node(unsigned b) const {
  if (!p_.boundary) error(name(), "the block has no boundary node (boundary = false)");
  if (b >= boundary_nodes_.size())
    error(name(), "boundary node ", b, " asked for, but the block has ", boundary_nodes_.size());
  return boundary_nodes_[b];
}

std::vector<unsigned> GpuBlock::boundary_ids() const {
  if (!p_.boundary) error(name(), "the block has no boundary node (boundary = false)");
  std::vector<unsigned> ids;
  for (unsigned n : boundary_nodes_) ids.push_back(base_ + n);
  return ids;
}

void GpuBlock::join_boundaries() {
  const unsigned B = boundary_count();
  if (B < 2) return;
  const auto entry = [this](const tlm::tlm_generic_payload& gp) {
    const MemExt* e = gp.get_extension<MemExt>();
    if (!e) error(name(), "a message without MemExt arrived at the boundary");
    if (e->dst >= boundary_of_id_.size()) error(name(), "a message for id ", e->dst, " arrived at the boundary");
    return boundary_of_id_[e->dst];
  };
  for (Class c : {kRequest, kReply}) {
    const bool req = c == kRequest;
    merge_[c] = std::make_unique<PortMerge>(req ? "boundary_requests_out" : "boundary_replies_out", B);
    split_[c] = std::make_unique<PortSplit>(req ? "boundary_requests_in" : "boundary_replies_in", B, entry);
    const unsigned local = req ? req_vnet() : rep_vnet(), inbound = req ? req_in_vnet() : rep_in_vnet();
    for (unsigned b = 0; b < B; ++b) {
      noc::NetworkInterface& ni = req ? req_ni(boundary_nodes_[b]) : rep_ni(boundary_nodes_[b]);
      ni.out[local].bind(merge_[c]->in[b]);
      split_[c]->out[b].bind(ni.in[inbound]);
      if (inbound != local) {  // nothing leaves on the inbound network here, nothing enters on the other
        close_out(ni.out[inbound]);
        close_in(ni.in[local]);
      }
    }
  }
}

void GpuBlock::build_networks() {
  noc::Network::Params np = p_.noc;
  if (p_.network == "vnets") {
    if (np.router.vnets != 2)
      error(name(), "network=vnets needs noc.router.vnets = 2 (requests and replies), got ", np.router.vnets);
    if (inbound_vnets_) {  // 2, 3: the same classes entering the block, with their class's routing
      np.router.vnets = 4;
      const auto dash = np.routing.find('-');
      if (dash != std::string::npos) np.routing += "-" + np.routing;
    }
    req_net_ = std::make_unique<noc::Network>("noc", np, clocks_.noc);
  } else {
    if (np.router.vnets != 1)
      error(name(), "network=separate needs noc.router.vnets = 1 (one class per physical network), got ",
            np.router.vnets);
    if (inbound_vnets_) np.router.vnets = 2;  // 1: the network's class entering the block
    const auto r = np.routing;
    const auto dash = r.find('-');
    noc::Network::Params rp = np;
    np.routing = r.substr(0, dash);
    rp.routing = dash == std::string::npos ? r : r.substr(dash + 1);
    req_net_ = std::make_unique<noc::Network>("req_noc", np, clocks_.noc);
    rep_net_ = std::make_unique<noc::Network>("reply_noc", rp, clocks_.noc);
  }
}

void GpuBlock::end_of_elaboration() {
  const size_t B = boundary_nodes_.size();
  if (B > 0) {  // which boundary node each platform id leaves (or enters) by, one block alone too
    // Rank: a partition's index; any other id its position among the ids that are no partition.
    std::vector<unsigned> rank(ids_.nodes(), ~0u);
    for (unsigned part = 0; part < ids_.partitions(); ++part) rank[ids_.partition_node(part, name())] = part;
    for (unsigned id = 0, other = 0; id < ids_.nodes(); ++id)
      if (rank[id] == ~0u) rank[id] = other++;
    boundary_of_id_.resize(ids_.nodes());
    for (unsigned id = 0; id < ids_.nodes(); ++id) boundary_of_id_[id] = rank[id] % B;
  }
  // Every block is registered by now: map the platform's ids onto this block's nodes. One block
  // numbered from 0 needs no map (its ids are its nodes).
  if (base_ == 0 && ids_.nodes() == p_.nodes()) return;
  noc::NodeMap m;
  m.boundaries = boundary_nodes_;
  m.node.assign(ids_.nodes(), noc::NodeMap::kNone);
  for (unsigned id = 0; id < ids_.nodes(); ++id)
    if (id >= base_ && id < base_ + p_.nodes())
      m.node[id] = id - base_;
    else if (B > 0)
      m.node[id] = boundary_nodes_[boundary_of_id_[id]];
  req_net_->set_node_map(m);
  if (rep_net_) rep_net_->set_node_map(m);
}

MsgOut& GpuBlock::out(Class c) {
  const unsigned b = boundary_node();
  if (merge_[c]) return merge_[c]->out;
  return c == kRequest ? req_ni(b).out[req_vnet()] : rep_ni(b).out[rep_vnet()];
}

MsgIn& GpuBlock::in(Class c) {
  const unsigned b = boundary_node();
  if (split_[c]) return split_[c]->in;
  return c == kRequest ? req_ni(b).in[req_vnet()] : rep_ni(b).in[rep_vnet()];
}

bool GpuBlock::needs_values() const {
  for (const auto& mc : mcs_)
    if (mc.needs_values()) return true;
  return false;
}

void GpuBlock::attach_values(BackingStore& store) {
  for (auto& mc : mcs_) mc.attach_values(store);
  for (auto& s : sms_) s.core().set_store_data(true);
}

void GpuBlock::flush_l1s() {
  for (auto& s : sms_) s.l1().flush();
}

void GpuBlock::close_out(MsgOut& never_sends) {
  auto* u = new ClosedSink(sc_core::sc_gen_unique_name("unused_port"));
  unused_.emplace_back(u);
  never_sends.bind(u->in);
}

void GpuBlock::close_in(MsgIn& never_receives) {
  auto* u = new ClosedSource(sc_core::sc_gen_unique_name("unused_port"));
  unused_.emplace_back(u);
  u->out.bind(never_receives);
}

void GpuBlock::merge_into(MsgOut& a, MsgOut& b, MsgIn& unit) {
  node_merges_.push_back(std::make_unique<PortMerge>(sc_core::sc_gen_unique_name("vnet_merge"), 2));
  a.bind(node_merges_.back()->in[0]);
  b.bind(node_merges_.back()->in[1]);
  node_merges_.back()->out.bind(unit);
}

void GpuBlock::wire_sm(unsigned i) {
  const unsigned node = sm_nodes_[i];  // local
  const unsigned id = base_ + node;    // platform id
  SmNode& sm = sms_[i];
  Cache& l1 = sm.l1();
  sm.req_out().bind(req_ni(node).in[req_vnet()]);
  if (inbound_vnets_) {  // replies from this block and from others, into the one SM
    merge_into(rep_ni(node).out[rep_vnet()], rep_ni(node).out[rep_in_vnet()], sm.rep_in());
    close_out(req_ni(node).out[req_in_vnet()]);
    close_in(req_ni(node).in[req_in_vnet()]);
    close_in(rep_ni(node).in[rep_in_vnet()]);
  } else {
    rep_ni(node).out[rep_vnet()].bind(sm.rep_in());
  }
  // The requester's route is where first touch is reported: the group of the SM behind this L1.
  l1.set_route([this, group = sm_groups_[i]](tlm::tlm_generic_payload& gp, MemExt& e) {
    e.dst = ids_.partition_node(mapper_.map(gp.get_address(), group).partition, "gpu.l1");
  });

  if (sm.peer_in()) {  // an SM-side stage takes the node's peer traffic (requests in, replies out)
    req_ni(node).out[req_vnet()].bind(*sm.peer_in());
    sm.peer_out()->bind(rep_ni(node).in[rep_vnet()]);
  } else {  // SMs take no requests, send no replies
    close_out(req_ni(node).out[req_vnet()]);
    close_in(rep_ni(node).in[rep_vnet()]);
  }

  req_ni(node).in[req_vnet()].set_tap([this, id](tlm::tlm_generic_payload& gp) {
    ++request_packets_in_;
    if (obs_.injected) obs_.injected(id, gp);
  });
  l1.up_in.set_tap([this, i](tlm::tlm_generic_payload& gp) {
    if (obs_.sm_request) obs_.sm_request(i, gp);
  });
  l1.down_in.set_tap([this, id](tlm::tlm_generic_payload& gp) {
    const MemExt& e = mem_ext(gp, "gpu.l1");
    if (e.kind != MemKind::Read && e.kind != MemKind::Atomic) return;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    // From when the MC took this SM's own request (a merged reply carries each one's stamps).
    mem_lat_.add(cycles_between(e.stamps_of(id).t_mem_accept, e.t_reply_inject, clocks_.core));
    rep_lat_.add(cycles_between(e.t_reply_inject, now, clocks_.core));
    reply_bytes_ += gp.get_data_length();
  });
  sm.core().mem_in.set_tap([this, i](tlm::tlm_generic_payload& gp) {
    const MemExt& e = mem_ext(gp, "gpu.sm");
    if (e.kind == MemKind::Read) amat_.add(cycles_between(e.t_issue, sc_core::sc_time_stamp(), clocks_.core));
    if (obs_.sm_reply) obs_.sm_reply(i, gp);
  });
}

void GpuBlock::wire_mc(unsigned i) {
  const unsigned node = mc_nodes_[i];
  const unsigned id = base_ + node;
  MemoryPartition& mc = mcs_[i];
  if (inbound_vnets_) {  // requests from this block and from others, into the one partition
    merge_into(req_ni(node).out[req_vnet()], req_ni(node).out[req_in_vnet()], mc.in());
    close_out(rep_ni(node).out[rep_in_vnet()]);
    close_in(req_ni(node).in[req_in_vnet()]);
    close_in(rep_ni(node).in[rep_in_vnet()]);
  } else {
    req_ni(node).out[req_vnet()].bind(mc.in());
  }
  mc.out().bind(rep_ni(node).in[rep_vnet()]);
  close_out(rep_ni(node).out[rep_vnet()]);  // MCs take no replies, send no requests
  close_in(req_ni(node).in[req_vnet()]);
  rep_ni(node).in[rep_vnet()].set_tap([this, id](tlm::tlm_generic_payload& gp) {
    mem_ext(gp, "gpu.reply_ni").t_reply_inject = sc_core::sc_time_stamp();
    ++reply_packets_in_;
    if (obs_.injected) obs_.injected(id, gp);
  });
}

}  // namespace gpusc
