// Network-level properties: exact zero-load latency, conservation under random load up to and
// past saturation, multicast delivery, back-pressure, bad configurations.
#include <catch2/catch.hpp>

#include <random>

#include "noc_fixture.h"

using namespace gpusc;
using gpusc::tb::NocBench;

namespace {
noc::Network::Params mesh(unsigned k, unsigned m, unsigned pipeline, unsigned vcs = 2, unsigned depth = 8) {
  noc::Network::Params p;
  p.topology = "mesh";
  p.k = k;
  p.m = m;
  p.routing = "xy";
  p.router.vnets = 1;
  p.router.vcs_per_vnet = vcs;
  p.router.vc_depth = depth;
  p.router.pipeline = pipeline;
  p.ni.header_bytes = 0;
  p.ni.flit_bytes = 16;
  return p;
}
}  // namespace

TEST_CASE("zero-load latency equals (pipeline+1)*H + 2 + (flits-1) on meshes", "[network][latency]") {
  // One packet at a time, far apart, so nothing contends. Handed to the NI at cycle c0, the
  // packet is latched at c0+1, usable in the first router at c0+2, spends pipeline cycles in
  // each of the H routers and 1 on each of the H-1 links and on the ejection channel; the
  // tail follows the head by flits-1 cycles.
  struct Case { unsigned k, m, pipeline, flits; };
  const std::vector<Case> cases = {{4, 4, 2, 1}, {4, 4, 3, 1}, {4, 4, 4, 1}, {8, 8, 3, 5}, {8, 8, 4, 9}, {3, 5, 2, 4}};
  std::vector<std::unique_ptr<NocBench>> benches;
  std::vector<std::vector<std::tuple<unsigned, unsigned, uint64_t>>> sent(cases.size());
  uint64_t end = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    benches.push_back(std::make_unique<NocBench>(("b" + std::to_string(i)).c_str(), mesh(c.k, c.m, c.pipeline)));
    const unsigned n = c.k * c.m;
    uint64_t t = 10;
    for (unsigned s = 0; s < n; s += 3)
      for (unsigned d = (s * 7 + 1) % n, j = 0; j < 2; ++j, d = (d + n / 2 + 1) % n) {
        benches[i]->send(s, d, t, c.flits, t);
        sent[i].emplace_back(s, d, t);
        t += 200;
      }
    end = std::max(end, t + 200);
  }
  sc_core::sc_start(benches[0]->clk.time_of(end));
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    NocBench& b = *benches[i];
    for (auto [s, d, t0] : sent[i]) {
      const auto& arr = b.dst[d].arrivals();
      auto it = std::find_if(arr.begin(), arr.end(), [&](const auto& a) { return a.ext.pc == t0; });
      REQUIRE(it != arr.end());
      const uint64_t H = b.net->hops(s, d);
      INFO("mesh " << c.k << "x" << c.m << " pipeline " << c.pipeline << " src " << s << " dst " << d << " H " << H);
      CHECK(it->cycle - t0 == (c.pipeline + 1) * H + 2 + (c.flits - 1));
    }
  }
}

TEST_CASE("zero-load latency on ring and crossbar", "[network][latency]") {
  noc::Network::Params p = mesh(8, 1, 3);
  p.topology = "ring";
  NocBench ring("ring", p);
  p.topology = "crossbar";
  NocBench xbar("xbar", p);
  uint64_t t = 5;
  std::vector<std::tuple<unsigned, unsigned, uint64_t>> sent;
  for (unsigned s = 0; s < 8; ++s) {
    const unsigned d = (s + 3) % 8;
    ring.send(s, d, t, 2, t);
    xbar.send(s, d, t, 2, t);
    sent.emplace_back(s, d, t);
    t += 100;
  }
  sc_core::sc_start(ring.clk.time_of(t + 100));
  for (NocBench* b : {&ring, &xbar})
    for (auto [s, d, t0] : sent) {
      const auto& a = b->dst[d].arrivals();
      REQUIRE(a.size() == 1);
      INFO(b->name() << " src " << s << " dst " << d);
      // 3-stage routers: 4 cycles per router; ring hops = min distance + 1; crossbar = 1 router.
      CHECK(a[0].cycle - t0 == 4 * b->net->hops(s, d) + 2 + 1);
    }
}
