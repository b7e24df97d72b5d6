#include "noc/route_func.h"

#include "common/report.h"

namespace gpusc::noc {

MeshDorRoute::MeshDorRoute(unsigned k, unsigned m, std::vector<bool> yx_per_vnet, unsigned vcs_per_vnet)
    : k_(k), m_(m), yx_(std::move(yx_per_vnet)), vpv_(vcs_per_vnet), x_(k * m), y_(k * m) {
  for (size_t v = 0; v < yx_.size() && v < 64; ++v) yx_mask_ |= uint64_t{yx_[v]} << v;
  for (unsigned n = 0; n < k * m; ++n) {
    x_[n] = static_cast<uint16_t>(n % k);
    y_[n] = static_cast<uint16_t>(n / k);
  }
}

unsigned MeshDorRoute::port_towards(unsigned router, unsigned dest, unsigned vnet) const {
  // Without branches (the direction is data-dependent, so branches on it mispredict): a table
  // indexed by algorithm, x step and y step (0 none, 1 down, 2 up).
  static constexpr uint8_t kPort[2][3][3] = {
      {{kLocal, kSouth, kNorth}, {kWest, kWest, kWest}, {kEast, kEast, kEast}},     // XY: x first
      {{kLocal, kSouth, kNorth}, {kWest, kSouth, kNorth}, {kEast, kSouth, kNorth}}  // YX: y first
  };
  const unsigned x = x_[router], y = y_[router], dx = x_[dest], dy = y_[dest];
  const unsigned xs = 2u * (dx > x) + (dx < x), ys = 2u * (dy > y) + (dy < y);
  return kPort[yx_mask_ >> vnet & 1][xs][ys];
}

namespace {
// Groups destinations by output port; a unicast set takes the fast path.
template <class PortOf>
void split(const Flit& head, unsigned vnet, unsigned vpv, PortOf port_of, std::vector<RouteBranch>& out) {
  const unsigned lo = vnet * vpv, hi = lo + vpv;
  if (head.dest != kMultiDest) {
    out.push_back({port_of(head.dest), DestSet::single(head.dest), lo, hi});
    return;
  }
  const DestSet& all = *head.dests;
  if (all.single_member()) {
    const unsigned d = all.first();
    out.push_back({port_of(d), all, lo, hi});
    return;
  }
  all.for_each([&](unsigned d) {
    const unsigned p = port_of(d);
    for (auto& b : out)
      if (b.port == p) { b.dests.add(d); return; }
    out.push_back({p, DestSet::single(d), lo, hi});
  });
}
}  // namespace

void MeshDorRoute::route(unsigned router, unsigned, unsigned, const Flit& head, std::vector<RouteBranch>& out) const {
  const unsigned vnet = head.vnet;
  split(head, vnet, vpv_, [&](unsigned d) { return port_towards(router, d, vnet); }, out);
}

UnicastRoute MeshDorRoute::route_unicast(unsigned router, unsigned, unsigned, const Flit& head) const {
  const unsigned lo = head.vnet * vpv_;
  return {port_towards(router, head.dest, head.vnet), lo, lo + vpv_};
}

MeshEscapeRoute::MeshEscapeRoute(unsigned k, unsigned m, std::vector<bool> yx_per_vnet, unsigned vcs_per_vnet,
                                 unsigned escape_vcs)
    : MeshDorRoute(k, m, std::move(yx_per_vnet), vcs_per_vnet), esc_(escape_vcs) {
  if (esc_ == 0 || esc_ >= vcs_per_vnet)
    error("gpusc.noc.route", "escape_vcs = ", esc_, " must be at least 1 and below the ", vcs_per_vnet,
          " VCs per virtual network (a VC must stay for other packets)");
}

void MeshEscapeRoute::route(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head,
                            std::vector<RouteBranch>& out) const {
  const size_t first = out.size();
  MeshDorRoute::route(router, in_port, in_vc, head, out);
  const unsigned level = head.pkt ? head.pkt->redirects : 0;  // (a multicast is never redirected)
  for (size_t i = first; i < out.size(); ++i) level_vcs(level, out[i].vc_lo, out[i].vc_hi);
}

UnicastRoute MeshEscapeRoute::route_unicast(unsigned router, unsigned in_port, unsigned in_vc, const Flit& head) const {
  UnicastRoute r = MeshDorRoute::route_unicast(router, in_port, in_vc, head);
  level_vcs(head.pkt->redirects, r.vc_lo, r.vc_hi);
  return r;
}

RingRoute::RingRoute(unsigned n, unsigned vcs_per_vnet) : n_(n), vpv_(vcs_per_vnet) {}

unsigned RingRoute::port_of(unsigned router, unsigned d) const {
  if (d == router) return 0;
  const unsigned cw = (d + n_ - router) % n_;
  return cw <= n_ - cw ? 1u : 2u;
}

// The dateline class of a branch is fixed for its whole route: class 1 when the route crosses the
// dateline (between n-1 and 0) in its direction, i.e. when a destination lies "behind" the source
// (clockwise: dest < src; counter-clockwise: dest > src), else class 0. Routes are shortest, so at
// most half the ring long. For a multicast branch: when any of its destinations does (the branch
// then runs past the dateline, and its remaining destinations still do after the nearer ones
// are dropped, so the class stays the same along the tree).
bool RingRoute::wraps(unsigned src, unsigned port, const DestSet& dests) {
  if (port == 1) return dests.first() < src;
  bool w = false;
  dests.for_each([&](unsigned d) { w = w || d > src; });
  return w;
}

void RingRoute::dateline(bool wraps, unsigned vnet, unsigned port, unsigned& lo, unsigned& hi) const {
  if (port == 0) return;
  const unsigned half = vpv_ / 2;
  lo = vnet * vpv_ + (wraps ? half : 0);
  hi = wraps ? (vnet + 1) * vpv_ : vnet * vpv_ + half;
}

void RingRoute::route(unsigned router, unsigned, unsigned, const Flit& head, std::vector<RouteBranch>& out) const {
  const unsigned vnet = head.vnet, src = head.pkt->src;
  split(head, vnet, vpv_, [&](unsigned d) { return port_of(router, d); }, out);
  for (auto& b : out) dateline(wraps(src, b.port, b.dests), vnet, b.port, b.vc_lo, b.vc_hi);
}

UnicastRoute RingRoute::route_unicast(unsigned router, unsigned, unsigned, const Flit& head) const {
  UnicastRoute r{port_of(router, head.dest), head.vnet * vpv_, (head.vnet + 1u) * vpv_};
  const unsigned src = head.pkt->src;
  dateline(r.port == 1 ? head.dest < src : head.dest > src, head.vnet, r.port, r.vc_lo, r.vc_hi);
  return r;
}

void CrossbarRoute::route(unsigned, unsigned, unsigned, const Flit& head, std::vector<RouteBranch>& out) const {
  split(head, head.vnet, vpv_, [](unsigned d) { return d; }, out);
}

UnicastRoute CrossbarRoute::route_unicast(unsigned, unsigned, unsigned, const Flit& head) const {
  return {head.dest, head.vnet * vpv_, (head.vnet + 1u) * vpv_};
}

}  // namespace gpusc::noc
