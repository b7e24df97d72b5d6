// Bridge tests: node ids rewritten both ways (src, dst, multicast dests), latency, the queue's
// effect on throughput, back-pressure from a stalled receiver, saturation in both directions
// with randomly stalling receivers (nothing lost, duplicated, reordered or early), errors for an
// unmapped id, a shared payload, a missing map and bad parameters.
// Numberings used: network A numbers its 8 nodes 0..7; network B is a global numbering where
// they are 16..23 (the second of four 16-node blocks). Expected cycles are derived in the
// comments from bridge.h: a message taken in cycle a is offered on the other side in
// a + latency, one per cycle per direction, and holds a queue entry until the far side takes it.
#include <catch2/catch.hpp>

#include <random>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "harness/stalling_target.h"
#include "noc/bridge.h"

using namespace gpusc;
using noc::Bridge;
using P = Bridge::Params;

namespace {

std::optional<unsigned> a_to_b(unsigned id) {
  if (id < 8) return id + 16;
  return std::nullopt;
}
std::optional<unsigned> b_to_a(unsigned id) {
  if (id >= 16 && id < 24) return id - 16;
  return std::nullopt;
}

struct BridgeBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  tb::ScriptedInitiator src_a{"src_a", clk, pool}, src_b{"src_b", clk, pool};
  Bridge bridge;
  tb::ScriptedTarget dst_a, dst_b;

  BridgeBench(sc_core::sc_module_name n, const P& p, unsigned depth = 4096, Bridge::IdMap ba = b_to_a)
      : sc_core::sc_module(n),
        bridge("bridge", p, clk, a_to_b, std::move(ba)),
        dst_a("dst_a", clk, depth),
        dst_b("dst_b", clk, depth) {
    src_a.out.bind(bridge.a_in);
    bridge.b_out.bind(dst_b.in);
    src_b.out.bind(bridge.b_in);
    bridge.a_out.bind(dst_a.in);
  }
  static void send(tb::ScriptedInitiator& s, uint64_t cycle, unsigned src, unsigned dst, uint64_t tag,
                   DestSet dests = {}) {
    s.at(cycle, [=](tlm::tlm_generic_payload&, MemExt& e) {
      e.src = src;
      e.dst = dst;
      e.dests = dests;
      e.pc = tag;
    });
  }
  double stat(const std::string& key) const {
    return collect_stats()["stats"][std::string(bridge.name()) + "." + key].get<double>();
  }
};

void run_until(const ClockDomain& clk, uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }

DestSet set_of(std::initializer_list<unsigned> ids) {
  DestSet d;
  for (unsigned i : ids) d.add(i);
  return d;
}

}  // namespace

TEST_CASE("Bridge: src, dst and multicast dests are rewritten both ways", "[bridge][map]") {
  // b_to_a as a table, to exercise Bridge::table.
  BridgeBench b("b", P{}, 64, Bridge::table({{16, 0}, {17, 1}, {18, 2}, {19, 3}, {21, 5}}));
  BridgeBench::send(b.src_a, 10, 2, 5, 0);                            // request from A's node 2 to node 5
  BridgeBench::send(b.src_b, 10, 21, 18, 1, set_of({16, 17, 19}));  // a multicast reply from B
  run_until(b.clk, 100);
  REQUIRE(b.dst_b.arrivals().size() == 1);
  REQUIRE(b.dst_a.arrivals().size() == 1);
  const MemExt& ab = b.dst_b.arrivals()[0].ext;
  CHECK(ab.src == 18);
  CHECK(ab.dst == 21);
  CHECK(ab.dests.empty());
  const MemExt& ba = b.dst_a.arrivals()[0].ext;
  CHECK(ba.src == 5);
  CHECK(ba.dst == 2);
  CHECK(ba.dests == set_of({0, 1, 3}));
  CHECK(ba.pc == 1);
  CHECK(b.stat("a_to_b.messages") == 1);
  CHECK(b.stat("b_to_a.messages") == 1);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("Bridge: a message crosses in exactly latency cycles and an idle bridge costs nothing", "[bridge][timing]") {
  P p;
  p.latency = 3;
  BridgeBench b("b", p);
  BridgeBench::send(b.src_a, 10, 0, 1, 0);
  run_until(b.clk, 100000);
  // Taken in 10, offered to dst_b in 10 + 3 = 13. Ticks: the source at 10, the bridge at 13
  // (it sleeps from acceptance to the due cycle), dst_b at 14.
  REQUIRE(b.dst_b.arrivals().size() == 1);
  CHECK(b.dst_b.arrivals()[0].cycle == 13);
  CHECK(b.stat("a_to_b.latency") == 3);
  CHECK(b.clk.dispatched_ticks() == 3);
}

TEST_CASE("Bridge: one message per cycle when queue >= latency, queue / latency below that", "[bridge][timing]") {
  P full, half;
  full.latency = half.latency = 4;
  full.queue = 4;
  half.queue = 2;
  BridgeBench f("f", full), h("h", half);
  for (unsigned k = 0; k < 20; ++k) {
    BridgeBench::send(f.src_a, 10, 0, 1, k);
    BridgeBench::send(h.src_a, 10, 0, 1, k);
  }
  run_until(f.clk, 200);
  // queue 4: message k is taken in 10 + k (message k - 4 leaves in that cycle and frees its
  // entry) and offered in 14 + k.
  // queue 2: 0 and 1 are taken in 10, 11 and leave in 14, 15; 2 waits (END_REQ withheld) for
  // 0's entry and is taken in 14, 3 in 15, and so on: two messages per 4 cycles, message k
  // offered in 14 + 4 (k / 2) + k % 2.
  REQUIRE(f.dst_b.arrivals().size() == 20);
  REQUIRE(h.dst_b.arrivals().size() == 20);
  unsigned wrong_f = 0, wrong_h = 0;
  for (unsigned k = 0; k < 20; ++k) {
    wrong_f += f.dst_b.arrivals()[k].cycle != 14 + k || f.dst_b.arrivals()[k].ext.pc != k;
    wrong_h += h.dst_b.arrivals()[k].cycle != 14 + 4 * (k / 2) + k % 2 || h.dst_b.arrivals()[k].ext.pc != k;
  }
  CHECK(wrong_f == 0);
  CHECK(wrong_h == 0);
  CHECK(h.src_a.sent()[2].accepted == 14);
  CHECK(h.stat("a_to_b.refused") > 0);
}

TEST_CASE("Bridge: a stalled receiver fills the queue, then back-pressures its source", "[bridge][backpressure]") {
  P p;
  p.latency = 2;
  p.queue = 3;
  BridgeBench b("b", p, /*depth=*/1);
  b.dst_b.stall_until(100);
  for (unsigned k = 0; k < 10; ++k) BridgeBench::send(b.src_a, 10, 0, 1, k);
  run_until(b.clk, 99);
  // 0: taken 10, offered 12, dst_b queues it (its only slot). 1: taken 11, offered 13, END_REQ
  // withheld. 2 and 3: taken 12 and 13, waiting behind 1: three entries held. 4: offered 14,
  // refused and held at a_in; 5.. not offered.
  CHECK(b.dst_b.occupancy() == 1);
  CHECK(b.bridge.b_out.busy());
  CHECK(b.bridge.occupancy(Bridge::kAtoB) == 3);
  CHECK(b.bridge.a_in.has_pending());
  REQUIRE(b.src_a.sent().size() == 5);
  CHECK(b.src_a.sent()[3].accepted == 13);
  CHECK(b.src_a.sent()[4].offered == 14);
  CHECK(b.src_a.sent()[4].accepted == UINT64_MAX);
  CHECK(b.stat("a_to_b.refused") == 1);
  run_until(b.clk, 300);
  REQUIRE(b.dst_b.arrivals().size() == 10);
  for (unsigned k = 0; k < 10; ++k) CHECK(b.dst_b.arrivals()[k].ext.pc == k);
  CHECK(b.bridge.occupancy(Bridge::kAtoB) == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("Bridge: saturation both ways with randomly stalling receivers loses and duplicates nothing",
          "[bridge][random]") {
  P p;
  p.latency = 3;
  p.queue = 3;
  ClockDomain clk("clk", 1000.0);
  PayloadPool pool(128);
  tb::ScriptedInitiator src_a("src_a", clk, pool), src_b("src_b", clk, pool);
  Bridge bridge("bridge", p, clk, a_to_b, b_to_a);
  tb::StallingTarget dst_a("dst_a", clk, 30, 5, 21), dst_b("dst_b", clk, 30, 5, 22);
  src_a.out.bind(bridge.a_in);
  bridge.b_out.bind(dst_b.in);
  src_b.out.bind(bridge.b_in);
  bridge.a_out.bind(dst_a.in);
  const unsigned N = 5000;
  std::mt19937_64 rng(5);
  std::vector<unsigned> src[2], dst[2];
  for (unsigned k = 0; k < N; ++k)
    for (unsigned d = 0; d < 2; ++d) {
      const unsigned s = static_cast<unsigned>(rng() % 8), t = static_cast<unsigned>(rng() % 8);
      src[d].push_back(s);
      dst[d].push_back(t);
      const unsigned off = d ? 16 : 0;  // B's messages are in B's numbering
      BridgeBench::send(d ? src_b : src_a, 10, s + off, t + off, k);  // all at once: saturating
    }
  run_until(clk, 100000);
  for (unsigned d = 0; d < 2; ++d) {
    INFO("direction " << d);
    const auto& got = (d ? dst_a : dst_b).taken();
    const auto& sent = (d ? src_b : src_a).sent();
    REQUIRE(sent.size() == N);
    REQUIRE(got.size() == N);
    const unsigned off = d ? 0 : 16;  // arriving in the other numbering
    unsigned wrong = 0, early = 0;
    for (unsigned k = 0; k < N; ++k) {
      wrong += got[k].ext.pc != k || got[k].ext.src != src[d][k] + off || got[k].ext.dst != dst[d][k] + off;
      early += got[k].cycle < sent[k].accepted + 3;
    }
    CHECK(wrong == 0);
    CHECK(early == 0);
    CHECK((d ? dst_a : dst_b).refusals() > 0);
    CHECK(bridge.occupancy(d ? Bridge::kBtoA : Bridge::kAtoB) == 0);
  }
  const json st = collect_stats()["stats"];
  CHECK(st["bridge.a_to_b.messages"] == N);
  CHECK(st["bridge.b_to_a.messages"] == N);
  CHECK(st["bridge.a_to_b.refused"].get<double>() > 0);
  CHECK(pool.in_use() == 0);
}

TEST_CASE("Bridge: an unmapped destination id is a clear error naming the id and the bridge", "[bridge][bad]") {
  BridgeBench b("b", P{});
  BridgeBench::send(b.src_a, 5, 0, 9, 0);
  REQUIRE_THROWS_WITH(run_until(b.clk, 20),
                      Catch::Contains("b.bridge") &&
                          Catch::Contains("node id 9 (MemExt::dst) of a message entering on a_in has no counterpart "
                                          "in side B's numbering"));
}

TEST_CASE("Bridge: an unmapped multicast destination is a clear error", "[bridge][bad]") {
  BridgeBench b("b", P{});
  BridgeBench::send(b.src_b, 5, 16, 17, 0, set_of({17, 40}));
  REQUIRE_THROWS_WITH(run_until(b.clk, 20),
                      Catch::Contains("node id 40 (MemExt::dests) of a message entering on b_in has no counterpart "
                                      "in side A's numbering; add it to the bridge's b_to_a map"));
}

TEST_CASE("Bridge: a payload shared by several receivers is a clear error", "[bridge][bad]") {
  BridgeBench b("b", P{});
  b.src_a.at(5, [](tlm::tlm_generic_payload& gp, MemExt&) { gp.acquire(); });  // as a 2-way multicast delivery
  REQUIRE_THROWS_WITH(run_until(b.clk, 20), Catch::Contains("is shared by 2 receivers (a multicast delivery)"));
}

namespace {
void construct(const P& p, Bridge::IdMap ab, Bridge::IdMap ba) {
  ClockDomain clk("clk", 1000.0);
  Bridge br("bridge", p, clk, std::move(ab), std::move(ba));
}
}  // namespace

TEST_CASE("Bridge: zero latency is a clear error", "[bridge][bad]") {
  P p;
  p.latency = 0;
  REQUIRE_THROWS_WITH(construct(p, a_to_b, b_to_a),
                      Catch::Contains("parameter 'bridge.latency' = 0 is out of range [1, 1e+06]"));
}

TEST_CASE("Bridge: a missing id map is a clear error", "[bridge][bad]") {
  REQUIRE_THROWS_WITH(construct(P{}, a_to_b, nullptr), Catch::Contains("no id map given for messages from side B"));
}
