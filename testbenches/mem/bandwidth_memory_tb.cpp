// BandwidthMemory tests: exact idle latency (paper 003's 100 ns), saturated throughput of
// exactly bytes_per_cycle with reads and writes sharing the channel, a full queue
// back-pressuring the source (exact acceptance cycles, queue_full_cycles), a stalled L2 filling
// the memory without loss, FIFO reply order, a random run with a randomly stalling L2, errors.
// Expected cycles are derived in the comments from the model in bandwidth_memory.h: a request
// taken in cycle a is latched in a + 1; moving A bytes at R per cycle from cycle s with u bytes
// of s already used, its last byte moves in e = s + (u + A - 1) / R and it is answered (read) or
// released (write) in e + L.
#include <catch2/catch.hpp>

#include <random>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "harness/stalling_target.h"
#include "mem/bandwidth_memory.h"

using namespace gpusc;
using P = BandwidthMemory::Params;

namespace {

struct MemBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  tb::ScriptedInitiator src{"src", clk, pool};
  BandwidthMemory mem;
  tb::ScriptedTarget dst;

  MemBench(sc_core::sc_module_name n, const P& p, unsigned depth = 4096)
      : sc_core::sc_module(n), mem("mem", p, clk), dst("dst", clk, depth) {
    src.out.bind(mem.in);
    mem.out.bind(dst.in);
  }
  void req(uint64_t cycle, bool write, unsigned length, uint64_t tag) {
    src.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = write ? MemKind::Write : MemKind::Read;
      e.pc = tag;
      gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      gp.set_address(tag * 128);
      gp.set_data_length(length);
    });
  }
  std::vector<uint64_t> reply_cycles() const {
    std::vector<uint64_t> c;
    for (const auto& a : dst.arrivals()) c.push_back(a.cycle);
    return c;
  }
  double stat(const char* key) const {
    return collect_stats()["stats"][std::string(mem.name()) + "." + key].get<double>();
  }
};

void run_until(const ClockDomain& clk, uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }

}  // namespace

TEST_CASE("BandwidthMemory: idle latency is transfer + latency, 100 ns with paper 003's numbers", "[bwmem][timing]") {
  MemBench b("b", P{});  // 768 B/cycle, latency 99, 32 B access
  b.req(10, false, 128, 0);
  run_until(b.clk, 150);
  // Taken 10, latched and moved in 11 (128 <= 768), answered 11 + 99 = 110: 100 cycles at 1 GHz.
  // Ticks: source 10, memory 11 (transfer) and 110 (reply), dst 111.
  CHECK(b.reply_cycles() == std::vector<uint64_t>{110});
  CHECK(b.clk.time_of(110) - b.clk.time_of(10) == sc_core::sc_time(100, sc_core::SC_NS));
  CHECK(b.clk.dispatched_ticks() == 4);
  const auto& a = b.dst.arrivals().at(0);
  CHECK(a.ext.is_reply);
  CHECK(a.ext.kind == MemKind::Read);
  CHECK(a.address == 0);
  b.req(200, true, 4, 1);  // a 4 B write moves one 32 B access: taken 200, released 201 + 99 = 300
  run_until(b.clk, 250);
  CHECK(b.pool.in_use() == 1);
  CHECK(b.mem.pending() == 1);
  run_until(b.clk, 400);
  CHECK(b.pool.in_use() == 0);
  CHECK(b.dst.arrivals().size() == 1);  // writes get no reply
  CHECK(b.stat("reads") == 1);
  CHECK(b.stat("writes") == 1);
  CHECK(b.stat("bytes") == 128 + 32);
  CHECK(b.stat("read_latency") == 100);
  CHECK(b.stat("latency") == 100);
}

TEST_CASE("BandwidthMemory: a transfer longer than a cycle adds its cycles", "[bwmem][timing]") {
  P p;
  p.bytes_per_cycle = 48;
  p.latency = 20;
  MemBench b("b", p);
  b.req(10, false, 128, 0);  // ceil(128 / 48) = 3 cycles: 11..13, reply 13 + 20 = 33 = 10 + 3 + 20
  b.req(100, false, 20, 1);  // 20 B -> one 32 B access, 1 cycle: 101 + 20 = 121
  run_until(b.clk, 300);
  CHECK(b.reply_cycles() == std::vector<uint64_t>{33, 121});
}

TEST_CASE("BandwidthMemory: saturated, the channel moves exactly bytes_per_cycle for reads and writes",
          "[bwmem][bandwidth]") {
  P p;
  p.bytes_per_cycle = 96;
  p.latency = 20;
  p.queue = 8;
  MemBench b("b", p);
  const unsigned N = 300;
  for (unsigned k = 0; k < N; ++k) b.req(10, k % 2 == 1, 128, k);  // even: read, odd: write
  // The last write (299) ends the stream: its last byte moves in 11 + 38399 / 96 = 410 and it is
  // released in 430. Half a cycle after 429 only it is left; half a cycle after 430, nothing.
  run_until(b.clk, 429);
  sc_core::sc_start(b.clk.period() / 2);
  CHECK(b.mem.pending() == 1);
  sc_core::sc_start(b.clk.period());
  CHECK(b.mem.pending() == 0);
  run_until(b.clk, 1000);
  // Offered one per cycle (128 B/cycle) against 96 B/cycle: the channel never waits. Request k's
  // bytes are [128k, 128k + 127] of a stream starting in cycle 11, its last byte moves in
  // 11 + (128k + 127) / 96 (k = 0: 12, k = 1: 13, k = 2: 14, k = 3: 15, k = 4: 17) and it is
  // answered 20 cycles later. 300 x 128 B = 38400 B = 400 cycles x 96 B: cycles 11..410.
  const auto c = b.reply_cycles();
  REQUIRE(c.size() == N / 2);
  CHECK(c[0] == 32);
  CHECK(c[1] == 34);  // request 2
  CHECK(c[2] == 37);  // request 4
  CHECK(c.back() == 429);  // request 298: 11 + 38271 / 96 = 409, + 20
  unsigned wrong = 0;
  for (unsigned i = 0; i < N / 2; ++i) {
    const unsigned k = 2 * i;
    wrong += c[i] != 11 + (128 * k + 127) / 96 + 20 || b.dst.arrivals()[i].ext.pc != k;
  }
  CHECK(wrong == 0);
  CHECK(b.stat("bytes") == 128.0 * N);
  CHECK(b.stat("reads") == N / 2);
  CHECK(b.stat("writes") == N / 2);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("BandwidthMemory: a full queue withholds acceptance, nothing is lost", "[bwmem][backpressure]") {
  P p;
  p.bytes_per_cycle = 32;  // 4 cycles per 128 B line
  p.latency = 10;
  p.queue = 2;
  MemBench b("b", p);
  for (unsigned k = 0; k < 10; ++k) b.req(10, false, 128, k);
  run_until(b.clk, 200);
  // The channel is the bottleneck: request k moves in 11 + 4k .. 14 + 4k and is answered in
  // 24 + 4k. The queue holds a request until its transfer starts: 0 is taken in 10 and starts
  // in 11; 1 and 2 are taken in 11 and 12 and fill the queue; 3, offered in 13, is refused and
  // taken when 1 starts (15). From then on request k (k >= 4) is offered the cycle after k - 1
  // was taken (4k) and taken when k - 2 starts, in 11 + 4 (k - 2) = 4k + 3.
  const uint64_t offered[10] = {10, 11, 12, 13, 16, 20, 24, 28, 32, 36};
  const uint64_t taken[10] = {10, 11, 12, 15, 19, 23, 27, 31, 35, 39};
  const auto& s = b.src.sent();
  REQUIRE(s.size() == 10);
  for (unsigned k = 0; k < 10; ++k) {
    INFO("request " << k);
    CHECK(s[k].offered == offered[k]);
    CHECK(s[k].accepted == taken[k]);
    CHECK(b.dst.arrivals().at(k).cycle == 24 + 4 * k);
    CHECK(b.dst.arrivals().at(k).ext.pc == k);  // FIFO
  }
  CHECK(b.stat("queue_full") == 7);          // 3..9 each refused once
  CHECK(b.stat("queue_full_cycles") == 20);  // 3 waited 2 cycles, 4..9 waited 3 each
  CHECK(b.mem.pending() == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("BandwidthMemory: a stalled L2 stops the memory, which then back-pressures its source",
          "[bwmem][backpressure]") {
  P p;
  p.bytes_per_cycle = 128;  // one line per cycle
  p.latency = 5;
  p.queue = 2;
  MemBench b("b", p, /*depth=*/1);
  b.dst.stall_until(300);
  for (unsigned k = 0; k < 10; ++k) b.req(10, false, 128, k);
  run_until(b.clk, 299);
  // Request k is taken in 10 + k and moved in 11 + k. 0 is answered in 16 into the L2's only
  // slot; 1's reply (17) is withheld, and from then no transfer starts: 2..6 (moved 13..17)
  // wait behind it. 7 and 8 (taken 17, 18) fill the queue; 9, offered in 19, is refused.
  CHECK(b.dst.occupancy() == 1);
  CHECK(b.mem.out.busy());
  CHECK(b.mem.occupancy() == 2);
  CHECK(b.mem.pending() == 7);
  CHECK(b.mem.in.has_pending());
  REQUIRE(b.src.sent().size() == 10);
  CHECK(b.src.sent()[9].offered == 19);
  CHECK(b.src.sent()[9].accepted == UINT64_MAX);
  CHECK(b.dst.arrivals().empty());
  run_until(b.clk, 600);
  REQUIRE(b.dst.arrivals().size() == 10);
  for (unsigned k = 0; k < 10; ++k) CHECK(b.dst.arrivals()[k].ext.pc == k);
  CHECK(b.mem.pending() == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("BandwidthMemory: 10^4 random requests with a randomly stalling L2, every read answered once in order",
          "[bwmem][random]") {
  P p;
  p.bytes_per_cycle = 64;
  p.latency = 30;
  p.queue = 6;
  ClockDomain clk("clk", 1000.0);
  PayloadPool pool(128);
  tb::ScriptedInitiator src("src", clk, pool);
  BandwidthMemory mem("mem", p, clk);
  tb::StallingTarget dst("dst", clk, 20, 8, 31);
  src.out.bind(mem.in);
  mem.out.bind(dst.in);
  const unsigned N = 10000;
  std::mt19937_64 rng(9);
  std::vector<unsigned> moved(N);
  std::vector<uint64_t> reads;
  uint64_t t = 10, bytes = 0, n_writes = 0;
  for (unsigned k = 0; k < N; ++k) {
    t += rng() % 2;
    const bool write = rng() % 3 == 0;
    const unsigned length = write ? 4 * (1 + static_cast<unsigned>(rng() % 32)) : 128;
    moved[k] = (length + 31) / 32 * 32;
    bytes += moved[k];
    n_writes += write;
    if (!write) reads.push_back(k);
    src.at(t, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = write ? MemKind::Write : MemKind::Read;
      e.pc = k;
      gp.set_data_length(length);
    });
  }
  run_until(clk, 1000000);
  const auto& got = dst.taken();
  const auto& sent = src.sent();
  REQUIRE(sent.size() == N);
  REQUIRE(got.size() == reads.size());
  unsigned misordered = 0, early = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    misordered += got[i].ext.pc != reads[i] || !got[i].ext.is_reply;
    early += got[i].cycle < sent[reads[i]].accepted + (moved[reads[i]] + 63) / 64 + 30;
  }
  CHECK(misordered == 0);
  CHECK(early == 0);
  CHECK(dst.refusals() > 0);
  CHECK(pool.in_use() == 0);
  CHECK(mem.pending() == 0);
  const json st = collect_stats();
  CHECK(st["invariant_failures"].empty());
  CHECK(st["stats"]["mem.bytes"] == bytes);
  CHECK(st["stats"]["mem.writes"] == n_writes);
  CHECK(st["stats"]["mem.reads"] == N - n_writes);
  CHECK(st["stats"]["mem.queue_full"].get<double>() > 0);
  CHECK(st["stats"]["mem.queue_full_cycles"].get<double>() > 0);
}

TEST_CASE("BandwidthMemory: b_transport answers a read at once without timing or stats", "[bwmem][functional]") {
  MemBench b("b", P{});
  auto& gp = b.pool.acquire();
  MemExt& e = *gp.get_extension<MemExt>();
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  b.mem.in.get_base_interface().b_transport(gp, t);
  CHECK(e.is_reply);
  CHECK(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
  CHECK(t == sc_core::SC_ZERO_TIME);
  CHECK(b.stat("reads") == 0);
  gp.release();
}

TEST_CASE("BandwidthMemory: an atomic request is a clear error", "[bwmem][bad]") {
  MemBench b("b", P{});
  b.src.at(5, [](tlm::tlm_generic_payload&, MemExt& e) { e.kind = MemKind::Atomic; });
  REQUIRE_THROWS_WITH(run_until(b.clk, 20), Catch::Contains("takes Read and Write (write-back) requests only"));
}

TEST_CASE("BandwidthMemory: a request larger than a line is a clear error", "[bwmem][bad]") {
  MemBench b("b", P{});
  b.src.at(5, [](tlm::tlm_generic_payload& gp, MemExt&) { gp.set_data_length(256); });
  REQUIRE_THROWS_WITH(run_until(b.clk, 20), Catch::Contains("b.mem: ") &&
                                                Catch::Contains("request of 256 bytes exceeds one line (line_bytes = 128)"));
}

namespace {
void construct(const P& p) {
  ClockDomain clk("clk", 1000.0);
  BandwidthMemory m("mem", p, clk);
}
}  // namespace

TEST_CASE("BandwidthMemory: zero bytes per cycle is a clear error", "[bwmem][bad]") {
  P p;
  p.bytes_per_cycle = 0;
  REQUIRE_THROWS_WITH(construct(p), Catch::Contains("parameter 'mem.bytes_per_cycle' = 0 is out of range [1, 65536]"));
}

TEST_CASE("BandwidthMemory: a zero-entry queue is a clear error", "[bwmem][bad]") {
  P p;
  p.queue = 0;
  REQUIRE_THROWS_WITH(construct(p), Catch::Contains("parameter 'mem.queue' = 0 is out of range [1, 65536]"));
}

TEST_CASE("BandwidthMemory: params load from JSON by name, unknown keys are errors", "[bwmem][bad]") {
  const P p = params_from_json<P>(parse_json(R"({"bytes_per_cycle": 512, "latency": 120})", "test"), "hbm");
  CHECK(p.bytes_per_cycle == 512);
  CHECK(p.latency == 120);
  CHECK(p.queue == 64);
  REQUIRE_THROWS_WITH(params_from_json<P>(parse_json(R"({"banks": 16})", "test"), "hbm"),
                      Catch::Contains("unknown parameter 'hbm.banks'"));
}
