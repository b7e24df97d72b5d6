// Router head hook and NI refusal (router.h HeadHook, network_interface.h Refusal): a hook that
// rewrites a head's destination where it would be ejected, deflection driven by an NI that
// refuses a virtual network, escape VCs (one per redirect level, route_func.h MeshEscapeRoute),
// and the errors for a destination that does not exist and a redirect past the escape VCs.
//
// Timing (router_tb.cpp has the derivation), 3x1 mesh, pipeline 3, 1-cycle links: a packet sent
// at t0 has its head usable at router 0 at t0+2; per router the head spends 3 cycles plus 1 on
// the link (4 per hop), body flits follow one per cycle, and the last router's SA of the tail in
// x delivers it in x + 3. So an F-flit packet crossing h routers arrives at t0 + 4h - 2 + F - 1:
// node 0 -> 1 (2 routers), F = 4: t0+13; across 3 routers: t0+17. A rewrite happens in the RC
// the head does anyway, so a packet deflected at router 1 to node 2 takes exactly one hop (4
// cycles) more than it would to node 1: the time of a direct 0 -> 2 packet.
#include <catch2/catch.hpp>

#include "noc_fixture.h"

using namespace gpusc;
using gpusc::tb::mesh_params;
using gpusc::tb::NocBench;

using gpusc::tb::arrival;

namespace {
const MemExt* arrived_ext(NocBench& b, unsigned d, uint64_t tag) {
  for (const auto& a : b.dst[d].arrivals())
    if (a.ext.pc == tag) return &a.ext;
  return nullptr;
}

// Rewrites destination `from` to `to` at router `at`; counts its calls per router.
struct Rewrite : noc::HeadHook {
  unsigned at, from, to;
  unsigned calls[8] = {};  // [router], meshes of up to 8 routers
  Rewrite(unsigned a, unsigned f, unsigned t) : at(a), from(f), to(t) {}
  unsigned redirect(unsigned router, const noc::Flit& head) override {
    ++calls[router];
    return router == at && head.dest == from ? to : head.dest;
  }
};

// Probe deflection as a platform would install it: if the local sink refuses the head's class
// (its virtual network), send the head on to the next node.
struct DeflectIfRefused : noc::HeadHook {
  noc::Network* net;
  unsigned deflected = 0;
  explicit DeflectIfRefused(noc::Network* n) : net(n) {}
  unsigned redirect(unsigned, const noc::Flit& head) override {
    if (!net->ni(head.dest).refusing(head.vnet)) return head.dest;
    ++deflected;
    return (head.dest + 1u) % net->nodes();
  }
};
}  // namespace

TEST_CASE("head hook: a destination rewritten at router 1 goes on to node 2, one hop later", "[router][hook]") {
  const uint64_t t0 = 10;
  const unsigned F = 4;
  NocBench hooked("hooked", mesh_params(3, 1, 3, 2, 8));
  NocBench plain("plain", mesh_params(3, 1, 3, 2, 8));
  NocBench direct("direct", mesh_params(3, 1, 3, 2, 8));
  Rewrite hook(1, 1, 2);
  hooked.net->set_head_hook(&hook);
  CHECK(plain.net->router(1).head_hook() == nullptr);
  hooked.send(0, 1, t0, F, 100);
  plain.send(0, 1, t0, F, 100);
  direct.send(0, 2, t0, F, 100);
  hooked.run(t0 + 40);

  CHECK(arrival(plain, 1, 100) == t0 + 13);
  CHECK(arrival(direct, 2, 100) == t0 + 17);
  CHECK(arrival(hooked, 1, 100) == UINT64_MAX);
  CHECK(arrival(hooked, 2, 100) == t0 + 17);  // one hop (4 cycles) more than to node 1
  // The payload's destination was rewritten with the head; the source is unchanged.
  const MemExt* e = arrived_ext(hooked, 2, 100);
  REQUIRE(e);
  CHECK(e->dst == 2);
  CHECK(e->src == 0);
  // Consulted only where the head was to be ejected: router 1, then router 2 for the new node.
  CHECK(hook.calls[0] == 0);
  CHECK(hook.calls[1] == 1);
  CHECK(hook.calls[2] == 1);
  // Every flit (body and tail too) followed the head to router 2.
  CHECK(hooked.net->router(1).flits_switched() == F);
  CHECK(hooked.net->router(2).flits_switched() == F);
  CHECK(hooked.net->packets_in_flight() == 0);
}

TEST_CASE("head hook: deflection when the destination's NI refuses the packet's virtual network", "[router][hook]") {
  const uint64_t t0 = 10;
  NocBench b("b", mesh_params(3, 1, 3, 2, 8));
  NocBench nohook("nohook", mesh_params(3, 1, 3, 2, 8));
  DeflectIfRefused hook(b.net.get());
  b.net->set_head_hook(&hook);
  CHECK_FALSE(b.net->ni(1).refusing(0));
  b.net->ni(1).set_refusing(0, true);
  nohook.net->ni(1).set_refusing(0, true);
  CHECK(b.net->ni(1).refusing(0));
  b.send(0, 1, t0, 1, 1);       // refused at node 1: deflected to node 2
  b.send(0, 1, t0 + 40, 1, 2);  // accepted again by then
  nohook.send(0, 1, t0, 1, 1);
  b.run(t0 + 30);
  b.net->ni(1).set_refusing(0, false);
  b.run(40);
  CHECK(arrival(b, 1, 1) == UINT64_MAX);
  CHECK(arrival(b, 2, 1) == t0 + 14);  // 1-flit: 3 routers
  CHECK(arrival(b, 1, 2) == t0 + 40 + 10);  // 2 routers
  CHECK(hook.deflected == 1);
  // Refusal is a signal for the hook, not a block: without a hook the packet is ejected.
  CHECK(arrival(nohook, 1, 1) == t0 + 10);
}

TEST_CASE("head hook: with an escape VC a redirected packet passes traffic stuck on the other VC", "[router][hook][escape]") {
  // 4x1 mesh, 2 VCs. Node 1 floods node 3, whose sink stalls, so the link 1 -> 2 fills. A packet
  // 0 -> 1 redirected at router 1 to node 2 crosses that same link. With escape_vcs = 1 the flood
  // may only use VC 0 and the redirected packet only VC 1: it arrives as on an empty network
  // (1-flit, 3 routers: t0 + 14). Without, the flood holds both VCs and the packet waits for
  // the stall to end.
  const uint64_t t0 = 200, stall = 600;
  auto params = [](unsigned escape) {
    noc::Network::Params p = mesh_params(4, 1, 3, 2, 8);
    p.escape_vcs = escape;
    return p;
  };
  NocBench esc("esc", params(1));
  NocBench shared("shared", params(0));
  Rewrite he(1, 1, 2), hs(1, 1, 2);
  esc.net->set_head_hook(&he);
  shared.net->set_head_hook(&hs);
  for (NocBench* b : {&esc, &shared}) {
    b->dst[3].stall_until(stall);
    for (unsigned i = 0; i < 40; ++i) b->send(1, 3, 1 + i, 4, 1000 + i);
    b->send(0, 1, t0, 1, 1);
  }
  esc.run(stall + 600);
  CHECK(arrival(esc, 1, 1) == UINT64_MAX);
  CHECK(arrival(esc, 2, 1) == t0 + 14);
  CHECK(arrival(shared, 2, 1) > stall);
  for (NocBench* b : {&esc, &shared})
    for (unsigned i = 0; i < 40; ++i) CHECK(arrival(*b, 3, 1000 + i) != UINT64_MAX);  // all drain
}

namespace {
// Redirects at router 1 node 1's packets from node 0 to node 2, and at router 2 node 2's packets
// to node 3 (from node 0: a second redirect) or to node 4 (from node 1: a first).
struct TwoLevels : noc::HeadHook {
  unsigned redirect(unsigned router, const noc::Flit& head) override {
    if (router == 1 && head.dest == 1 && head.pkt->src == 0) return 2;
    if (router == 2 && head.dest == 2) return head.pkt->src == 0 ? 3 : 4;
    return head.dest;
  }
};
}  // namespace

TEST_CASE("head hook: a packet redirected twice travels on the second escape VC, past packets redirected once",
          "[router][hook][escape]") {
  // 5x1 mesh, 3 VCs, escape_vcs = 2. Node 1 floods node 2; router 2 redirects the flood to node
  // 4, whose sink stalls: the flood is on redirect level 1 (VC 1) on links 2 -> 3 -> 4 and fills
  // them. A packet 0 -> 1 is redirected at router 1 to node 2 (level 1: VC 1 of link 1 -> 2,
  // where the flood is still on VC 0) and at router 2 to node 3 (level 2: VC 2 of link 2 -> 3).
  // It arrives as a direct 0 -> 3 packet on an empty network. If all escape VCs took every
  // redirected packet, the flood would hold VC 2 of link 2 -> 3 too and the packet would wait
  // for the stall to end.
  const uint64_t t0 = 200, stall = 600;
  noc::Network::Params p = mesh_params(5, 1, 3, 3, 8);
  p.escape_vcs = 2;
  NocBench b("b", p);
  NocBench direct("direct", mesh_params(5, 1, 3, 3, 8));
  TwoLevels hook;
  b.net->set_head_hook(&hook);
  b.dst[4].stall_until(stall);
  for (unsigned i = 0; i < 40; ++i) b.send(1, 2, 1 + i, 4, 1000 + i);
  b.send(0, 1, t0, 1, 1);
  direct.send(0, 3, t0, 1, 1);
  b.run(stall + 600);
  CHECK(arrival(direct, 3, 1) == t0 + 18);  // 1-flit: 4 routers
  CHECK(arrival(b, 3, 1) == t0 + 18);
  CHECK(arrival(b, 1, 1) == UINT64_MAX);
  CHECK(arrival(b, 2, 1) == UINT64_MAX);
  CHECK(arrival(b, 4, 1039) > stall);  // the flood was held...
  for (unsigned i = 0; i < 40; ++i) CHECK(arrival(b, 4, 1000 + i) != UINT64_MAX);  // ...and all of it drains
}

TEST_CASE("head hook: a redirect past the network's escape VCs is a clear error", "[router][hook][escape][bad]") {
  noc::Network::Params p = mesh_params(5, 1, 3, 2, 8);
  p.escape_vcs = 1;
  NocBench b("b", p);
  TwoLevels hook;
  b.net->set_head_hook(&hook);
  b.send(0, 1, 10, 1, 1);  // redirected at router 1, then again at router 2
  REQUIRE_THROWS_WITH(b.run(60), Catch::Contains("b.noc.router_2") &&
                                     Catch::Contains("head hook redirected packet") &&
                                     Catch::Contains("again after 1 redirects, but the network's escape_vcs = 1 "
                                                     "carry at most 1 per packet"));
}

TEST_CASE("head hook: escape VCs are for a mesh and must leave a VC for other packets", "[router][hook][bad]") {
  noc::Network::Params p = mesh_params(3, 1, 3, 2, 8);
  p.escape_vcs = 2;
  REQUIRE_THROWS_WITH(NocBench("b1", p), Catch::Contains("escape_vcs = 2 leaves no VC for other packets"));
  p.escape_vcs = 1;
  p.topology = "crossbar";
  p.k = 3;
  REQUIRE_THROWS_WITH(NocBench("b2", p), Catch::Contains("escape_vcs = 1 is for a mesh"));
}

TEST_CASE("head hook: refusal of a virtual network that does not exist is an error", "[router][hook][bad]") {
  NocBench b("b", mesh_params(3, 1));
  REQUIRE_THROWS_WITH(b.net->ni(1).set_refusing(1, true),
                      Catch::Contains("set_refusing: virtual network 1 does not exist; the NI has 1"));
}

TEST_CASE("head hook: a rewritten destination that is not a node is a clear error", "[router][hook][bad]") {
  NocBench b("b", mesh_params(3, 1));
  Rewrite hook(1, 1, 7);
  b.net->set_head_hook(&hook);
  b.send(0, 1, 10, 1, 1);
  REQUIRE_THROWS_WITH(b.run(40), Catch::Contains("b.noc.router_1") &&
                                     Catch::Contains("head hook rewrote the destination of packet") &&
                                     Catch::Contains("(to node 1, virtual network 0) to node 7, which does not "
                                                     "exist: the network has 3 nodes"));
}
