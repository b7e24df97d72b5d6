// BandwidthLink tests: zero-load latency with paper 003's and paper 004's links, message sizes
// (header, data rule, flit rounding), a saturating stream in both directions at once at exactly
// bytes_per_cycle (packed) or whole cycles per message (unpacked), the credit loop, back-pressure
// from a stalled receiver, a random run with randomly stalling receivers in both directions
// (every message delivered once, in order, never early), idle cost, bad parameters.
// Expected cycles are derived in the comments from the model in bandwidth_link.h: a message
// offered in cycle a is latched in a + 1, the first cycle it may serialize; with W wire bytes,
// R bytes per cycle and u bytes of its start cycle s already used, its last byte leaves in
// e = s + (u + W - 1) / R and it is offered to the far side in e + L. W = header (8) + data when
// the message carries data (write requests, read replies), rounded up to whole flits.
#include <catch2/catch.hpp>

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
