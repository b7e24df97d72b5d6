// RouteFunc: the routing strategy a router is given (STYLE P7: topology is a builder, routing
// a strategy, the router neither). For a head flit at a router it returns the branches the
// packet takes: one for unicast; for a multicast destination set one branch per output port,
// each carrying the subset of destinations reached through that port (paper 001 §4.3: DOR
// tree, lookahead multicast route computation splits the destination list per output port).
// A branch also restricts the VCs it may use (dateline classes on the ring).
// Two entry points: route() for any destination set, and route_unicast() for a head with one
// destination (Flit::dest), the common case, which must give exactly what route() would.
#pragma once
#include <cstdint>
#include <vector>

#include "noc/flit.h"

namespace gpusc::noc {

struct RouteBranch {
  unsigned port;
  DestSet dests;
  unsigned vc_lo, vc_hi;  // allowed output VCs [vc_lo, vc_hi)
};

struct UnicastRoute {
  unsigned port;
  unsigned vc_lo, vc_hi;  // allowed output VCs [vc_lo, vc_hi)
};

class RouteFunc {
 public:
  virtual ~RouteFunc() = default;
  // Appends the branches for `head` (arriving on in_port/in_vc of `router`) to out; the
  // destinations are head.dest_set().
  virtual void route(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head,
                     std::vector<RouteBranch>& out) const = 0;
  // The single branch of a head whose only destination is head.dest (its dests are {dest}).
  virtual UnicastRoute route_unicast(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head) const = 0;
};

// Dimension-order routing on a k x m mesh, one algorithm per virtual network ("xy" or "yx";
// paper 001 §5.1 uses XY requests with XY or YX replies). Ports: 0 local, 1 east (+x),
// 2 west, 3 north (+y), 4 south. Node id = y * k + x. Multicast splits along the DOR tree.
class MeshDorRoute : public RouteFunc {
 public:
  enum Port : unsigned { kLocal = 0, kEast = 1, kWest = 2, kNorth = 3, kSouth = 4 };
  MeshDorRoute(unsigned k, unsigned m, std::vector<bool> yx_per_vnet, unsigned vcs_per_vnet);
  void route(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head,
             std::vector<RouteBranch>& out) const override;
  UnicastRoute route_unicast(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head) const override;
  unsigned port_towards(unsigned router, unsigned dest, unsigned vnet) const;

 private:
  unsigned k_, m_;
  std::vector<bool> yx_;
  unsigned vpv_;
  uint64_t yx_mask_ = 0;                // bit per vnet: YX
  std::vector<uint16_t> x_, y_;         // [node] coordinates (no division per packet)
};

// MeshDorRoute with escape VCs (Network::Params::escape_vcs = E > 0; a class of its own so that a
// mesh without them pays nothing): the last E VCs of each virtual network are redirect levels,
// the others carry packets never redirected. A packet a HeadHook redirected d times
// (Packet::redirects) travels on the d-th of the E (one VC). A redirect starts a new
// dimension-order route where the packet is, which may take a turn the order forbids (Y then X
// under XY) and so close a cycle of channel dependences if it shared VCs with the routes before
// it. With one VC per level every route on a level is dimension-order from its start, and a
// packet waits only for VCs of its own level (to move on) or of the next (where it is redirected
// again), so the levels' dependences are acyclic and so is their union: deadlock-free for up to
// E redirects per packet (the router stops a packet redirected more often).
class MeshEscapeRoute : public MeshDorRoute {
 public:
  MeshEscapeRoute(unsigned k, unsigned m, std::vector<bool> yx_per_vnet, unsigned vcs_per_vnet, unsigned escape_vcs);
  void route(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head,
             std::vector<RouteBranch>& out) const override;
  UnicastRoute route_unicast(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head) const override;

 private:
  // Narrows a virtual network's VCs [lo, hi) to those of redirect level `level`.
  void level_vcs(unsigned level, unsigned& lo, unsigned& hi) const {
    if (level == 0) {
      hi -= esc_;
    } else {
      lo = hi - esc_ + level - 1;
      hi = lo + 1;
    }
  }
  unsigned esc_;
};

// Shortest-direction routing on a bidirectional ring of n routers with a dateline between
// router n-1 and 0: each virtual network's VCs split into two classes, and a packet keeps one
// class for its whole route: class 1 (upper half) when its route crosses the dateline, class 0
// when it does not (the assignment of BookSim2's dim_order_torus). Class-0 routes never use the
// wrap-around link, and no class-1 route passes the router opposite the dateline (routes are at
// most n/2 hops), so neither class's channel dependences form a cycle: deadlock-free.
// Choice: a class fixed at injection rather than Dally & Towles' switch from class 0 to class 1
// at the dateline. Both are deadlock-free and give the same latency below saturation; past
// saturation the switching scheme leaves half of the VCs of the links before the dateline idle
// (nobody there has crossed yet) and its accepted throughput fell further (16-node ring, uniform,
// 4 VCs: 0.11 instead of 0.22 flits/node/cycle at offered 1.0; docs/validation/noc.md).
// Ports: 0 local, 1 clockwise (+1), 2 counter-clockwise (-1). Ties go clockwise. Needs >= 2 VCs
// per vnet.
class RingRoute : public RouteFunc {
 public:
  RingRoute(unsigned n, unsigned vcs_per_vnet);
  void route(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head,
             std::vector<RouteBranch>& out) const override;
  UnicastRoute route_unicast(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head) const override;

 private:
  unsigned port_of(unsigned router, unsigned dest) const;
  static bool wraps(unsigned src, unsigned port, const DestSet& dests);
  void dateline(bool wraps, unsigned vnet, unsigned port, unsigned& lo, unsigned& hi) const;
  unsigned n_, vpv_;
};

// Destination-tag routing through a single crossbar switch: output port = destination node
// (paper 001 §4.2); a multicast set fans out to all its ports at once (mux-based crossbar).
class CrossbarRoute : public RouteFunc {
 public:
  explicit CrossbarRoute(unsigned vcs_per_vnet) : vpv_(vcs_per_vnet) {}
  void route(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head,
             std::vector<RouteBranch>& out) const override;
  UnicastRoute route_unicast(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head) const override;

 private:
  unsigned vpv_;
};

}  // namespace gpusc::noc
