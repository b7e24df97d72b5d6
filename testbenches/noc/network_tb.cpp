// Network-level properties: exact zero-load latency, conservation under random load up to and
// past saturation, multicast delivery, back-pressure, bad configurations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <utility>

#include "noc_fixture.h"

using namespace gpusc;
using gpusc::tb::NocBench;
using gpusc::tb::TrafficBench;

namespace {
noc::Network::Params mesh(unsigned k, unsigned m, unsigned pipeline, unsigned vcs = 2, unsigned depth = 8) {
  return tb::mesh_params(k, m, pipeline, vcs, depth);
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

// ---------------------------------------------------------------------------------------------
// Conservation under random traffic, below and past saturation.
// ---------------------------------------------------------------------------------------------

namespace {

struct TrafficCase {
  std::string label;
  noc::Network::Params net;
  double rate;
  unsigned flits;
  uint64_t cycles;  // generation window
  bool in_order;    // one VC per virtual network and one path per flow: FIFO end to end
  bool saturated;   // offered load above what the network accepts
};

TrafficCase traffic_case(const std::string& label, noc::Network::Params net, double rate, unsigned flits,
                         unsigned vcs, unsigned depth, uint64_t cycles, bool saturated) {
  net.router.vcs_per_vnet = vcs;
  net.router.vc_depth = depth;
  // With one VC per vnet a flow's packets enter the one injection VC in creation order and
  // follow one path (DOR, shortest ring direction, the single crossbar) through FIFO buffers.
  const bool in_order = vcs == 1;
  return {label, net, rate, flits, cycles, in_order, saturated};
}

// Runs every case in one design (uniform random traffic from a TrafficTerminal on each node),
// lets all of them drain and checks, per case:
//  * no deadlock: while packets remain, every 2000-cycle slice delivers some; and everything
//    drains within a bound that assumes the network sustains >= 0.05 flits/node/cycle;
//  * no loss, no duplication: for every (source, destination) pair the destination received as
//    many packets as the source sent, with sequence numbers summing to 0 + 1 + ... + (n-1);
//  * order per flow when the configuration guarantees it (out_of_order() == 0);
//  * flit-hops equal sum over packets of flits * routers on its minimal path (nothing switched
//    twice or detoured);
//  * credits, packet records and payloads all returned once drained.
void check_conservation(const std::vector<TrafficCase>& cases) {
  std::vector<std::unique_ptr<TrafficBench>> b;
  for (size_t i = 0; i < cases.size(); ++i) {
    noc::TrafficTerminal::Params t;
    t.traffic = "uniform";
    t.rate = cases[i].rate;
    t.packet_flits = cases[i].flits;
    t.flit_bytes = cases[i].net.ni.flit_bytes;
    t.header_bytes = cases[i].net.ni.header_bytes;
    t.warmup = 0;
    t.cycles = cases[i].cycles;
    b.push_back(std::make_unique<TrafficBench>(("t" + std::to_string(i)).c_str(), cases[i].net, t, 7 + i));
  }
  // Run in slices. At the end of a case's generation window: past saturation its sources have
  // piled up a backlog, below it they keep up; the drain bound is set from what is left. After
  // the window, every slice must deliver something until the case has drained.
  ClockDomain& clk = b[0]->clk;
  const uint64_t slice = 2000;
  std::vector<uint64_t> bound(cases.size(), UINT64_MAX), done_at(cases.size(), UINT64_MAX);
  uint64_t cap = 0;
  for (const TrafficCase& c : cases) {
    REQUIRE(c.cycles % slice == 0);
    cap = std::max(cap, c.cycles);
  }
  for (;;) {
    std::vector<uint64_t> before(cases.size());
    for (size_t i = 0; i < cases.size(); ++i) before[i] = b[i]->received();
    sc_core::sc_start(clk.time_of(slice));
    const uint64_t now = clk.now();
    bool all = true;
    for (size_t i = 0; i < cases.size(); ++i) {
      TrafficBench& x = *b[i];
      const unsigned n = x.net->nodes();
      INFO(cases[i].label << " at cycle " << now);
      if (now == cases[i].cycles) {
        if (cases[i].saturated) CHECK(x.backlog() > 10 * n);
        else CHECK(x.backlog() <= n);
        const uint64_t flits_left = (x.created() - x.received()) * cases[i].flits;
        bound[i] = now + static_cast<uint64_t>(static_cast<double>(flits_left) / (0.05 * n)) + 5000;
        cap = std::max(cap, bound[i]);
      }
      if (now > cases[i].cycles && done_at[i] == UINT64_MAX) {
        if (x.drained()) done_at[i] = now;
        else REQUIRE(x.received() > before[i]);  // no deadlock: still delivering
      }
      all &= done_at[i] != UINT64_MAX;
    }
    if (all || now >= cap) break;
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    TrafficBench& x = *b[i];
    const TrafficCase& c = cases[i];
    const unsigned n = x.net->nodes();
    INFO(c.label << ": " << x.created() << " packets, drained by cycle " << done_at[i] << " (bound " << bound[i]
                 << ")");
    REQUIRE(x.drained());
    CHECK(done_at[i] <= bound[i]);
    CHECK(x.created() > 0);
    uint64_t sent = 0, hops = 0, ejected = 0, out_of_order = 0;
    for (unsigned s = 0; s < n; ++s)
      for (unsigned d = 0; d < n; ++d) {
        const uint64_t k = x.term[s].sent_to(d);
        sent += k;
        hops += k * x.net->hops(s, d) * c.flits;
        if (x.term[d].received_from(s) != k || x.term[d].seq_sum_from(s) != (k == 0 ? 0 : k * (k - 1) / 2)) {
          FAIL_CHECK("flow " << s << " -> " << d << ": sent " << k << ", received " << x.term[d].received_from(s)
                             << " with sequence sum " << x.term[d].seq_sum_from(s));
        }
      }
    for (unsigned d = 0; d < n; ++d) {
      ejected += x.net->ni(d).packets_ejected();
      out_of_order += x.term[d].out_of_order();
    }
    CHECK(sent == x.created());
    CHECK(ejected == x.created());
    CHECK(x.net->flit_hops() == hops);
    if (c.in_order) CHECK(out_of_order == 0);
    CHECK(x.net->packets_in_flight() == 0);
    CHECK(x.pool.in_use() == 0);
    for (unsigned r = 0; r < x.net->routers(); ++r) {
      noc::Router& rt = x.net->router(r);
      CHECK(rt.occupancy() == 0);
      for (unsigned port : tb::connected_out_ports(*x.net, r))
        for (unsigned vc = 0; vc < rt.vcs(); ++vc) {
          INFO("router " << r << " port " << port << " vc " << vc);
          CHECK(rt.credits(port, vc) == c.net.router.vc_depth);
        }
    }
  }
}

// Loads 0.1 and 0.8 flits/node/cycle offered for 1e5 cycles. At 0.8 every configuration here
// is past saturation: the sources' backlog keeps the network saturated for the whole window
// and then until it drains (checked: the backlog at the end of the window).
constexpr uint64_t kCycles = 100000;

std::vector<TrafficCase> load_matrix(const std::string& name, const noc::Network::Params& p, unsigned vcs) {
  return {
      traffic_case(name + " 0.1 1-flit", p, 0.1, 1, vcs, 8, kCycles, false),
      traffic_case(name + " 0.1 5-flit", p, 0.1, 5, vcs, 8, kCycles, false),
      traffic_case(name + " 0.1 5-flit depth 2", p, 0.1, 5, vcs, 2, kCycles, false),
      traffic_case(name + " 0.8 1-flit", p, 0.8, 1, vcs, 8, kCycles, true),
      traffic_case(name + " 0.8 5-flit", p, 0.8, 5, vcs, 8, kCycles, true),
      traffic_case(name + " 0.8 5-flit depth 2", p, 0.8, 5, vcs, 2, kCycles, true),
  };
}

}  // namespace

TEST_CASE("conservation: XY mesh under random traffic below and past saturation", "[network][conservation]") {
  auto p = mesh(4, 4, 3);
  auto cases = load_matrix("mesh4x4 xy", p, 1);
  // Two VCs and the separable allocator: still no loss (order is not guaranteed then).
  p.router.allocator = "separable";
  cases.push_back(traffic_case("mesh4x4 xy 2 VCs separable 0.8 5-flit depth 2", p, 0.8, 5, 2, 2, kCycles, true));
  check_conservation(cases);
}

TEST_CASE("conservation: YX mesh under random traffic below and past saturation", "[network][conservation]") {
  auto p = mesh(4, 3, 2);  // non-square, speculative 2-stage routers
  p.routing = "yx";
  auto cases = load_matrix("mesh4x3 yx", p, 1);
  p.router.pipeline = 4;
  cases.push_back(traffic_case("mesh4x3 yx pipeline 4 0.8 5-flit depth 2", p, 0.8, 5, 1, 2, kCycles, true));
  check_conservation(cases);
}

TEST_CASE("conservation: ring under random traffic below and past saturation", "[network][conservation]") {
  auto p = mesh(8, 1, 3);
  p.topology = "ring";
  auto cases = load_matrix("ring8", p, 2);  // the dateline needs two VCs per vnet
  cases.push_back(traffic_case("ring8 3 VCs 0.8 5-flit depth 2", p, 0.8, 5, 3, 2, kCycles, true));
  check_conservation(cases);
}

TEST_CASE("conservation: crossbar under random traffic below and past saturation", "[network][conservation]") {
  auto p = mesh(8, 1, 3);
  p.topology = "crossbar";
  p.router.allocator = "separable";
  check_conservation(load_matrix("crossbar8", p, 1));
}

// ---------------------------------------------------------------------------------------------
// Multicast.
// ---------------------------------------------------------------------------------------------

namespace {

DestSet random_set(std::mt19937_64& rng, unsigned nodes, unsigned lo, unsigned hi) {
  const unsigned size = lo + static_cast<unsigned>(rng() % (hi - lo + 1));
  DestSet d;
  while (d.count() < size) d.add(static_cast<unsigned>(rng() % nodes));
  return d;
}

// Links (from, to) used by the union of the XY paths from s to every destination, counting the
// ejection link at each destination (to = UINT_MAX). A tree multicast switches each flit once
// per link of this union; a unicast to d uses hops(s, d) links.
unsigned xy_tree_links(unsigned k, unsigned s, const DestSet& dests) {
  std::set<std::pair<unsigned, unsigned>> links;
  dests.for_each([&](unsigned d) {
    unsigned cur = s;
    while (cur != d) {
      const unsigned x = cur % k, y = cur / k, dx = d % k, dy = d / k;
      const unsigned next = x != dx ? (dx > x ? cur + 1 : cur - 1) : (dy > y ? cur + k : cur - k);
      links.insert({cur, next});
      cur = next;
    }
    links.insert({d, UINT32_MAX});
  });
  return static_cast<unsigned>(links.size());
}

// Every node received tag `tag` exactly once if it is in `dests`, never otherwise.
void check_copies(NocBench& b, uint64_t tag, const DestSet& dests) {
  for (unsigned n = 0; n < b.net->nodes(); ++n) {
    const auto& a = b.dst[n].arrivals();
    const auto copies = std::count_if(a.begin(), a.end(), [&](const auto& x) { return x.ext.pc == tag; });
    INFO(b.name() << " tag " << tag << " node " << n);
    CHECK(copies == (dests.contains(n) ? 1 : 0));
  }
}

}  // namespace

TEST_CASE("multicast on a mesh: one copy per destination and fewer flit-hops than the unicasts",
          "[network][multicast]") {
  // One multicast at a time (spaced so nothing contends) from a random source to a random set of
  // 2..8 of the 16 nodes (the source may be one). Bench `mc` sends it as one packet with
  // MemExt::dests, bench `uc` as one unicast per destination.
  //  * Each destination gets one copy, nobody else.
  //  * Zero load: the tree's branches never wait for each other (an output per branch), so d
  //    receives its copy exactly at the unicast zero-load latency 4*H(s,d) + 2 + F-1.
  //  * Flit-hops: the tree switches each flit once per link of the union of the XY paths;
  //    the unicasts F * sum of H(s, d). The union is never larger, and strictly smaller as soon
  //    as two paths share a link; summed over all multicasts it is strictly smaller.
  const unsigned F = 4, M = 40;
  const uint64_t gap = 120;
  NocBench mc("mc", mesh(4, 4, 3, 2, 8)), uc("uc", mesh(4, 4, 3, 2, 8));
  std::mt19937_64 rng(11);
  std::vector<std::pair<unsigned, DestSet>> sent;
  for (unsigned i = 0; i < M; ++i) {
    const unsigned s = static_cast<unsigned>(rng() % 16);
    const DestSet d = random_set(rng, 16, 2, 8);
    const uint64_t t = 10 + gap * i;
    mc.multicast(s, d, t, F, i);
    d.for_each([&](unsigned x) { uc.send(s, x, t, F, i); });
    sent.emplace_back(s, d);
  }
  uint64_t mc_total = 0, uc_total = 0, uc_expected = 0;
  for (unsigned i = 0; i < M; ++i) {
    const uint64_t mc0 = mc.net->flit_hops(), uc0 = uc.net->flit_hops();
    sc_core::sc_start(mc.clk.time_of(gap));  // to cycle gap*(i+1): multicast i is done, i+1 not begun
    const auto& [s, d] = sent[i];
    INFO("multicast " << i << " from " << s << " to " << d.count() << " nodes");
    const uint64_t mc_hops = mc.net->flit_hops() - mc0, uc_hops = uc.net->flit_hops() - uc0;
    uint64_t unicast = 0;
    d.for_each([&](unsigned x) { unicast += F * mc.net->hops(s, x); });
    CHECK(mc_hops == F * xy_tree_links(4, s, d));
    CHECK(uc_hops == unicast);
    CHECK(mc_hops <= uc_hops);
    mc_total += mc_hops;
    uc_total += uc_hops;
    uc_expected += unicast;
    const uint64_t t = 10 + gap * i;
    d.for_each([&](unsigned x) {
      const auto& a = mc.dst[x].arrivals();
      auto it = std::find_if(a.begin(), a.end(), [&](const auto& y) { return y.ext.pc == i; });
      REQUIRE(it != a.end());
      INFO("destination " << x);
      CHECK(it->cycle - t == 4 * mc.net->hops(s, x) + 2 + F - 1);
    });
  }
  for (unsigned i = 0; i < M; ++i) {
    check_copies(mc, i, sent[i].second);
    check_copies(uc, i, sent[i].second);
  }
  CHECK(uc_total == uc_expected);
  CHECK(mc_total < uc_total);
  for (NocBench* b : {&mc, &uc}) {
    CHECK(b->net->packets_in_flight() == 0);
    CHECK(b->pool.in_use() == 0);
  }
}

TEST_CASE("multicast on a crossbar: all copies leave at once", "[network][multicast]") {
  // A crossbar switch replicates a flit to all its outputs in one cycle (one SA grant with
  // several outputs), so every destination receives its copy at the 1-router zero-load latency
  // 4 + 2 + F-1, and the router switches F flits per destination. Sent as unicasts instead, the
  // source's injection channel carries them one after the other (one flit per cycle), so the
  // last copy cannot arrive before that latency plus (|D| - 1) * F.
  const unsigned F = 3, M = 30, n = 8;
  const uint64_t gap = 100;
  auto p = mesh(n, 1, 3, 1, 4);
  p.topology = "crossbar";
  NocBench mc("mc", p), uc("uc", p);
  std::mt19937_64 rng(5);
  std::vector<std::pair<unsigned, DestSet>> sent;
  for (unsigned i = 0; i < M; ++i) {
    const unsigned s = static_cast<unsigned>(rng() % n);
    const DestSet d = random_set(rng, n, 2, n);
    mc.multicast(s, d, 10 + gap * i, F, i);
    d.for_each([&](unsigned x) { uc.send(s, x, 10 + gap * i, F, i); });
    sent.emplace_back(s, d);
  }
  sc_core::sc_start(mc.clk.time_of(10 + gap * M + 100));
  uint64_t copies = 0;
  for (unsigned i = 0; i < M; ++i) {
    const uint64_t t = 10 + gap * i;
    const DestSet& d = sent[i].second;
    check_copies(mc, i, d);
    check_copies(uc, i, d);
    copies += d.count();
    uint64_t uc_last = 0;
    d.for_each([&](unsigned x) {
      INFO("multicast " << i << " destination " << x);
      for (const auto& a : mc.dst[x].arrivals())
        if (a.ext.pc == i) CHECK(a.cycle - t == 4 + 2 + F - 1);
      for (const auto& a : uc.dst[x].arrivals())
        if (a.ext.pc == i) uc_last = std::max(uc_last, a.cycle - t);
    });
    CHECK(uc_last >= 4 + 2 + F - 1 + (d.count() - 1) * F);
  }
  CHECK(mc.net->flit_hops() == copies * F);
  CHECK(uc.net->flit_hops() == copies * F);
  for (NocBench* b : {&mc, &uc}) {
    CHECK(b->net->packets_in_flight() == 0);
    CHECK(b->pool.in_use() == 0);  // each copy released once by its target, no more
  }
}

TEST_CASE("multicast under load: every destination gets exactly one copy", "[network][multicast]") {
  // Every node issues random multicasts (1..n destinations) with random gaps, enough to load
  // the ejection channels heavily, mixed with unicasts, on an XY mesh with 2 VCs, a YX mesh
  // with 1 VC and a crossbar. Packets are no longer than a VC buffer, so each branch of a tree
  // can always finish once its packet is at the front (no branch waits on a sibling's output).
  // After draining: exactly one copy per destination, none elsewhere, nothing left in flight.
  auto yx = mesh(4, 4, 3, 1, 4);
  yx.routing = "yx";
  auto xbar = mesh(8, 1, 3, 1, 4);
  xbar.topology = "crossbar";
  NocBench a("xy", mesh(4, 4, 3, 2, 4)), b("yx", yx), c("xbar", xbar);
  std::vector<std::vector<std::pair<uint64_t, DestSet>>> sent(3);
  std::mt19937_64 rng(3);
  uint64_t end = 0;
  NocBench* benches[3] = {&a, &b, &c};
  for (unsigned k = 0; k < 3; ++k) {
    NocBench& x = *benches[k];
    const unsigned n = x.net->nodes();
    uint64_t tag = 0;
    for (unsigned s = 0; s < n; ++s) {
      uint64_t t = 5 + rng() % 20;
      for (unsigned j = 0; j < 60; ++j, t += 1 + rng() % 40) {
        const DestSet d = random_set(rng, n, 1, n);
        const unsigned flits = 1 + static_cast<unsigned>(rng() % 4);
        x.multicast(s, d, t, flits, tag);
        sent[k].emplace_back(tag++, d);
      }
      end = std::max(end, t);
    }
  }
  sc_core::sc_start(a.clk.time_of(end));
  for (uint64_t guard = 0; guard < 100; ++guard) {
    bool idle = true;
    for (NocBench* x : benches)
      for (unsigned s = 0; s < x->net->nodes(); ++s) idle &= x->src[s].queued() == 0;
    for (NocBench* x : benches) idle &= x->net->packets_in_flight() == 0 && x->pool.in_use() == 0;
    if (idle) break;
    sc_core::sc_start(a.clk.time_of(1000));
  }
  for (unsigned k = 0; k < 3; ++k) {
    NocBench& x = *benches[k];
    INFO(x.name() << " drained by cycle " << x.clk.now());
    REQUIRE(x.net->packets_in_flight() == 0);
    REQUIRE(x.pool.in_use() == 0);
    uint64_t copies = 0, arrivals = 0;
    for (const auto& [tag, d] : sent[k]) copies += d.count();
    for (unsigned nd = 0; nd < x.net->nodes(); ++nd) arrivals += x.dst[nd].arrivals().size();
    CHECK(arrivals == copies);
    // Per tag and node, exactly the destinations (a sorted pass instead of one scan per tag).
    std::vector<std::vector<unsigned>> got(sent[k].size());
    for (unsigned nd = 0; nd < x.net->nodes(); ++nd)
      for (const auto& r : x.dst[nd].arrivals()) got.at(r.ext.pc).push_back(nd);
    for (const auto& [tag, d] : sent[k]) {
      std::vector<unsigned> want;
      d.for_each([&](unsigned nd) { want.push_back(nd); });
      std::sort(got[tag].begin(), got[tag].end());
      INFO("tag " << tag);
      CHECK(got[tag] == want);
    }
  }
}

TEST_CASE("multicast packets as long as a VC: no deadlock under saturating load", "[network][multicast]") {
  // Every packet is exactly one VC long (4 flits in 4-flit VCs), multicasts and unicasts mixed,
  // each node injecting faster than the network drains, on a 4x4 XY mesh with 1 VC and a YX
  // mesh with 2 VCs. A packet that fits in a VC can always enter its input VC whole, so no
  // branch waits for flits held back by a blocked sibling (router.cpp, Router::route): the trees
  // only wait on their own downstream paths. Everything must drain, one copy per destination.
  auto yx = mesh(4, 4, 3, 2, 4);
  yx.routing = "yx";
  NocBench a("xy1", mesh(4, 4, 3, 1, 4)), b("yx2", yx);
  std::vector<std::vector<std::pair<uint64_t, DestSet>>> sent(2);
  std::mt19937_64 rng(5);
  uint64_t end = 0;
  NocBench* benches[2] = {&a, &b};
  for (unsigned k = 0; k < 2; ++k) {
    NocBench& x = *benches[k];
    uint64_t tag = 0;
    for (unsigned s = 0; s < 16; ++s) {
      uint64_t t = 5;
      for (unsigned j = 0; j < 80; ++j, t += 1 + rng() % 6) {
        const DestSet d = random_set(rng, 16, 1, 10);
        x.multicast(s, d, t, 4, tag);
        sent[k].emplace_back(tag++, d);
      }
      end = std::max(end, t);
    }
  }
  sc_core::sc_start(a.clk.time_of(end + 20000));
  for (unsigned k = 0; k < 2; ++k) {
    NocBench& x = *benches[k];
    INFO(x.name());
    REQUIRE(x.net->packets_in_flight() == 0);  // a deadlock leaves packets in flight
    REQUIRE(x.pool.in_use() == 0);
    uint64_t copies = 0, arrivals = 0;
    for (const auto& [tag, d] : sent[k]) copies += d.count();
    for (unsigned nd = 0; nd < 16; ++nd) arrivals += x.dst[nd].arrivals().size();
    CHECK(arrivals == copies);
  }
}

// ---------------------------------------------------------------------------------------------
// Lanes: a network split over threads gives the results of one thread.
// ---------------------------------------------------------------------------------------------

namespace {

// Every statistic below `m` (routers, NIs, terminals), keyed by its name under m.
json stats_below(sc_core::sc_module& m) {
  json values, meta;
  std::vector<std::string> failures;
  for (StatGroup* g : find_stat_groups(&m)) g->dump(values, meta, failures);
  json out;
  const std::string prefix = std::string(m.name()) + ".";
  for (auto& [k, v] : values.items()) out[k.substr(prefix.size())] = v;
  CHECK(failures.empty());
  return out;
}

// Runs the same random traffic on a network with one lane and on one split into `lanes`, side
// by side in one design, until both drain; every statistic must match, and the split one must have
// returned every packet record and payload. `saturated`: the load is past what the network
// accepts (checked: the sources' backlog at the end of the generation window).
void check_lanes_match(const noc::Network::Params& p, unsigned lanes, double rate, unsigned flits, bool saturated) {
  noc::TrafficTerminal::Params t;
  t.rate = rate;
  t.packet_flits = flits;
  t.flit_bytes = p.ni.flit_bytes;
  t.warmup = 0;
  t.cycles = 6000;
  TrafficBench one("one", p, t, 11), split("split", p, t, 11, lanes);
  CHECK(split.clk.lanes() == lanes);
  std::set<unsigned> used;
  for (unsigned n = 0; n < split.net->nodes(); ++n) used.insert(split.net->lane_of(n));
  CHECK(used.size() == lanes);  // every lane has nodes
  sc_core::sc_start(one.clk.time_of(t.cycles));
  if (saturated) CHECK(one.backlog() > 10 * one.net->nodes());
  else CHECK(one.backlog() <= one.net->nodes());
  while (!(one.drained() && split.drained()) && one.clk.now() < 200000) sc_core::sc_start(one.clk.time_of(2000));
  REQUIRE(one.drained());
  REQUIRE(split.drained());
  CHECK(one.created() > 0);
  CHECK(split.net->flit_hops() == one.net->flit_hops());
  const json a = stats_below(one), b = stats_below(split);
  CHECK(a.size() > 100);
  for (auto& [k, v] : a.items()) {
    INFO(k);
    REQUIRE(b.contains(k));
    CHECK(b[k] == v);
  }
  CHECK(split.net->packets_in_flight() == 0);
  CHECK(split.pool.in_use() == 0);
  for (unsigned n = 0; n < split.net->nodes(); ++n)
    for (unsigned s = 0; s < split.net->nodes(); ++s) CHECK(split.term[n].received_from(s) == split.term[s].sent_to(n));
}

}  // namespace

TEST_CASE("lanes: an 8x8 mesh split in two, below saturation, gives the results of one lane", "[network][lanes]") {
  check_lanes_match(mesh(8, 8, 3, 2, 4), 2, 0.1, 1, false);
}

TEST_CASE("lanes: an 8x8 mesh split in two, past saturation, gives the results of one lane", "[network][lanes]") {
  check_lanes_match(mesh(8, 8, 3, 2, 4), 2, 0.6, 5, true);
}

TEST_CASE("lanes: a ring split in two gives the results of one lane", "[network][lanes]") {
  auto p = mesh(8, 1, 4, 2, 4);
  p.topology = "ring";
  check_lanes_match(p, 2, 0.8, 2, true);
}

TEST_CASE("lanes: a 4x6 YX mesh with 2-stage routers split in two gives the results of one lane", "[network][lanes]") {
  auto p = mesh(4, 6, 2, 2, 2);
  p.routing = "yx";
  check_lanes_match(p, 2, 0.8, 3, true);
}

TEST_CASE("lanes: a multicast message on a split network is an error", "[network][lanes][config]") {
  NocBench b("b", mesh(4, 4, 3), 4, 2);
  REQUIRE(b.net->lane_of(5) == 0);
  DestSet d = DestSet::single(0);
  d |= DestSet::single(15);
  b.multicast(5, d, 3, 1);
  REQUIRE_THROWS_WITH(b.run(50), Catch::Contains("lanes carry unicast only"));
}

TEST_CASE("config error: a multicast packet longer than a VC", "[network][multicast][config]") {
  NocBench b("b", mesh(4, 4, 3, 2, 4));
  DestSet d = DestSet::single(0);
  d |= DestSet::single(15);
  b.multicast(5, d, 3, 5);
  REQUIRE_THROWS_WITH(b.run(200), Catch::Contains("raise router.vc_depth to at least 5"));
}

// ---------------------------------------------------------------------------------------------
// Bad configurations: clear errors naming the problem.
// ---------------------------------------------------------------------------------------------

namespace {
void expect_config_error(const noc::Network::Params& p, const std::string& text) {
  ClockDomain clk("clk", 1000.0);
  REQUIRE_THROWS_WITH(noc::Network("noc", p, clk), Catch::Contains(text));
}
}  // namespace

TEST_CASE("config error: more lanes than mesh rows", "[network][config][lanes]") {
  ClockDomain clk("clk", 1000.0);
  clk.set_lanes(5);
  REQUIRE_THROWS_WITH(noc::Network("noc", mesh(4, 4, 3), clk),
                      Catch::Contains("the clock domain has 5 lanes but the mesh has 4 rows to split among them"));
}

TEST_CASE("config error: zero VCs per virtual network", "[network][config]") {
  auto p = mesh(4, 4, 3);
  p.router.vcs_per_vnet = 0;
  expect_config_error(p, "router.vcs_per_vnet' = 0 is out of range [1, 16]");
}

TEST_CASE("config error: routing names an unknown function", "[network][config]") {
  auto p = mesh(4, 4, 3);
  p.routing = "zigzag";
  expect_config_error(p, "routing function 'zigzag' is not one of xy, yx");
}

TEST_CASE("config error: routing names the wrong number of functions", "[network][config]") {
  auto p = mesh(4, 4, 3);
  p.router.vnets = 2;
  p.routing = "xy-yx-xy";
  expect_config_error(p, "routing 'xy-yx-xy' names 3 functions for 2 virtual networks");
}

TEST_CASE("config error: ring with one VC per virtual network", "[network][config]") {
  auto p = mesh(8, 1, 3, 1);
  p.topology = "ring";
  expect_config_error(p, "ring needs router.vcs_per_vnet >= 2");
}

TEST_CASE("config error: a mesh routing on a ring or a crossbar is refused, not ignored", "[network][config]") {
  auto p = mesh(8, 1, 3, 2);
  p.topology = "ring";
  p.routing = "yx";
  expect_config_error(p, "routing 'yx' is a mesh routing; a ring routes by the shortest direction");
  p.topology = "crossbar";
  p.routing = "xy-yx";
  expect_config_error(p, "routing 'xy-yx' is a mesh routing; a crossbar routes by destination tag");
}

TEST_CASE("an empty routing is XY on a mesh", "[network][config]") {
  // One packet from (0,0) to (2,1) on a 4x4 mesh: XY turns at (2,0) and crosses router 1, YX
  // turns at (0,1) and crosses router 4.
  auto p = mesh(4, 4, 3);
  REQUIRE(p.routing.empty());
  auto q = p;
  q.routing = "yx";
  NocBench a("empty", p), b("yx", q);
  a.send(0, 6, 5, 1);
  b.send(0, 6, 5, 1);
  a.run(200);
  CHECK(a.net->router(1).flits_switched() == 1);
  CHECK(a.net->router(4).flits_switched() == 0);
  CHECK(b.net->router(1).flits_switched() == 0);
  CHECK(b.net->router(4).flits_switched() == 1);
}

TEST_CASE("config error: ring of one node", "[network][config]") {
  auto p = mesh(1, 1, 3, 2);
  p.topology = "ring";
  expect_config_error(p, "ring needs at least 2 nodes");
}

TEST_CASE("config error: network over 512 nodes", "[network][config]") {
  expect_config_error(mesh(23, 23, 3), "a mesh of 529 nodes exceeds the 512-node limit");
}

TEST_CASE("config error: crossbar over 64 ports", "[network][config]") {
  auto p = mesh(65, 1, 3);
  p.topology = "crossbar";
  expect_config_error(p, "crossbar has 65 ports; at most 64 are supported");
}

TEST_CASE("config error: unknown topology", "[network][config]") {
  auto p = mesh(4, 4, 3);
  p.topology = "torus";
  expect_config_error(p, "topology' = \"torus\" is not one of mesh|ring|crossbar");
}

TEST_CASE("config error: unknown key inside the router section of the JSON", "[network][config]") {
  const json j = json::parse(R"({"topology": "mesh", "router": {"vcs_per_vnet": 2, "vc_dpeth": 4}})");
  REQUIRE_THROWS_WITH(params_from_json<noc::Network::Params>(j, "noc"),
                      Catch::Contains("unknown parameter 'noc.router.vc_dpeth'") &&
                          Catch::Contains("known keys: vnets, vcs_per_vnet, vc_depth, pipeline, allocator"));
  // Without a prefix the key is still named by its section.
  REQUIRE_THROWS_WITH(params_from_json<noc::Network::Params>(j, ""), Catch::Contains("'router.vc_dpeth'"));
}
