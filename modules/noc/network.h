// Network: a whole NoC built from a config, as a recipe (STYLE P6/P7): build the routing
// strategy, the routers, the network interfaces, then connect them per topology.
//   mesh     : k x m routers, node y*k+x at router y*k+x, dimension-order routing per vnet
//              (`routing`: xy or yx per virtual network; empty = xy on every one)
//   ring     : k routers in a bidirectional ring (MCM-GPU inter-GPM ring), shortest direction
//              with dateline VCs
//   crossbar : one k-port switch, destination-tag routing (paper 001 §4.2); separate request
//              and reply crossbars are two Networks with one virtual network each
// A ring and a crossbar have one routing of their own: `routing` must stay empty there (a mesh
// routing such as "xy-yx" on them is an error, not silently ignored).
// Every node has one NetworkInterface: ni(node).in[vnet] / .out[vnet] are its TLM ports.
// A platform needing separate physical request and reply networks (paper 000) builds two.
// Lanes (speed): when the ClockDomain has n > 1 lanes, mesh rows (ring nodes) are split into n
// consecutive groups, each with its routers and NIs in one lane, its own packet pool, and
// a mailbox per pair of lanes for the flits and credits of the links between groups (see
// LaneMail); the results are those of one lane. Lanes carry unicast traffic only; a crossbar stays in lane 0.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/params.h"
#include "noc/network_interface.h"
#include "noc/packet_pool.h"
#include "noc/route_func.h"
#include "noc/router.h"

namespace gpusc::noc {

class Network : public sc_core::sc_module {
 public:
  struct Params {
    std::string topology = "mesh";
    unsigned k = 8;                 // mesh columns; ring / crossbar nodes
    unsigned m = 8;                 // mesh rows (ignored otherwise)
    std::string routing;            // mesh: per virtual network, '-' separated; empty = xy (mesh only)
    unsigned link_latency = 1;
    unsigned credit_latency = 1;
    unsigned escape_vcs = 0;        // VCs per vnet kept for packets a HeadHook redirected (mesh)
    Router::Params router;
    NetworkInterface::Params ni;
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_C(topology, "mesh|ring|crossbar", "network topology");
      GPUSC_PARAM_R(k, 1, 256, "mesh columns, or nodes of a ring / crossbar [count]");
      GPUSC_PARAM_R(m, 1, 256, "mesh rows [count]");
      GPUSC_PARAM(routing, "mesh routing per virtual network, '-' separated: xy, yx, xy-yx (XY requests, YX "
                           "replies); empty = xy on every virtual network. Mesh only: a ring and a crossbar have "
                           "their own routing and need it empty");
      GPUSC_PARAM_R(link_latency, 1, 1000, "router-to-router and NI channel traversal [cycles]");
      GPUSC_PARAM_R(credit_latency, 1, 1000, "credit return [cycles]");
      GPUSC_PARAM_R(escape_vcs, 0, 15,
                    "mesh: the last VCs of each virtual network, kept for packets a head hook redirected (probe "
                    "deflection, paper 000 §III-F), which may turn where dimension-order routing may not; 0: none, "
                    "redirected packets share the VCs (a deadlock risk) [count]");
      GPUSC_PARAM(router, "router parameters");
      GPUSC_PARAM(ni, "network-interface parameters");
    }
  };

  Network(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  const Params& params() const { return p_; }
  const ClockDomain& clock() const { return clk_; }
  unsigned nodes() const { return static_cast<unsigned>(nis_.size()); }
  NetworkInterface& ni(unsigned node) { return nis_[node]; }
  Router& router(unsigned r) { return routers_[r]; }
  unsigned routers() const { return static_cast<unsigned>(routers_.size()); }
  const std::deque<FlitLink>& links() const { return links_; }
  uint64_t packets_in_flight() const;
  // Lane of a node's router and NI (and where a unit attached to the node belongs).
  unsigned lane_of(unsigned node) const;
  uint64_t flit_hops() const;  // router traversals so far
  // Hops (routers traversed) of a unicast packet from src to dst.
  unsigned hops(unsigned src, unsigned dst) const;
  // Installs `hook` (nullptr: removes it) on every router (see HeadHook in router.h). Before
  // simulation, or between runs: with several lanes the routers call it from their threads.
  void set_head_hook(HeadHook* hook);
  // Destinations are platform ids mapped through `m` from now on (NodeMap, network_interface.h).
  // Before simulation; every entry and boundary is a node of this network or NodeMap::kNone.
  void set_node_map(NodeMap m);

 private:
  void check_config() const;
  std::unique_ptr<RouteFunc> make_route() const;
  unsigned router_ports() const;
  void build_routers();
  void build_interfaces();
  void connect_mesh();
  void connect_ring();
  void connect_crossbar();
  void connect_interfaces();
  FlitLink& link(FlitPortOwner& up, unsigned up_port, FlitPortOwner& down, unsigned down_port);
  void router_link(unsigned a, unsigned a_port, unsigned b, unsigned b_port);
  void deliver_mail(unsigned lane);

  const Params p_;
  ClockDomain& clk_;
  std::deque<PacketPool> pools_;   // [lane]
  std::vector<LaneMailbox> mail_;  // [(from lane * lanes + to lane) * 2 + half]
  std::unique_ptr<RouteFunc> route_;
  sc_core::sc_vector<Router> routers_;
  sc_core::sc_vector<NetworkInterface> nis_;
  std::deque<FlitLink> links_;
  NodeMap node_map_;
};

}  // namespace gpusc::noc
