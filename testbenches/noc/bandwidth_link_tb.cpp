// BandwidthLink tests: zero-load latency with paper 003's and paper 004's links, message sizes
// (header, data rule, flit rounding), a saturating stream in both directions at once at exactly
// bytes_per_cycle (packed) or whole cycles per message (unpacked), the credit loop, back-pressure
// from a stalled receiver, a random run with randomly stalling receivers in both directions
// (every message delivered once, in order, never early), idle cost, bad parameters; with two
// message classes: one shared serializer (oldest first, round-robin on a tie, exact cycles), a
// stalled class never blocks the other, a random two-class run (per class in order, nothing lost
// or duplicated, never early, never past the wire rate).
// Expected cycles are derived in the comments from the model in bandwidth_link.h: a message
// offered in cycle a is latched in a + 1, the first cycle it may serialize; with W wire bytes,
// R bytes per cycle and u bytes of its start cycle s already used, its last byte leaves in
// e = s + (u + W - 1) / R and it is offered to the far side in e + L. W = header (8) + data when
// the message carries data (write requests, read replies), rounded up to whole flits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <random>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "harness/stalling_target.h"
#include "noc/bandwidth_link.h"

using namespace gpusc;
using noc::BandwidthLink;
using P = BandwidthLink::Params;

namespace {

enum class Msg { ReadReq, Write, ReadReply };

void fill(tlm::tlm_generic_payload& gp, MemExt& e, Msg m, unsigned data, uint64_t tag, unsigned src) {
  e.kind = m == Msg::Write ? MemKind::Write : MemKind::Read;
  e.is_reply = m == Msg::ReadReply;
  e.pc = tag;
  e.src = src;
  gp.set_command(m == Msg::Write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp.set_data_length(data);
}

// A's and B's scripted sources and sinks around one link.
struct LinkBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  tb::ScriptedInitiator src_a{"src_a", clk, pool}, src_b{"src_b", clk, pool};
  BandwidthLink link;
  tb::ScriptedTarget dst_a, dst_b;

  LinkBench(sc_core::sc_module_name n, const P& p, unsigned depth = 4096)
      : sc_core::sc_module(n), link("link", p, clk), dst_a("dst_a", clk, depth), dst_b("dst_b", clk, depth) {
    src_a.out.bind(link.a_in);
    link.b_out.bind(dst_b.in);
    src_b.out.bind(link.b_in);
    link.a_out.bind(dst_a.in);
  }
  static void send(tb::ScriptedInitiator& s, uint64_t cycle, Msg m, unsigned data, uint64_t tag) {
    s.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) { fill(gp, e, m, data, tag, 0); });
  }
  double stat(const std::string& key) const {
    return collect_stats()["stats"][std::string(link.name()) + "." + key].get<double>();
  }
};

void run_until(const ClockDomain& clk, uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }

// The cycle each message reached a sink (ScriptedTarget records the cycle it took it).
std::vector<uint64_t> cycles(const tb::ScriptedTarget& t) {
  std::vector<uint64_t> c;
  for (const auto& a : t.arrivals()) c.push_back(a.cycle);
  return c;
}

}  // namespace

TEST_CASE("Link: zero-load latency is serialization + latency with paper 003's link", "[link][timing]") {
  LinkBench b("b", P{});  // 768 B/cycle, latency 31, header 8, 1 B flits
  for (auto* s : {&b.src_a, &b.src_b}) {
    LinkBench::send(*s, 10, Msg::ReadReply, 128, 0);  // W = 136: 1 cycle -> 10 + 1 + 31 = 42
    LinkBench::send(*s, 100, Msg::ReadReq, 128, 1);   // W = 8 (no data): 1 cycle -> 132
    LinkBench::send(*s, 200, Msg::Write, 2048, 2);    // W = 2056: ceil(2056 / 768) = 3 -> 234
  }
  run_until(b.clk, 1000);
  const std::vector<uint64_t> expect = {42, 132, 234};
  CHECK(cycles(b.dst_b) == expect);  // A -> B
  CHECK(cycles(b.dst_a) == expect);  // B -> A, at the same time: full duplex
  for (const char* w : {"a_to_b", "b_to_a"}) {
    INFO(w);
    CHECK(b.stat(std::string(w) + ".messages") == 3);
    CHECK(b.stat(std::string(w) + ".bytes") == 136 + 8 + 2056);
    CHECK(b.stat(std::string(w) + ".latency") == Approx((32.0 + 32 + 34) / 3));
  }
  CHECK(b.link.in_flight(BandwidthLink::kAtoB) == 0);
  CHECK(b.link.credits(BandwidthLink::kAtoB) == 65536);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("Link: paper 004's fabric rounds messages to 16 B flits", "[link][timing]") {
  P p;
  p.bytes_per_cycle = 64;  // 64 GB/s at 1 GHz
  p.flit_bytes = 16;
  p.latency = 10;  // 004 gives none; any value shows the rule
  LinkBench b("b", p);
  LinkBench::send(b.src_a, 10, Msg::ReadReply, 64, 0);  // 8 + 64 = 72 -> 5 flits = 80 B: 2 cycles -> 22
  LinkBench::send(b.src_a, 100, Msg::ReadReq, 64, 1);   // 8 -> 1 flit = 16 B: 1 cycle -> 111
  LinkBench::send(b.src_a, 200, Msg::Write, 4, 2);      // 8 + 4 = 12 -> 16 B: 1 cycle -> 211
  run_until(b.clk, 1000);
  CHECK(cycles(b.dst_b) == std::vector<uint64_t>{22, 111, 211});
  CHECK(b.stat("a_to_b.bytes") == 80 + 16 + 16);
  CHECK(b.stat("b_to_a.messages") == 0);
}

TEST_CASE("Link: a compressed reply is sized by MemExt::wire_bytes, as the NI sizes it", "[link][timing]") {
  P p;
  p.bytes_per_cycle = 64;
  p.flit_bytes = 16;
  p.latency = 10;
  LinkBench b("b", p);
  // A 128 B read reply compressed to 30 B: 8 + 30 = 38 -> 3 flits = 48 B, one cycle: 10 + 1 + 10.
  b.src_a.at(10, [](tlm::tlm_generic_payload& gp, MemExt& e) {
    fill(gp, e, Msg::ReadReply, 128, 0, 0);
    e.wire_bytes = 30;
  });
  run_until(b.clk, 1000);
  CHECK(cycles(b.dst_b) == std::vector<uint64_t>{21});
  CHECK(b.stat("a_to_b.bytes") == 48);
}

TEST_CASE("Link: an idle link costs nothing, a message costs two link ticks", "[link][idle]") {
  LinkBench b("b", P{});
  LinkBench::send(b.src_a, 10, Msg::ReadReply, 128, 0);
  run_until(b.clk, 100000);
  // Ticks: the source at 10 (then its script is empty); the link at 11 (latch, serialize; it
  // sleeps until the arrival) and at 42 (offers it to dst_b); dst_b at 43. Nothing else.
  CHECK(b.clk.dispatched_ticks() == 4);
  CHECK(b.clk.active_edges() == 4);
  CHECK(cycles(b.dst_b) == std::vector<uint64_t>{42});
}

TEST_CASE("Link: a saturating stream in both directions moves exactly bytes_per_cycle each way", "[link][bandwidth]") {
  P p;
  p.bytes_per_cycle = 48;
  p.latency = 5;
  p.rx_buffer_bytes = 48 * (2 * 5 + 1) + 2 * 72;  // R (2L + 1) + two messages: enough for full rate
  LinkBench b("b", p);
  const unsigned N = 300;
  for (unsigned k = 0; k < N; ++k)
    for (auto* s : {&b.src_a, &b.src_b}) LinkBench::send(*s, 10, Msg::Write, 64, k);  // W = 72
  run_until(b.clk, 2000);
  // The source offers one message per cycle from 10, faster than the 2/3 per cycle the link
  // drains, so (tx_queue 4) the serializer never waits: the bytes go out back to back from
  // cycle 11, message k's bytes are [72k, 72k + 71] of the stream and its last byte leaves in
  // 11 + (72k + 71) / 48: k = 0: 12, k = 1: 13, k = 2: 15, k = 3: 16, ...; it reaches the far
  // side 5 cycles later. The last, k = 299, ends the 21600 B = 450 cycles x 48 B in cycle 460.
  for (const auto* t : {&b.dst_a, &b.dst_b}) {
    INFO(t->name());
    const auto c = cycles(*t);
    REQUIRE(c.size() == N);
    CHECK(c[0] == 17);
    CHECK(c[1] == 18);
    CHECK(c[2] == 20);
    CHECK(c[3] == 21);
    CHECK(c[N - 1] == 465);
    unsigned wrong = 0;
    for (unsigned k = 0; k < N; ++k) wrong += c[k] != 11 + (72 * k + 71) / 48 + 5 || t->arrivals()[k].ext.pc != k;
    CHECK(wrong == 0);
    // Any 300-cycle window of the steady stream: 3 cycles carry exactly 2 messages (144 B), so
    // 200 messages = 14400 B = 48 B x 300 cycles, no more, no less.
    for (uint64_t w0 : {100, 101, 102, 150}) {
      unsigned in_window = 0;
      for (uint64_t x : c) in_window += x >= w0 && x < w0 + 300;
      CHECK(in_window * 72 == 48 * 300);
    }
  }
  CHECK(b.stat("a_to_b.bytes") == 72.0 * N);
  CHECK(b.stat("b_to_a.bytes") == 72.0 * N);
  CHECK(b.stat("a_to_b.refused") > 0);  // the tx queue did fill: the stream was saturating
}

TEST_CASE("Link: unpacked, every message starts a fresh cycle", "[link][bandwidth]") {
  P p;
  p.bytes_per_cycle = 48;
  p.latency = 5;
  p.pack = false;
  LinkBench b("b", p);
  for (unsigned k = 0; k < 100; ++k) LinkBench::send(b.src_a, 10, Msg::Write, 64, k);
  run_until(b.clk, 1000);
  // W = 72 takes ceil(72 / 48) = 2 whole cycles: message k serializes in 11 + 2k and 12 + 2k and
  // arrives in 17 + 2k: 36 B per cycle.
  const auto c = cycles(b.dst_b);
  REQUIRE(c.size() == 100);
  unsigned wrong = 0;
  for (unsigned k = 0; k < 100; ++k) wrong += c[k] != 17 + 2 * k;
  CHECK(wrong == 0);
}

TEST_CASE("Link: credits bound what is in flight to the receive buffer", "[link][credits]") {
  P p;
  p.bytes_per_cycle = 48;
  p.latency = 3;
  p.rx_buffer_bytes = 72;  // one message
  LinkBench b("b", p);
  for (unsigned k = 0; k < 5; ++k) LinkBench::send(b.src_a, 10, Msg::Write, 64, k);  // W = 72
  run_until(b.clk, 17);
  // Message 0: starts 11, last byte 12, arrives 15 and dst_b takes it at once; its 72 B of
  // credit are usable again from 15 + 1 + 3 = 19. Until then the transmitter has none.
  CHECK(b.link.credits(BandwidthLink::kAtoB) == 0);
  run_until(b.clk, 200);
  // So message k starts in 11 + 8k and arrives in 15 + 8k: one per 2L + 1 + 2 cycles.
  CHECK(cycles(b.dst_b) == std::vector<uint64_t>{15, 23, 31, 39, 47});
  CHECK(b.link.credits(BandwidthLink::kAtoB) == 72);
}

TEST_CASE("Link: a stalled receiver fills the buffer, then the tx queue, then back-pressures its source",
          "[link][backpressure]") {
  P p;
  p.bytes_per_cycle = 128;
  p.latency = 2;
  p.rx_buffer_bytes = 216;  // three messages of 72 B
  p.tx_queue = 2;
  LinkBench b("b", p, /*depth=*/1);
  b.dst_b.stall_until(200);
  for (unsigned k = 0; k < 10; ++k) LinkBench::send(b.src_a, 10, Msg::Write, 64, k);
  run_until(b.clk, 199);
  // m0: starts 11, arrives 13, dst_b queues it (its only slot); credit back at 13 + 1 + 2 = 16.
  // m1: starts 12, arrives 14, dst_b withholds END_REQ: held at b_out, its credit stays taken.
  // m2: starts 13 (credits 216 - 2 x 72 = 72), arrives 15, waits behind m1.
  // m3: latched 14, no credit until m0's returns in 16: starts 16, arrives 18, waits.
  // m4 (offered 14) and m5 (offered 15, refused, taken when m3 leaves the tx queue in 16) fill
  // the tx queue with no credit left; m6, offered 17, is refused and held at a_in.
  CHECK(b.dst_b.occupancy() == 1);
  CHECK(b.link.b_out.busy());
  CHECK(b.link.credits(BandwidthLink::kAtoB) == 0);
  CHECK(b.link.in_flight(BandwidthLink::kAtoB) == 5);  // m1 held + m2, m3 + m4, m5
  CHECK(b.link.a_in.has_pending());
  const auto& s = b.src_a.sent();
  REQUIRE(s.size() == 7);
  CHECK(s[5].offered == 15);
  CHECK(s[5].accepted == 16);
  CHECK(s[6].offered == 17);
  CHECK(s[6].accepted == UINT64_MAX);
  CHECK(b.stat("a_to_b.refused") == 2);
  CHECK(b.dst_b.arrivals().empty());
  run_until(b.clk, 400);
  REQUIRE(b.dst_b.arrivals().size() == 10);
  for (unsigned k = 0; k < 10; ++k) CHECK(b.dst_b.arrivals()[k].ext.pc == k);
  CHECK(b.link.in_flight(BandwidthLink::kAtoB) == 0);
  CHECK(b.link.credits(BandwidthLink::kAtoB) == 216);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("Link: saturation both ways with randomly stalling receivers loses and duplicates nothing",
          "[link][random]") {
  P p;
  p.bytes_per_cycle = 64;
  p.latency = 7;
  p.flit_bytes = 16;
  p.rx_buffer_bytes = 512;
  p.tx_queue = 3;
  ClockDomain clk("clk", 1000.0);
  PayloadPool pool(128);
  tb::ScriptedInitiator src_a("src_a", clk, pool), src_b("src_b", clk, pool);
  BandwidthLink link("link", p, clk);
  tb::StallingTarget dst_a("dst_a", clk, 30, 6, 11), dst_b("dst_b", clk, 30, 6, 12);
  src_a.out.bind(link.a_in);
  link.b_out.bind(dst_b.in);
  src_b.out.bind(link.b_in);
  link.a_out.bind(dst_a.in);
  const unsigned N = 5000;
  std::mt19937_64 rng(3);
  std::vector<unsigned> wire[2];  // expected wire bytes per message, per direction
  uint64_t t[2] = {10, 10};
  for (unsigned k = 0; k < N; ++k)
    for (unsigned d = 0; d < 2; ++d) {
      t[d] += rng() % 2;  // about two offers per cycle: past what the link drains
      const Msg m = static_cast<Msg>(rng() % 3);
      const unsigned data = m == Msg::ReadReq ? 128 : m == Msg::Write ? 4 * (1 + rng() % 32) : 128;
      const unsigned carried = m == Msg::ReadReq ? 0 : data;
      wire[d].push_back((8 + carried + 15) / 16 * 16);
      (d ? src_b : src_a).at(t[d], [=](tlm::tlm_generic_payload& gp, MemExt& e) { fill(gp, e, m, data, k, d); });
    }
  run_until(clk, 200000);
  const json st = collect_stats();
  CHECK(st["invariant_failures"].empty());
  for (unsigned d = 0; d < 2; ++d) {
    INFO("direction " << d);
    const auto& got = (d ? dst_a : dst_b).taken();
    const auto& sent = (d ? src_b : src_a).sent();
    REQUIRE(sent.size() == N);
    REQUIRE(got.size() == N);
    unsigned misordered = 0, early = 0;
    uint64_t bytes = 0;
    for (unsigned k = 0; k < N; ++k) {
      misordered += got[k].ext.pc != k || got[k].ext.src != d;
      // Never before its idle latency: latch + ceil(W / 64) serialization cycles + 7.
      early += got[k].cycle < sent[k].accepted + (wire[d][k] + 63) / 64 + 7;
      bytes += wire[d][k];
    }
    CHECK(misordered == 0);
    CHECK(early == 0);
    const std::string w = d ? "link.b_to_a." : "link.a_to_b.";
    CHECK(st["stats"][w + "messages"] == N);
    CHECK(st["stats"][w + "bytes"] == bytes);
    CHECK(st["stats"][w + "refused"].get<double>() > 0);
    const auto dir = d ? BandwidthLink::kBtoA : BandwidthLink::kAtoB;
    CHECK(link.in_flight(dir) == 0);
    CHECK(link.credits(dir) == 512);
    // The receiver's stalls were felt: it refused messages, and no more than 64 B per cycle moved.
    CHECK((d ? dst_a : dst_b).refusals() > 0);
    CHECK(bytes <= 64 * (got.back().cycle - sent.front().accepted));
  }
  CHECK(pool.in_use() == 0);
}

namespace {
void construct(const P& p) {
  ClockDomain clk("clk", 1000.0);
  BandwidthLink l("link", p, clk);
}
}  // namespace

TEST_CASE("Link: zero bytes per cycle is a clear error", "[link][bad]") {
  P p;
  p.bytes_per_cycle = 0;
  REQUIRE_THROWS_WITH(construct(p), Catch::Contains("parameter 'link.bytes_per_cycle' = 0 is out of range [1, 65536]"));
}

TEST_CASE("Link: a receive buffer smaller than any message is a clear error", "[link][bad]") {
  P p;
  p.flit_bytes = 16;
  p.rx_buffer_bytes = 8;
  REQUIRE_THROWS_WITH(construct(p), Catch::Contains("rx_buffer_bytes (8) is smaller than the smallest message (16 bytes"));
}

TEST_CASE("Link: a message larger than the receive buffer is a clear error", "[link][bad]") {
  P p;
  p.rx_buffer_bytes = 1024;
  LinkBench b("b", p);
  LinkBench::send(b.src_a, 5, Msg::Write, 2048, 0);
  REQUIRE_THROWS_WITH(run_until(b.clk, 20), Catch::Contains("a message of 2056 bytes on the wire") &&
                                                Catch::Contains("rx_buffer_bytes = 1024"));
}

TEST_CASE("Link: params load from JSON by name, unknown keys are errors", "[link][bad]") {
  const P p = params_from_json<P>(parse_json(R"({"bytes_per_cycle": 64, "flit_bytes": 16})", "test"), "link");
  CHECK(p.bytes_per_cycle == 64);
  CHECK(p.flit_bytes == 16);
  CHECK(p.latency == 31);
  REQUIRE_THROWS_WITH(params_from_json<P>(parse_json(R"({"bandwidth": 64})", "test"), "link"),
                      Catch::Contains("unknown parameter 'link.bandwidth'"));
}

// ---- Message classes over one serializer (classes > 1) ----
namespace {

// Two classes around one link: class c's source and sink on each side.
struct ClassBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{256};
  tb::ScriptedInitiator src0{"src0", clk, pool}, src1{"src1", clk, pool};  // side A, class 0 / 1
  BandwidthLink link;
  tb::ScriptedTarget dst0, dst1;  // side B, class 0 / 1
  ClassBench(sc_core::sc_module_name n, const P& p, unsigned depth = 4096)
      : sc_core::sc_module(n), link("link", p, clk), dst0("dst0", clk, depth), dst1("dst1", clk, depth) {
    src0.out.bind(link.in(BandwidthLink::kSideA, 0));
    src1.out.bind(link.in(BandwidthLink::kSideA, 1));
    link.out(BandwidthLink::kSideB, 0).bind(dst0.in);
    link.out(BandwidthLink::kSideB, 1).bind(dst1.in);
  }
  double stat(const std::string& key) const {
    return collect_stats()["stats"][std::string(link.name()) + "." + key].get<double>();
  }
};

// Side B's ports of both classes towards A are bound to idle sources and sinks.
struct IdleSideB : sc_core::sc_module {
  tb::ScriptedInitiator s0, s1;
  tb::ScriptedTarget d0, d1;
  IdleSideB(sc_core::sc_module_name n, ClassBench& b)
      : sc_core::sc_module(n), s0("s0", b.clk, b.pool), s1("s1", b.clk, b.pool), d0("d0", b.clk), d1("d1", b.clk) {
    s0.out.bind(b.link.in(BandwidthLink::kSideB, 0));
    s1.out.bind(b.link.in(BandwidthLink::kSideB, 1));
    b.link.out(BandwidthLink::kSideA, 0).bind(d0.in);
    b.link.out(BandwidthLink::kSideA, 1).bind(d1.in);
  }
};

P classes2() {
  P p;
  p.bytes_per_cycle = 64;
  p.flit_bytes = 16;
  p.latency = 10;
  p.classes = 2;
  return p;
}

}  // namespace

TEST_CASE("Link classes: two classes share one serializer, oldest first, round-robin on a tie", "[link][classes][timing]") {
  ClassBench b("b", classes2());
  IdleSideB idle("idle", b);
  // Same cycle: both 80 B replies latched in 11; round-robin from class 0. Class 0: bytes 0..79
  // -> last byte in 11 + 79 / 64 = 12, arrives 22; the serializer has 16 B of cycle 12 used.
  // Class 1 starts in 12: bytes 16..95 of 12.. -> last byte 12 + 95 / 64 = 13, arrives 23.
  // (On two separate links both would arrive in 22.)
  LinkBench::send(b.src0, 10, Msg::ReadReply, 64, 0);
  LinkBench::send(b.src1, 10, Msg::ReadReply, 64, 1);
  // Oldest first: a 2056 B write of class 1 (2064 B on the wire, offered 100: last byte in
  // 101 + 2063 / 64 = 133, arrives 143, 16 B of cycle 133 used) keeps the serializer busy, and
  // round-robin would next ask class 0. Class 1 offers a reply in 110, class 0 a read request in
  // 111: the older, class 1, starts first in 133 (bytes 16..95: last byte 134, arrives 144), then
  // class 0 in 134 (bytes 32..47 of 134: arrives 144). Round-robin would send class 0 first
  // (bytes 16..31 of 133: arrival 143).
  LinkBench::send(b.src1, 100, Msg::Write, 2056, 2);
  LinkBench::send(b.src1, 110, Msg::ReadReply, 64, 3);
  LinkBench::send(b.src0, 111, Msg::ReadReq, 64, 4);
  run_until(b.clk, 1000);
  CHECK(cycles(b.dst0) == std::vector<uint64_t>{22, 144});
  CHECK(cycles(b.dst1) == std::vector<uint64_t>{23, 143, 144});
  CHECK(b.link.delivered(BandwidthLink::kAtoB, 0) == 2);
  CHECK(b.link.delivered(BandwidthLink::kAtoB, 1) == 3);
  CHECK(b.link.bytes(BandwidthLink::kAtoB, 0) == 80 + 16);
  CHECK(b.link.bytes(BandwidthLink::kAtoB, 1) == 80 + 2064 + 80);
  CHECK(b.stat("a_to_b.bytes") == 80 + 16 + 80 + 2064 + 80);
  CHECK(b.stat("a_to_b.class1.bytes") == 80 + 2064 + 80);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("Link classes: a class whose receiver stalls never blocks another class", "[link][classes][backpressure]") {
  P p = classes2();
  p.rx_buffer_bytes = 1600;  // 20 replies of 80 B per class: class 1 is never short of credit
  p.tx_queue = 2;
  ClassBench b("b", p, /*depth=*/1);
  IdleSideB idle("idle", b);
  b.dst0.stall_until(500);  // class 0's receiver takes one message, then nothing until 500
  for (unsigned k = 0; k < 30; ++k) LinkBench::send(b.src0, 10 + k, Msg::ReadReply, 64, k);
  for (unsigned k = 0; k < 20; ++k) LinkBench::send(b.src1, 10 + 2 * k, Msg::ReadReply, 64, 100 + k);
  run_until(b.clk, 400);
  // Class 0: one message queued at dst0, one withheld at its out port, the other 19 of its
  // credit in its receive buffer, its tx queue full and its source held: stuck until 500.
  CHECK(b.dst0.occupancy() == 1);
  CHECK(b.link.out(BandwidthLink::kSideB, 0).busy());
  CHECK(b.link.credits(BandwidthLink::kAtoB, 0) == 0);
  CHECK(b.link.in(BandwidthLink::kSideA, 0).has_pending());
  CHECK(b.dst0.arrivals().empty());
  // Class 1 ran on over the same wire: all 20 delivered in order long before 500 (with one
  // shared queue and no per-class credit they would wait behind class 0 until then).
  REQUIRE(b.dst1.arrivals().size() == 20);
  for (unsigned k = 0; k < 20; ++k) CHECK(b.dst1.arrivals()[k].ext.pc == 100 + k);
  CHECK(b.dst1.arrivals().back().cycle < 100);
  CHECK(b.link.credits(BandwidthLink::kAtoB, 1) == 1600);
  run_until(b.clk, 1000);
  REQUIRE(b.dst0.arrivals().size() == 30);
  for (unsigned k = 0; k < 30; ++k) CHECK(b.dst0.arrivals()[k].ext.pc == k);
  CHECK(b.link.in_flight(BandwidthLink::kAtoB) == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("Link classes: random traffic of two classes both ways with stalling receivers", "[link][classes][random]") {
  P p = classes2();
  p.latency = 7;
  p.rx_buffer_bytes = 400;
  p.tx_queue = 3;
  ClockDomain clk("clk", 1000.0);
  PayloadPool pool(256);
  BandwidthLink link("link", p, clk);
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> src;   // [side * 2 + class]
  std::vector<std::unique_ptr<tb::StallingTarget>> dst;      // [side * 2 + class]: receives at that side
  for (unsigned s = 0; s < 2; ++s)
    for (unsigned c = 0; c < 2; ++c) {
      const auto side = static_cast<BandwidthLink::Side>(s);
      src.push_back(std::make_unique<tb::ScriptedInitiator>(("src" + std::to_string(s * 2 + c)).c_str(), clk, pool));
      src.back()->out.bind(link.in(side, c));
      dst.push_back(std::make_unique<tb::StallingTarget>(("dst" + std::to_string(s * 2 + c)).c_str(), clk,
                                                         c ? 10 : 40, c ? 3 : 20, 21 + s * 2 + c));
      link.out(side, c).bind(dst.back()->in);
    }
  const unsigned N = 3000;
  std::mt19937_64 rng(5);
  std::vector<unsigned> wire[4];  // [sending side * 2 + class]
  for (unsigned i = 0; i < 4; ++i) {
    uint64_t t = 10;
    for (unsigned k = 0; k < N; ++k) {
      t += rng() % 4;  // about 1.3 messages per cycle per direction over both classes: past the link
      const Msg m = static_cast<Msg>(rng() % 3);
      const unsigned data = m == Msg::Write ? 4 * (1 + rng() % 32) : 64;
      wire[i].push_back((8 + (m == Msg::ReadReq ? 0 : data) + 15) / 16 * 16);
      src[i]->at(t, [=](tlm::tlm_generic_payload& gp, MemExt& e) { fill(gp, e, m, data, k, i); });
    }
  }
  run_until(clk, 100000);
  const json st = collect_stats();
  CHECK(st["invariant_failures"].empty());
  for (unsigned s = 0; s < 2; ++s) {
    // Messages sent from side s arrive at side 1 - s; check each class, then the shared wire.
    std::vector<std::pair<uint64_t, unsigned>> finished;  // (last-byte cycle = arrival - L, wire bytes)
    for (unsigned c = 0; c < 2; ++c) {
      const unsigned i = s * 2 + c;
      INFO("side " << s << " class " << c);
      const auto& got = dst[(1 - s) * 2 + c]->taken();
      const auto& sent = src[i]->sent();
      REQUIRE(sent.size() == N);
      REQUIRE(got.size() == N);
      unsigned wrong = 0, early = 0;
      for (unsigned k = 0; k < N; ++k) {
        wrong += got[k].ext.pc != k || got[k].ext.src != i;  // in order, nothing lost or duplicated
        early += got[k].cycle < sent[k].accepted + (wire[i][k] + 63) / 64 + 7;
        finished.emplace_back(got[k].cycle - 7, wire[i][k]);
      }
      CHECK(wrong == 0);
      CHECK(early == 0);
      CHECK(dst[(1 - s) * 2 + c]->refusals() > 0);
    }
    // One serializer: the bytes whose last byte left by cycle e never exceed 64 per cycle since
    // the first latch (offered in 10 at the earliest, latched in 11).
    std::sort(finished.begin(), finished.end());
    uint64_t bytes = 0;
    unsigned over = 0;
    for (const auto& [e, w] : finished) {
      bytes += w;
      over += bytes > 64 * (e - 11 + 1);
    }
    CHECK(over == 0);
    CHECK(link.in_flight(s ? BandwidthLink::kBtoA : BandwidthLink::kAtoB) == 0);
  }
  CHECK(pool.in_use() == 0);
}

TEST_CASE("Link classes: a class past the link's classes is a clear error", "[link][classes][bad]") {
  ClockDomain clk("clk", 1000.0);
  BandwidthLink l("link", classes2(), clk);
  REQUIRE_THROWS_WITH(l.in(BandwidthLink::kSideA, 2), Catch::Contains("class 2 of a link with 2 classes"));
}
