#include "noc/route_func.h"

namespace gpusc::noc {

MeshDorRoute::MeshDorRoute(unsigned k, unsigned m, std::vector<bool> yx_per_vnet, unsigned vcs_per_vnet)
    : k_(k), m_(m), yx_(std::move(yx_per_vnet)), vpv_(vcs_per_vnet) {}

unsigned MeshDorRoute::port_towards(unsigned router, unsigned dest, unsigned vnet) const {
  const unsigned x = router % k_, y = router / k_, dx = dest % k_, dy = dest / k_;
  const auto xdir = [&] { return dx > x ? kEast : kWest; };
  const auto ydir = [&] { return dy > y ? kNorth : kSouth; };
  if (yx_[vnet]) {
    if (dy != y) return ydir();
    if (dx != x) return xdir();
  } else {
    if (dx != x) return xdir();
    if (dy != y) return ydir();
  }
  return kLocal;
}

namespace {
// Groups destinations by output port; a unicast set takes the fast path.
template <class PortOf>
void split(const Flit& head, unsigned vnet, unsigned vpv, PortOf port_of, std::vector<RouteBranch>& out) {
  const unsigned lo = vnet * vpv, hi = lo + vpv;
  if (head.dests.single_member()) {
    const unsigned d = head.dests.first();
    out.push_back({port_of(d), head.dests, lo, hi});
    return;
  }
  head.dests.for_each([&](unsigned d) {
    const unsigned p = port_of(d);
    for (auto& b : out)
      if (b.port == p) { b.dests.add(d); return; }
    out.push_back({p, DestSet::single(d), lo, hi});
  });
}
}  // namespace

void MeshDorRoute::route(unsigned router, unsigned, unsigned, const Flit& head, std::vector<RouteBranch>& out) const {
  const unsigned vnet = head.pkt->vnet;
  split(head, vnet, vpv_, [&](unsigned d) { return port_towards(router, d, vnet); }, out);
}

RingRoute::RingRoute(unsigned n, unsigned vcs_per_vnet) : n_(n), vpv_(vcs_per_vnet) {}

void RingRoute::route(unsigned router, unsigned, unsigned, const Flit& head, std::vector<RouteBranch>& out) const {
  const unsigned vnet = head.pkt->vnet, src = head.pkt->src, half = vpv_ / 2;
  const auto port_of = [&](unsigned d) -> unsigned {
    if (d == router) return 0;
    const unsigned cw = (d + n_ - router) % n_;
    return cw <= n_ - cw ? 1u : 2u;
  };
  split(head, vnet, vpv_, port_of, out);
  for (auto& b : out) {
    if (b.port == 0) continue;
    // Crossed (or about to cross) the dateline between n-1 and 0 in the travel direction?
    bool after;
    if (b.port == 1) after = router < src || router == n_ - 1;
    else after = router > src || router == 0;
    b.vc_lo = vnet * vpv_ + (after ? half : 0);
    b.vc_hi = after ? (vnet + 1) * vpv_ : vnet * vpv_ + half;
  }
}

void CrossbarRoute::route(unsigned, unsigned, unsigned, const Flit& head, std::vector<RouteBranch>& out) const {
  split(head, head.pkt->vnet, vpv_, [](unsigned d) { return d; }, out);
}

}  // namespace gpusc::noc
