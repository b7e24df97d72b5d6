// Router unit tests on small meshes: output-VC ownership (serialisation on one VC,
// interleaving on two), credit round trip limiting a single flow, per-hop pipeline delay and
// per-router switch counts.
//
// Timing used throughout (router.h, flit_link.h, network_interface.h), 1-cycle links unless
// stated: a message handed to the NI in cycle t0 is latched at t0+1 and its head is usable in
// the first router at t0+2. In a router of pipeline p a flit usable in cycle u does switch
// allocation (SA) in u + p - 2 (head: RC, VA, SA; a body flit may do SA as soon as it is
// usable and the flit ahead of it has left), is switched in SA+1 and usable downstream in
// SA + 2 + link_latency. The last router's SA in x delivers the
// tail to the target in x + 3. A credit for a slot freed by SA in x is usable upstream in
// x + 1 + credit_latency.
#include <catch2/catch.hpp>

#include <algorithm>

#include "noc_fixture.h"

using namespace gpusc;
using gpusc::tb::mesh_params;
using gpusc::tb::NocBench;

using gpusc::tb::arrival;

TEST_CASE("router: two packets for one output serialise on 1 VC and interleave on 2 VCs", "[router][vc]") {
  // 3x1 mesh, pipeline 3, 8-flit packets, buffers deep enough for a whole packet. Nodes 0 and 2
  // both send to node 1 at t0, so both heads reach router 1 (west and east inputs) in the same
  // cycle, t0+6: router 0/2 SA head at t0+3, usable at router 1 at t0+6.
  // At router 1 both heads do RC at t0+6 and ask for VA from t0+6. VA is one-iteration iSLIP
  // with every pointer at the start, so the output VCs grant the lower input index, the east
  // input (port 1, from node 2), first.
  //  1 VC : east takes the only ejection VC, SA t0+7 .. t0+14, tail delivered t0+17 (= zero
  //         load (3+1)*2 + 2 + 7). The VC frees when that tail is switched (t0+14, after VA in
  //         that cycle), so west wins VA at t0+15, SA t0+16 .. t0+23, tail delivered t0+26.
  //  2 VCs: both free VCs grant east at t0+6, which accepts VC0; west gets VC1 at t0+7. East
  //         may do SA from t0+7, west from t0+8; one output, so the switch allocator
  //         alternates (round-robin pointer passes to the other input): east flits at
  //         t0+7, 9, ..., 21, west at t0+8, ..., 22; tails delivered at t0+24 and t0+25.
  const uint64_t t0 = 10;
  const unsigned F = 8;
  NocBench one("one", mesh_params(3, 1, 3, 1, 8));
  NocBench two("two", mesh_params(3, 1, 3, 2, 8));
  for (NocBench* b : {&one, &two}) {
    b->send(0, 1, t0, F, 100);
    b->send(2, 1, t0, F, 200);
  }
  // Watch router 1's ejection port (port 0) cycle by cycle: a VC in use has credits < depth.
  bool two_both_used = false;
  for (uint64_t c = 0; c < t0 + 40; ++c) {
    sc_core::sc_start(two.clk.period());  // one cycle for both benches
    two_both_used |= two.net->router(1).credits(0, 0) < 8 && two.net->router(1).credits(0, 1) < 8;
  }
  CHECK(one.net->router(1).vcs() == 1);
  CHECK(two_both_used);  // with 2 VCs both packets held an ejection VC at the same time

  CHECK(arrival(one, 1, 200) == t0 + 17);
  CHECK(arrival(one, 1, 100) == t0 + 26);
  CHECK(arrival(two, 1, 200) == t0 + 24);
  CHECK(arrival(two, 1, 100) == t0 + 25);
  // Each router on the way switched every flit once: routers 0 and 2 one packet, router 1 two.
  for (NocBench* b : {&one, &two}) {
    CHECK(b->net->router(0).flits_switched() == F);
    CHECK(b->net->router(1).flits_switched() == 2 * F);
    CHECK(b->net->router(2).flits_switched() == F);
    CHECK(b->net->router(1).occupancy() == 0);
  }
}

TEST_CASE("router: a credit round trip bounds a single flow to depth / round trip", "[router][credits]") {
  // One flow of 1-flit packets from node 0 to node 1 of a 2x1 mesh, one VC, the source always
  // backlogged. On the router-to-router link a buffer slot is reused only after its credit
  // came back: router 0 switches a flit in x, it is usable at router 1 in x + 2 + L, switched
  // there in x + 2 + L + (p - 2), whose credit is usable at router 0 in that + 1 + CL. So the
  // round trip is RT = p + 1 + L + CL cycles, and with D slots the link carries exactly D flits
  // per RT cycles (D <= RT). The other loops are shorter and never bind here: injection
  // L + (p - 2) + 1 + CL, ejection 2 + L + CL; and the next packet is always routed before the
  // credit it needs comes back. The ejected stream therefore has arrival[j + D] - arrival[j] == RT
  // in steady state, i.e. D / RT flits per cycle.
  struct Case {
    unsigned pipeline, link, credit, depth;
  };
  const std::vector<Case> cases = {{3, 1, 1, 1}, {3, 1, 1, 2}, {2, 1, 1, 1}, {4, 1, 1, 1}, {3, 1, 3, 1},
                                   {3, 2, 1, 1}, {3, 2, 2, 3}};
  const unsigned N = 150;
  std::vector<std::unique_ptr<NocBench>> benches;
  for (size_t i = 0; i < cases.size(); ++i) {
    auto p = mesh_params(2, 1, cases[i].pipeline, 1, cases[i].depth);
    p.link_latency = cases[i].link;
    p.credit_latency = cases[i].credit;
    benches.push_back(std::make_unique<NocBench>(("b" + std::to_string(i)).c_str(), p));
    for (unsigned j = 0; j < N; ++j) benches[i]->send(0, 1, 10, 1, j);
  }
  sc_core::sc_start(benches[0]->clk.time_of(10 + 10 * N));
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const unsigned rt = c.pipeline + 1 + c.link + c.credit;
    INFO("pipeline " << c.pipeline << " link " << c.link << " credit " << c.credit << " depth " << c.depth
                     << ": round trip " << rt);
    const auto& a = benches[i]->dst[1].arrivals();
    REQUIRE(a.size() == N);
    for (unsigned j = 0; j < N; ++j) REQUIRE(a[j].ext.pc == j);  // in order, none lost
    const unsigned lo = 20, hi = N - 20;                         // steady state
    for (unsigned j = lo; j + c.depth < hi; ++j) {
      INFO("packet " << j);
      CHECK(a[j + c.depth].cycle - a[j].cycle == rt);
    }
    const unsigned span = (hi - lo) / c.depth * c.depth;
    const double rate = static_cast<double>(span) / static_cast<double>(a[lo + span].cycle - a[lo].cycle);
    CHECK(rate == Approx(static_cast<double>(c.depth) / rt));
  }
}

TEST_CASE("router: pipeline 2/3/4 costs exactly one more cycle per router per stage", "[router][pipeline]") {
  // 8x1 mesh, one packet at a time. From node 0 to node d the packet crosses H = d + 1 routers;
  // per router it spends p cycles and 1 on the following link, so latency = (p+1)*H + 2 + F-1.
  // Hence latency(p+1) - latency(p) == H, and one more hop adds p + 1 cycles.
  const unsigned pipes[3] = {2, 3, 4};
  std::vector<std::unique_ptr<NocBench>> b;
  for (unsigned p : pipes) b.push_back(std::make_unique<NocBench>(("p" + std::to_string(p)).c_str(), mesh_params(8, 1, p, 1, 4)));
  struct Sent {
    unsigned d, flits;
    uint64_t t0;
  };
  std::vector<Sent> sent;
  uint64_t t = 10;
  for (unsigned flits : {1u, 3u})
    for (unsigned d = 1; d < 8; ++d, t += 60) {
      for (auto& x : b) x->send(0, d, t, flits, t);
      sent.push_back({d, flits, t});
    }
  sc_core::sc_start(b[0]->clk.time_of(t + 60));
  for (const Sent& s : sent) {
    const unsigned H = s.d + 1;
    INFO("to node " << s.d << ", " << s.flits << " flits");
    uint64_t lat[3];
    for (unsigned i = 0; i < 3; ++i) {
      const uint64_t a = arrival(*b[i], s.d, s.t0);
      REQUIRE(a != UINT64_MAX);
      lat[i] = a - s.t0;
      CHECK(lat[i] == (pipes[i] + 1) * H + 2 + s.flits - 1);
    }
    CHECK(lat[1] - lat[0] == H);
    CHECK(lat[2] - lat[1] == H);
  }
  // Router r lies on the path to every d >= max(r, 1), and each such packet (1 + 3 flits over
  // the two rounds) is switched there once per flit: 4 * (8 - max(r, 1)) flits.
  for (auto& x : b)
    for (unsigned r = 0; r < 8; ++r) {
      INFO(x->name() << " router " << r);
      CHECK(x->net->router(r).flits_switched() == 4u * (8 - std::max(r, 1u)));
    }
}

TEST_CASE("router: VC allocation is one-iteration iSLIP: an input VC's accept pointer moves past the VC it took",
          "[router][vc]") {
  // 2x1 mesh, pipeline 3, 2 VCs, three 1-flit packets from node 0 to node 1, 40 cycles apart
  // (so every VC is free whenever one asks). The NI takes router 0's input VCs round-robin:
  // packets 0, 1, 2 arrive in input VCs 0, 1, 0. In VA every free output VC grants the lone
  // requester, which accepts the first one from its accept pointer in (port, VC) order; the
  // pointer then moves past the VC taken. So on router 0's east output: packet 0 (input VC0,
  // pointer at the start) takes VC0; packet 1 (input VC1, fresh pointer) takes VC0; packet 2
  // (input VC0, pointer now past east VC0) takes VC1. A "lowest free VC" rule gives 0, 0, 0.
  NocBench b("b", mesh_params(2, 1, 3, 2, 8));
  const uint64_t t0 = 10, gap = 40;
  for (unsigned j = 0; j < 3; ++j) b.send(0, 1, t0 + j * gap, 1, j);
  // A packet handed over at t is usable in router 0 at t + 2 and switched there (SA) at t + 3;
  // until its credit returns its output VC shows fewer credits than the depth: look at t + 5.
  std::vector<int> used(3, -1);
  for (uint64_t c = 0; c < t0 + 3 * gap; ++c) {
    sc_core::sc_start(b.clk.period());
    for (unsigned j = 0; j < 3; ++j) {
      if (b.clk.now() != t0 + j * gap + 5) continue;
      for (unsigned port : gpusc::tb::connected_out_ports(*b.net, 0))
        for (unsigned v = 0; v < 2; ++v)
          if (b.net->router(0).credits(port, v) < 8) used[j] = static_cast<int>(v);
    }
  }
  CHECK(used[0] == 0);
  CHECK(used[1] == 0);
  CHECK(used[2] == 1);
  for (unsigned j = 0; j < 3; ++j) CHECK(arrival(b, 1, j) == t0 + j * gap + 3 + 4 + 3);
}

TEST_CASE("router: a body flit does switch allocation in the cycle it arrives (no RC or VA for it)",
          "[router][pipeline]") {
  // 2x1 mesh, pipeline 4, 1 VC of depth 2, one 4-flit packet from node 0 to node 1 handed over
  // at t0. Credits make the body flits arrive at router 1 after gaps, so when each may do SA
  // shows. Hand-derived (timing rules at the top of this file):
  //   NI: flits 0, 1 sent at t0+1, t0+2 (usable in router 0 at t0+2, t0+3); then it waits for
  //       credits: router 0 frees slots by SA at t0+4, t0+5, usable at the NI at t0+6, t0+7,
  //       so flits 2, 3 are usable in router 0 at t0+7, t0+8.
  //   Router 0: head RC t0+2, VA t0+3, SA t0+4; flit 1 SA t0+5 (its second downstream credit).
  //   Router 1: head usable t0+7: RC, VA t0+8, SA t0+9; flit 1 usable t0+8, SA t0+10. Their
  //       credits are usable at router 0 at t0+11 and t0+12, where flits 2 and 3 do SA then,
  //       usable at router 1 at t0+14 and t0+15, and (body flits, the VC already allocated) they
  //       do SA there in those very cycles. The tail, switched at t0+15, reaches the target at
  //       t0+18. A router that made body flits wait for the head's RC and VA stages again would
  //       switch them at t0+16 and t0+17 and deliver at t0+20.
  NocBench b("b", mesh_params(2, 1, 4, 1, 2));
  const uint64_t t0 = 10;
  b.send(0, 1, t0, 4, 7);
  b.run(t0 + 40);
  CHECK(arrival(b, 1, 7) == t0 + 18);
}
