// Routing strategies (noc/route_func.h) on their own: the ring's direction and dateline VC class
// at every router of a route, unicast and multicast, against hand-worked routes.
#include <catch2/catch.hpp>

#include <vector>

#include "noc/route_func.h"

using namespace gpusc;
using namespace gpusc::noc;

namespace {

// The (port, vc_lo, vc_hi) a unicast head from src to dest gets at `router`, through both entry points.
UnicastRoute ring_hop(const RingRoute& r, unsigned router, unsigned src, unsigned dest, unsigned vnet = 0) {
  Packet p;
  p.src = src;
  p.dest = static_cast<uint16_t>(dest);
  p.dests = DestSet::single(dest);
  p.vnet = static_cast<uint8_t>(vnet);
  Flit f;
  f.pkt = &p;
  f.dest = p.dest;
  f.vnet = p.vnet;
  const UnicastRoute u = r.route_unicast(router, 0, 0, f);
  std::vector<RouteBranch> b;
  r.route(router, 0, 0, f, b);
  REQUIRE(b.size() == 1);
  CHECK(b[0].port == u.port);
  CHECK(b[0].vc_lo == u.vc_lo);
  CHECK(b[0].vc_hi == u.vc_hi);
  return u;
}

// Walks a unicast route on an n-node ring; returns the (port, class) of every hop until ejection
// (class 0: the lower half of the vnet's VCs, 1: the upper half).
std::vector<std::pair<unsigned, unsigned>> ring_walk(const RingRoute& r, unsigned n, unsigned vpv, unsigned src,
                                                     unsigned dest) {
  std::vector<std::pair<unsigned, unsigned>> hops;
  unsigned at = src;
  for (unsigned i = 0; i <= n; ++i) {
    const UnicastRoute u = ring_hop(r, at, src, dest);
    if (u.port == 0) return hops;
    REQUIRE(u.vc_hi - u.vc_lo == vpv / 2);
    hops.emplace_back(u.port, u.vc_lo == 0 ? 0u : 1u);
    at = u.port == 1 ? (at + 1) % n : (at + n - 1) % n;
  }
  FAIL("route from " << src << " to " << dest << " does not end");
  return hops;
}

}  // namespace

TEST_CASE("RingRoute: shortest direction, ties clockwise, one dateline class for the whole route",
          "[route][ring]") {
  const unsigned n = 8, vpv = 4;
  RingRoute r(n, vpv);
  using H = std::vector<std::pair<unsigned, unsigned>>;
  // Clockwise without crossing the dateline (between 7 and 0): class 0 on every hop.
  CHECK(ring_walk(r, n, vpv, 1, 3) == H{{1, 0}, {1, 0}});
  // Clockwise across it (6 -> 7 -> 0 -> 1): class 1 from the first hop on, before the crossing too.
  CHECK(ring_walk(r, n, vpv, 6, 1) == H{{1, 1}, {1, 1}, {1, 1}});
  // Counter-clockwise across it (1 -> 0 -> 7 -> 6): class 1 on every hop.
  CHECK(ring_walk(r, n, vpv, 1, 6) == H{{2, 1}, {2, 1}, {2, 1}});
  // Counter-clockwise without crossing (5 -> 4 -> 3): class 0.
  CHECK(ring_walk(r, n, vpv, 5, 3) == H{{2, 0}, {2, 0}});
  // A tie (4 hops either way) goes clockwise: 2 -> 6 does not cross, 5 -> 1 does.
  CHECK(ring_walk(r, n, vpv, 2, 6) == H{{1, 0}, {1, 0}, {1, 0}, {1, 0}});
  CHECK(ring_walk(r, n, vpv, 5, 1) == H{{1, 1}, {1, 1}, {1, 1}, {1, 1}});
  // A route that starts at the last router before the dateline, or ends just after it.
  CHECK(ring_walk(r, n, vpv, 7, 0) == H{{1, 1}});
  CHECK(ring_walk(r, n, vpv, 0, 7) == H{{2, 1}});
  // Ejection at the destination is not restricted to a class.
  const UnicastRoute e = ring_hop(r, 3, 1, 3);
  CHECK(e.port == 0);
  CHECK((e.vc_lo == 0 && e.vc_hi == vpv));
}

TEST_CASE("RingRoute: classes are per virtual network", "[route][ring]") {
  RingRoute r(8, 2);  // 2 VCs per vnet: one per class
  const UnicastRoute a = ring_hop(r, 6, 6, 1, /*vnet=*/1);
  CHECK((a.port == 1 && a.vc_lo == 3 && a.vc_hi == 4));  // vnet 1 = VCs 2..3, class 1 = VC 3
  const UnicastRoute b = ring_hop(r, 1, 1, 3, /*vnet=*/1);
  CHECK((b.port == 1 && b.vc_lo == 2 && b.vc_hi == 3));
}

TEST_CASE("RingRoute: no class-1 route passes the router opposite the dateline (no cycle in either class)",
          "[route][ring]") {
  // Class 0 never takes the wrap-around link (n-1 -> 0 clockwise, 0 -> n-1 counter-clockwise); class 1 never runs through router n/2 (enters
  // it and leaves it), in either direction. Together: neither class's channel dependences close
  // around the ring. Every pair, every ring size 2..12.
  for (unsigned n = 2; n <= 12; ++n) {
    RingRoute r(n, 2);
    for (unsigned s = 0; s < n; ++s)
      for (unsigned d = 0; d < n; ++d) {
        unsigned at = s;
        for (unsigned i = 0; i <= n; ++i) {
          const UnicastRoute u = ring_hop(r, at, s, d);
          if (u.port == 0) break;
          const unsigned next = u.port == 1 ? (at + 1) % n : (at + n - 1) % n;
          const bool wrap_link = (u.port == 1 && at == n - 1) || (u.port == 2 && at == 0);
          INFO("n " << n << " src " << s << " dest " << d << " at " << at);
          if (u.vc_lo == 0) CHECK_FALSE(wrap_link);
          if (u.vc_lo == 1 && at == n / 2 && at != s) FAIL("class-1 route passes router n/2");
          at = next;
        }
        CHECK(at == d);
      }
  }
}

TEST_CASE("RingRoute: a multicast branch takes class 1 when any of its destinations lies past the dateline",
          "[route][ring]") {
  RingRoute r(8, 4);
  Packet p;
  p.src = 5;
  p.dests.add(6);
  p.dests.add(0);  // 5 -> 6 -> 7 -> 0: clockwise across the dateline
  p.dests.add(3);  // 5 -> 4 -> 3: counter-clockwise, no crossing
  Flit f;
  f.pkt = &p;
  f.dest = kMultiDest;
  f.dests = &p.dests;
  std::vector<RouteBranch> b;
  r.route(5, 0, 0, f, b);
  REQUIRE(b.size() == 2);
  for (const auto& x : b) {
    if (x.port == 1) {
      CHECK((x.dests.contains(6) && x.dests.contains(0)));
      CHECK((x.vc_lo == 2 && x.vc_hi == 4));
    } else {
      REQUIRE(x.port == 2);
      CHECK(x.dests.contains(3));
      CHECK((x.vc_lo == 0 && x.vc_hi == 2));
    }
  }
  // At router 6 the clockwise branch ejects 6 and goes on to 0 in the same class.
  DestSet rest;
  rest.add(6);
  rest.add(0);
  f.dests = &rest;
  b.clear();
  r.route(6, 0, 0, f, b);
  REQUIRE(b.size() == 2);
  for (const auto& x : b)
    if (x.port == 1) CHECK((x.dests.contains(0) && x.vc_lo == 2 && x.vc_hi == 4));
    else CHECK((x.port == 0 && x.dests.contains(6)));
}
