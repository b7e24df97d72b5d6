#include "noc_fixture.h"

namespace gpusc::tb {

NocBench::NocBench(sc_core::sc_module_name name, const noc::Network::Params& p, unsigned target_depth,
                   unsigned lanes)
    : sc_core::sc_module(name) {
  clk.set_lanes(lanes);
  net = std::make_unique<noc::Network>("noc", p, clk);
  src.init(net->nodes(), [&](const char* nm, size_t) { return new ScriptedInitiator(nm, clk, pool); });
  dst.init(net->nodes(), [&](const char* nm, size_t) { return new ScriptedTarget(nm, clk, target_depth); });
  for (unsigned i = 0; i < net->nodes(); ++i) {
    src[i].out.bind(net->ni(i).in[0]);
    net->ni(i).out[0].bind(dst[i].in);
  }
}

void NocBench::send(unsigned s, unsigned d, uint64_t cycle, unsigned flits, uint64_t tag) {
  const unsigned fb = net->params().ni.flit_bytes;
  src[s].at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
    e.kind = MemKind::Write;
    e.src = s;
    e.dst = d;
    e.pc = tag;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(flits * fb);
  });
}

void NocBench::multicast(unsigned s, const DestSet& dests, uint64_t cycle, unsigned flits, uint64_t tag) {
  const unsigned fb = net->params().ni.flit_bytes;
  src[s].at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
    e.kind = MemKind::Write;
    e.src = s;
    e.dst = dests.first();
    e.dests = dests;
    e.pc = tag;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(flits * fb);
  });
}

TrafficBench::TrafficBench(sc_core::sc_module_name name, const noc::Network::Params& p,
                           const noc::TrafficTerminal::Params& t, uint64_t seed, unsigned lanes)
    : sc_core::sc_module(name) {
  clk.set_lanes(lanes);
  net = std::make_unique<noc::Network>("noc", p, clk);
  const unsigned k = p.k, m = p.topology == "mesh" ? p.m : 1;
  term.init(net->nodes(), [&](const char* nm, size_t i) {
    return new noc::TrafficTerminal(nm, t, static_cast<unsigned>(i), k, m, seed, clk, pool,
                                    net->lane_of(static_cast<unsigned>(i)));
  });
  for (unsigned i = 0; i < net->nodes(); ++i) {
    term[i].out.bind(net->ni(i).in[0]);
    net->ni(i).out[0].bind(term[i].in);
  }
}

uint64_t TrafficBench::created() const {
  uint64_t n = 0;
  for (const auto& t : term) n += t.created();
  return n;
}

uint64_t TrafficBench::received() const {
  uint64_t n = 0;
  for (const auto& t : term) n += t.received();
  return n;
}

uint64_t TrafficBench::backlog() const {
  uint64_t n = 0;
  for (const auto& t : term) n += t.backlog();
  return n;
}

noc::Network::Params mesh_params(unsigned k, unsigned m, unsigned pipeline, unsigned vcs, unsigned depth) {
  noc::Network::Params p;
  p.topology = "mesh";
  p.k = k;
  p.m = m;
  p.routing = "";  // xy; empty so that a test may switch the topology to ring or crossbar
  p.router.vnets = 1;
  p.router.vcs_per_vnet = vcs;
  p.router.vc_depth = depth;
  p.router.pipeline = pipeline;
  p.ni.header_bytes = 0;
  p.ni.flit_bytes = 16;
  return p;
}

uint64_t arrival(NocBench& b, unsigned d, uint64_t tag) {
  for (const auto& a : b.dst[d].arrivals())
    if (a.ext.pc == tag) return a.cycle;
  return UINT64_MAX;
}

std::vector<unsigned> connected_out_ports(noc::Network& net, unsigned r) {
  const noc::FlitPortOwner* self = &net.router(r);
  std::vector<unsigned> ports;
  for (const noc::FlitLink& l : net.links())
    if (l.up == self) ports.push_back(l.up_port);
  return ports;
}

}  // namespace gpusc::tb
