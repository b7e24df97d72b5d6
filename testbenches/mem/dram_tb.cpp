// DramChannel tests: exact idle latencies (closed bank, row hit, row conflict), each timing
// constraint on its own (tCCD, tCCDL, tRRD, tRAS, tRC, tCDLR, tWR, data bus), FR-FCFS vs FCFS
// order, back-pressure from a full queue and from a stalled L2, the fixed latency in front of the
// scheduler (idle latencies, throughput, back-pressure), a 10^4-request random run with
// conservation and stats invariants, bad configurations and malformed requests.
// Expected cycles are derived in the comments from the documented model (dram_channel.h):
// a request offered in cycle a is latched in a + 1 and, with fixed_latency F (0 in the bank
// timing cases), reaches the scheduler in a + 1 + F; a read's reply is sent in the cycle after
// its last data beat, RD + tCL + burst_cycles; a write's data ends at WR + tWL + burst_cycles.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>

#include "common/address_map.h"
#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "mem/dram_channel.h"

using namespace gpusc;
using P = DramChannel::Params;

namespace {

// The documented mapping, low to high: line offset | bank group | column | bank in group | row,
// bank id = group * (banks / bank_groups) + bank in group.
uint64_t addr(const P& p, unsigned bank, uint64_t row, unsigned col) {
  const unsigned bpg = p.banks / p.bank_groups, cols = p.row_bytes / p.line_bytes;
  const uint64_t line = ((row * bpg + bank % bpg) * cols + col) * p.bank_groups + bank / bpg;
  return line * p.line_bytes;
}

// Scripted L2 side: requests from src into the channel, replies into dst.
struct DramBench : sc_core::sc_module {
  P p;
  ClockDomain clk{"clk", 924.0};
  PayloadPool pool{128};
  tb::ScriptedInitiator src{"src", clk, pool};
  DramChannel dram;
  tb::ScriptedTarget dst;

  DramBench(sc_core::sc_module_name n, const P& params, unsigned target_depth = 64)
      : sc_core::sc_module(n), p(params), dram("dram", params, clk), dst("dst", clk, target_depth) {
    src.out.bind(dram.in);
    dram.out.bind(dst.in);
  }
  void req(uint64_t cycle, bool write, uint64_t address, uint64_t tag) {
    src.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = write ? MemKind::Write : MemKind::Read;
      e.pc = tag;
      gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      gp.set_address(address);
      gp.set_data_length(128);
    });
  }
  void read(uint64_t cycle, unsigned bank, uint64_t row, unsigned col, uint64_t tag) {
    req(cycle, false, addr(p, bank, row, col), tag);
  }
  void write(uint64_t cycle, unsigned bank, uint64_t row, unsigned col, uint64_t tag) {
    req(cycle, true, addr(p, bank, row, col), tag);
  }
  // Cycle the reply tagged `tag` reached dst; it must have arrived exactly once.
  uint64_t reply(uint64_t tag) const {
    uint64_t at = UINT64_MAX;
    unsigned n = 0;
    for (const auto& a : dst.arrivals())
      if (a.ext.pc == tag) at = a.cycle, ++n;
    INFO("reply tag " << tag);
    REQUIRE(n == 1);
    return at;
  }
  double stat(const char* key) const {
    return collect_stats()["stats"][std::string(dram.name()) + "." + key].get<double>();
  }
};

void run_until(const ClockDomain& clk, uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }

// Bank timing alone (fixed_latency = 0): most cases check the command constraints; the fixed
// latency in front of the scheduler has cases of its own.
P bank_only() {
  P p;
  p.fixed_latency = 0;
  return p;
}

P fast_bus() {  // one data cycle per line, so command timing shows in the reply times
  P p = bank_only();
  p.burst_cycles = 1;
  return p;
}

}  // namespace

TEST_CASE("DRAM: address decoding follows the documented bit order", "[dram][map]") {
  DramBench b("b", bank_only());
  const auto check = [&](uint64_t a, unsigned bank, uint64_t row, unsigned col) {
    INFO("address 0x" << std::hex << a);
    const auto c = b.dram.decode(a);
    CHECK(c.bank == bank);
    CHECK(c.row == row);
    CHECK(c.column == col);
  };
  // 128 B lines, 4 groups of 4 banks, 16 lines per 2 KB row.
  check(0x0, 0, 0, 0);
  check(0x7f, 0, 0, 0);      // same line
  check(0x80, 4, 0, 0);      // line 1: group 1 = banks 4..7
  check(0x180, 12, 0, 0);    // line 3: group 3
  check(0x200, 0, 0, 1);     // line 4: back to group 0, next column
  check(0x1f80, 12, 0, 15);  // line 63: group 3, last column
  check(0x2000, 1, 0, 0);    // line 64: next bank in group 0
  check(0x8000, 0, 1, 0);    // 32 KB = 16 banks x 2 KB: next row
  check(addr(b.p, 7, 3, 5), 7, 3, 5);
  CHECK(b.dram.group_of(7) == 1);
  // With the platform's address map (8 partitions, 256 B chunks) the local address decides:
  // global 0x40300 is partition 3, local (0x40300 / 256 / 8) * 256 = 0x8000 -> bank 0, row 1.
  AddressMap m(8);
  b.dram.set_address_map([m](uint64_t a) { return m.local(a); });
  CHECK(m.partition(0x40300) == 3);
  check(0x40300, 0, 1, 0);
  check(0x40380, 4, 1, 0);  // local 0x8080
  check(0x100, 0, 0, 0);    // partition 1, local 0
}

TEST_CASE("DRAM: read to a closed bank takes 1 + tRCD + tCL + burst and the channel sleeps between commands",
          "[dram][timing]") {
  DramBench b("b", bank_only());
  b.read(10, 0, 0, 0, 1);
  run_until(b.clk, 100);
  // Latched 11: ACT 11, RD 11 + tRCD = 23, data 35..42, reply 43 = 10 + 1 + 12 + 12 + 8.
  CHECK(b.reply(1) == 43);
  const auto& a = b.dst.arrivals().at(0);
  CHECK(a.ext.is_reply);
  CHECK(a.ext.kind == MemKind::Read);
  CHECK(a.address == 0);
  CHECK(a.cmd == tlm::TLM_READ_COMMAND);
  // 33 cycles at 924 MHz (period rounded to 1082 ps) = 35.706 ns.
  CHECK(b.clk.period() == sc_core::sc_time(1082, sc_core::SC_PS));
  CHECK((b.clk.time_of(43) - b.clk.time_of(10)).to_seconds() * 1e9 == Approx(35.706));
  // Ticks: initiator 10; channel 11 (ACT), 23 (RD), 43 (reply); target 44. Nothing else.
  CHECK(b.clk.dispatched_ticks() == 5);
  CHECK(b.stat("reads") == 1);
  CHECK(b.stat("row_misses") == 1);
  CHECK(b.stat("row_hits") == 0);
  CHECK(b.stat("activates") == 1);
  CHECK(b.stat("precharges") == 0);
  CHECK(b.stat("read_latency") == 33);
  CHECK(b.stat("data_bus_busy") == 8);
  CHECK(b.stat("queue_occupancy") == Approx(33.0 / 100));  // one entry held 10..43 of 100 cycles
  CHECK(b.stat("data_bus_utilization") == Approx(8.0 / 100));
  CHECK(b.dram.occupancy() == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("DRAM: row hits take 1 + tCL + burst and back to back they are one burst apart", "[dram][timing]") {
  DramBench b("b", bank_only());
  b.read(10, 0, 0, 0, 1);
  b.read(11, 0, 0, 1, 2);
  b.read(100, 0, 0, 2, 3);
  run_until(b.clk, 200);
  // 1: ACT 11, RD 23, reply 43. 2 (latched 12) hits the row opened for 1: RD >= 23 + tCCD = 25,
  // but its data may start only when 1's data ends (43): RD 43 - tCL = 31, reply 51 = 43 + 8.
  CHECK(b.reply(1) == 43);
  CHECK(b.reply(2) == 51);
  // 3 arrives at an idle channel with the row open: 100 + 1 + tCL + burst = 121.
  CHECK(b.reply(3) == 121);
  CHECK(b.stat("row_hits") == 2);
  CHECK(b.stat("row_misses") == 1);
  CHECK(b.stat("activates") == 1);
  CHECK(b.stat("read_latency") == Approx((33.0 + 40 + 21) / 3));
}

TEST_CASE("DRAM: column commands are tCCD apart, tCCDL within one bank group", "[dram][timing]") {
  P p = fast_bus();
  p.tCCDL = 5;
  DramBench b("b", p);
  // Open row 0 in banks 0 and 1 (group 0) and bank 4 (group 1); all done long before 200.
  b.read(10, 0, 0, 0, 1);
  b.read(11, 1, 0, 0, 2);
  b.read(12, 4, 0, 0, 3);
  // Same group: A RD 201 (reply 201 + 12 + 1 = 214); B (latched 202) RD >= 201 + tCCDL = 206, reply 219.
  b.read(200, 0, 0, 1, 10);
  b.read(201, 1, 0, 1, 11);
  // Other group: C RD 301 (reply 314); D (latched 302) RD >= 301 + tCCD = 303, reply 316.
  b.read(300, 0, 0, 2, 20);
  b.read(301, 4, 0, 1, 21);
  run_until(b.clk, 400);
  CHECK(b.reply(10) == 214);
  CHECK(b.reply(11) == 219);
  CHECK(b.reply(20) == 314);
  CHECK(b.reply(21) == 316);
  CHECK(b.stat("row_hits") == 4);
}

TEST_CASE("DRAM: row conflict takes 1 + tRP + tRCD + tCL + burst, after tRAS and tRC", "[dram][timing]") {
  P slow_rc = bank_only();
  slow_rc.tRC = 60;
  DramBench b("b", bank_only()), c("c", slow_rc);
  for (DramBench* x : {&b, &c}) {
    x->read(10, 0, 0, 0, 1);
    x->read(11, 0, 1, 0, 2);
    x->read(300, 0, 2, 0, 3);
  }
  run_until(b.clk, 400);
  // 1: ACT 11, RD 23, reply 43. 2 conflicts: PRE >= ACT + tRAS = 39 (and >= RD + burst = 31),
  // ACT >= PRE + tRP = 51 and >= 11 + tRC = 51, RD 63, reply 83.
  CHECK(b.reply(1) == 43);
  CHECK(b.reply(2) == 83);
  // 3 meets an idle bank with row 1 open: PRE 301, ACT 313, RD 325, reply 345 = 300 + 45.
  CHECK(b.reply(3) == 345);
  CHECK(b.stat("row_conflicts") == 2);
  CHECK(b.stat("row_misses") == 1);
  CHECK(b.stat("precharges") == 2);
  CHECK(b.stat("activates") == 3);
  // tRC = 60 > tRAS + tRP: 2's ACT waits until 11 + 60 = 71, RD 83, reply 103.
  CHECK(c.reply(1) == 43);
  CHECK(c.reply(2) == 103);
  CHECK(c.reply(3) == 345);  // ACT 313 >= 71 + 60: tRC no longer binds
}

TEST_CASE("DRAM: the fixed latency adds fixed_latency to the idle closed-bank, row-hit and conflict latencies",
          "[dram][timing][fixed]") {
  const P p;  // defaults: fixed_latency 132, burst_cycles 8
  REQUIRE(p.fixed_latency == 132);
  DramBench b("b", p), z("z", bank_only());
  for (DramBench* x : {&b, &z}) {
    x->read(10, 0, 0, 0, 1);   // closed bank
    x->read(400, 0, 0, 1, 2);  // row 0 open: row hit
    x->read(800, 0, 1, 0, 3);  // row 1: conflict
  }
  run_until(b.clk, 1200);
  // Latched a + 1, scheduler from a + 1 + 132, then the bank timing of the cases above.
  CHECK(b.reply(1) == 10 + 1 + 132 + 12 + 12 + 8);        // 175
  CHECK(b.reply(2) == 400 + 1 + 132 + 12 + 8);            // 553
  CHECK(b.reply(3) == 800 + 1 + 132 + 12 + 12 + 12 + 8);  // 977
  CHECK(b.stat("row_misses") == 1);
  CHECK(b.stat("row_hits") == 1);
  CHECK(b.stat("row_conflicts") == 1);
  CHECK(b.stat("read_latency") == Approx((165.0 + 153 + 177) / 3));
  // The pipeline costs no ticks: the channel sleeps until a request leaves it, so the run
  // takes as many ticks as the same reads without the fixed latency.
  CHECK(b.clk.dispatched_ticks() == z.clk.dispatched_ticks());
  CHECK(z.reply(3) == 800 + 1 + 12 + 12 + 12 + 8);
  CHECK(b.dram.pending() == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("DRAM: the fixed-latency pipeline does not hold queue entries, so it does not cut throughput",
          "[dram][timing][fixed]") {
  const P p;  // queue 16: 16 requests per 153-cycle row hit would be one per 9.6 cycles, not 8
  DramBench b("b", p, /*target_depth=*/128);
  for (unsigned g = 0; g < 4; ++g) b.read(10, 4 * g, 0, 0, 100 + g);  // open row 0 of banks 0, 4, 8, 12
  for (unsigned i = 0; i < 64; ++i) b.read(500, 4 * (i % 4), 0, i / 4, i);  // 64 row hits, back to back
  run_until(b.clk, 2000);
  // Offered 500.. as fast as taken (one per cycle): the first answers at 500 + 1 + 132 + 12 + 8,
  // the rest one burst (8 data-bus cycles) apart.
  for (unsigned i = 0; i < 64; ++i) {
    INFO("read " << i);
    CHECK(b.src.sent()[4 + i].accepted == 500 + i);
    CHECK(b.reply(i) == 653 + 8 * i);
  }
  CHECK(b.stat("queue_full") == 0);
  CHECK(b.stat("row_hits") == 64);
}

TEST_CASE("DRAM: a full queue stalls the fixed-latency pipeline, a full pipeline withholds acceptance",
          "[dram][backpressure][fixed]") {
  P p = bank_only();
  p.fixed_latency = 4;
  p.queue = 1;
  DramBench b("b", p, /*target_depth=*/1);
  b.dst.stall_until(300);
  for (unsigned i = 0; i < 10; ++i) b.read(10, 0, 0, i, i);
  run_until(b.clk, 299);
  // Reply 0 sits in the L2's one-entry queue, reply 1 is handed over but withheld, request 2
  // holds the one queue entry (its reply cannot leave), 3..6 fill the four pipeline stages,
  // 7 is offered and withheld, 8 and 9 not yet offered.
  CHECK(b.dst.occupancy() == 1);
  CHECK(b.dram.out.busy());
  CHECK(b.dram.occupancy() == 1);
  CHECK(b.dram.pending() == 5);
  const auto& s = b.src.sent();
  REQUIRE(s.size() == 8);
  CHECK(s[7].accepted == UINT64_MAX);
  run_until(b.clk, 600);
  REQUIRE(b.dst.arrivals().size() == 10);
  for (unsigned i = 0; i < 10; ++i) CHECK(b.dst.arrivals()[i].ext.pc == i);
  CHECK(b.dram.pending() == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("DRAM: activates to different banks are tRRD apart", "[dram][timing]") {
  P p = fast_bus();
  p.tRRD = 7;
  DramBench b("b", p);
  b.read(10, 0, 0, 0, 1);
  b.read(11, 4, 0, 0, 2);
  b.read(12, 8, 0, 0, 3);
  run_until(b.clk, 100);
  // ACTs 11, 18, 25 (tRRD = 7, each already latched); RDs + tRCD = 23, 30, 37 (no two commands
  // share a cycle); replies RD + tCL + 1 = 36, 43, 50.
  CHECK(b.reply(1) == 36);
  CHECK(b.reply(2) == 43);
  CHECK(b.reply(3) == 50);
  CHECK(b.stat("activates") == 3);
}

TEST_CASE("DRAM: FR-FCFS serves a younger row hit before an older row conflict", "[dram][sched]") {
  DramBench b("b", bank_only());
  b.read(10, 0, 1, 0, 1);   // opens row 1: ACT 11, RD 23, reply 43
  b.read(100, 0, 1, 1, 2);  // A, row hit: RD 101, reply 121
  b.read(101, 0, 2, 0, 3);  // B, conflict: PRE >= max(11 + tRAS, 101 + burst) = 109
  b.read(102, 0, 1, 2, 4);  // C, row hit: RD >= 121 - tCL = 109 (data bus)
  run_until(b.clk, 300);
  // At 109 both are legal; the hit C goes first (RD 109, reply 129) and B waits: PRE >= 109 +
  // burst = 117, ACT 129, RD 141, reply 161.
  CHECK(b.reply(1) == 43);
  CHECK(b.reply(2) == 121);
  CHECK(b.reply(4) == 129);
  CHECK(b.reply(3) == 161);
  CHECK(b.stat("row_hits") == 2);
  CHECK(b.stat("row_misses") == 1);
  CHECK(b.stat("row_conflicts") == 1);
  CHECK(b.stat("activates") == 2);
  CHECK(b.stat("precharges") == 1);
}

TEST_CASE("DRAM: FCFS serves the same queue in arrival order", "[dram][sched]") {
  P p = bank_only();
  p.scheduler = "fcfs";
  DramBench b("b", p);
  b.read(10, 0, 1, 0, 1);
  b.read(100, 0, 1, 1, 2);
  b.read(101, 0, 2, 0, 3);
  b.read(102, 0, 1, 2, 4);
  run_until(b.clk, 300);
  // A as before (121). B is older than C in bank 0: PRE 109, ACT 121, RD 133, reply 153.
  // C then conflicts: PRE >= max(121 + tRAS, 133 + burst) = 149, ACT >= max(161, 121 + tRC) = 161,
  // RD 173, reply 193.
  CHECK(b.reply(2) == 121);
  CHECK(b.reply(3) == 153);
  CHECK(b.reply(4) == 193);
  CHECK(b.stat("row_hits") == 1);
  CHECK(b.stat("row_conflicts") == 2);
  CHECK(b.stat("activates") == 3);
  CHECK(b.stat("precharges") == 2);
}

TEST_CASE("DRAM: a write delays reads by tCDLR and its bank's precharge by tWR and gets no reply",
          "[dram][timing][write]") {
  DramBench b("b", bank_only()), c("c", bank_only());
  // b: W to bank 0, R to bank 4 (both closed). W: ACT 11, WR 23, data 27..34, done 35.
  // R: ACT 17 (tRRD), RD >= max(17 + tRCD = 29, 35 + tCDLR = 40) = 40, reply 60.
  b.write(10, 0, 0, 0, 1);
  b.read(11, 4, 0, 0, 2);
  // c: W as above, R to bank 0 row 1: PRE >= max(11 + tRAS = 39, 35 + tWR = 47) = 47,
  // ACT 59, RD 71, reply 91.
  c.write(10, 0, 0, 0, 1);
  c.read(11, 0, 1, 0, 2);
  run_until(b.clk, 200);
  for (DramBench* x : {&b, &c}) {
    REQUIRE(x->dst.arrivals().size() == 1);  // the read's reply only
    CHECK(x->dst.arrivals()[0].ext.pc == 2);
    CHECK(x->pool.in_use() == 0);            // the write's payload was released
    CHECK(x->stat("writes") == 1);
    CHECK(x->stat("reads") == 1);
    CHECK(x->stat("data_bus_busy") == 16);
  }
  CHECK(b.reply(2) == 60);
  CHECK(c.reply(2) == 91);
  CHECK(c.stat("row_conflicts") == 1);
}

TEST_CASE("DRAM: a full queue withholds acceptance and the initiator waits without loss",
          "[dram][backpressure]") {
  P p = bank_only();
  p.queue = 2;
  DramBench b("b", p);
  for (unsigned i = 0; i < 6; ++i) b.read(10, 0, 0, i, i);  // offered as fast as taken
  run_until(b.clk, 200);
  // 0: ACT 11, RD 23, reply 43. 1 (latched 12): RD = 43 - tCL = 31 (bus), reply 51.
  // 2 is offered at 12 and taken when 0's reply frees an entry (43); latched 44, RD 44 (bus
  // free from 51 - 12 = 39), reply 64. Then k >= 3 is taken when k - 2 replies and issues at
  // max(latch, previous data end - tCL): 3: taken 51, RD 52, reply 72; 4: taken 64, RD 65,
  // reply 85; 5: taken 72, RD 73, reply 93.
  const uint64_t taken[6] = {10, 11, 43, 51, 64, 72};
  const uint64_t offered[6] = {10, 11, 12, 44, 52, 65};
  const uint64_t replied[6] = {43, 51, 64, 72, 85, 93};
  const auto& s = b.src.sent();
  REQUIRE(s.size() == 6);
  for (unsigned i = 0; i < 6; ++i) {
    INFO("request " << i);
    CHECK(s[i].offered == offered[i]);
    CHECK(s[i].accepted == taken[i]);
    CHECK(b.reply(i) == replied[i]);
  }
  CHECK(b.stat("queue_full") == 4);
  CHECK(b.stat("row_hits") == 5);
  CHECK(b.dram.occupancy() == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("DRAM: a stalled L2 fills the channel, which then back-pressures its source", "[dram][backpressure]") {
  P p = bank_only();
  p.queue = 4;
  DramBench b("b", p, /*target_depth=*/1);
  b.dst.stall_until(300);
  for (unsigned i = 0; i < 8; ++i) b.read(10, 0, 0, i, i);
  run_until(b.clk, 299);
  // Reply 0 sits in the L2's one-entry queue, reply 1 is handed over but withheld (END_REQ),
  // replies 2..5 hold the 4 queue entries, request 6 is offered and withheld, 7 not yet offered.
  CHECK(b.dst.occupancy() == 1);
  CHECK(b.dram.out.busy());
  CHECK(b.dram.occupancy() == 4);
  const auto& s = b.src.sent();
  REQUIRE(s.size() == 7);
  CHECK(s[6].accepted == UINT64_MAX);
  CHECK(b.dst.arrivals().empty());
  run_until(b.clk, 600);
  REQUIRE(b.dst.arrivals().size() == 8);
  for (unsigned i = 0; i < 8; ++i) {
    CHECK(b.dst.arrivals()[i].ext.pc == i);  // all row hits of one bank: in order
    CHECK(b.dst.arrivals()[i].consumed >= 300);
  }
  CHECK(b.dram.occupancy() == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("DRAM: 10^4 random requests, every read answered once, writes released, stats add up",
          "[dram][random]") {
  P fcfs = bank_only();
  fcfs.scheduler = "fcfs";
  DramBench fr("fr", bank_only()), fc("fc", fcfs), fx("fx", P{});  // fx: with the fixed latency
  const unsigned N = 10000;
  std::mt19937_64 rng(7);
  std::vector<bool> is_write(N);
  std::vector<unsigned> bank_of(N);
  uint64_t t = 10, n_writes = 0;
  for (unsigned i = 0; i < N; ++i) {
    t += rng() % 10;  // offered faster than the data bus drains (8 cycles per line)
    is_write[i] = rng() % 10 < 3;
    n_writes += is_write[i];
    const unsigned bank = static_cast<unsigned>(rng() % 16), col = static_cast<unsigned>(rng() % 16);
    const uint64_t row = rng() % 4;
    bank_of[i] = bank;
    for (DramBench* x : {&fr, &fc, &fx}) x->req(t, is_write[i], addr(x->p, bank, row, col), i);
  }
  run_until(fr.clk, 2'000'000);
  const json st = collect_stats();
  CHECK(st["invariant_failures"].empty());
  for (DramBench* x : {&fr, &fc, &fx}) {
    INFO(x->name());
    CHECK(x->src.queued() == 0);
    REQUIRE(x->src.sent().size() == N);
    std::vector<unsigned> seen(N, 0);
    for (const auto& a : x->dst.arrivals()) {
      REQUIRE(a.ext.pc < N);
      ++seen[a.ext.pc];
      CHECK(a.ext.is_reply);
    }
    unsigned bad = 0;
    for (unsigned i = 0; i < N; ++i) bad += seen[i] != (is_write[i] ? 0u : 1u);
    CHECK(bad == 0);
    CHECK(x->dst.arrivals().size() == N - n_writes);
    // Each read's latency is at least an idle row hit: 1 + fixed_latency + tCL + burst.
    unsigned too_fast = 0;
    const uint64_t row_hit = 1 + x->p.fixed_latency + 12 + 8;
    for (const auto& a : x->dst.arrivals()) too_fast += a.cycle < x->src.sent()[a.ext.pc].accepted + row_hit;
    CHECK(too_fast == 0);
    CHECK(x->pool.in_use() == 0);
    CHECK(x->dram.pending() == 0);
    const double reads = x->stat("reads"), writes = x->stat("writes");
    CHECK(reads == N - n_writes);
    CHECK(writes == n_writes);
    const double hits = x->stat("row_hits"), misses = x->stat("row_misses"), conflicts = x->stat("row_conflicts");
    CHECK(reads + writes == hits + misses + conflicts);
    CHECK(x->stat("activates") == misses + conflicts);  // one ACT per miss or conflict
    CHECK(x->stat("precharges") == conflicts);         // one PRE per conflict
    CHECK(x->stat("data_bus_busy") == 8.0 * N);
    CHECK(x->stat("queue_full") > 0);                   // the load did saturate the queue
  }
  // FCFS keeps arrival order within a bank: reads of one bank reply in acceptance order.
  std::map<unsigned, uint64_t> last;
  unsigned out_of_order = 0;
  for (const auto& a : fc.dst.arrivals()) {
    const unsigned bank = bank_of[a.ext.pc];
    if (last.count(bank) && last[bank] > a.ext.pc) ++out_of_order;
    last[bank] = a.ext.pc;
  }
  CHECK(out_of_order == 0);
  // The point of FR-FCFS: more row hits than FCFS on the same stream.
  CHECK(fr.stat("row_hits") > fc.stat("row_hits"));
  // The fixed latency delays the stream but does not slow it: the data bus is the bottleneck
  // (8 cycles per line) with or without the 132-cycle pipeline.
  const auto last_reply = [](const DramBench& x) {
    uint64_t c = 0;
    for (const auto& a : x.dst.arrivals()) c = std::max(c, a.cycle);
    return c;
  };
  INFO("last reply: fr " << last_reply(fr) << ", fx " << last_reply(fx));
  CHECK(last_reply(fx) <= last_reply(fr) + fx.p.fixed_latency + 64);
}

TEST_CASE("DRAM: b_transport answers a read at once without timing or stats", "[dram][functional]") {
  DramBench b("b", bank_only());
  PayloadPool pool;
  auto& gp = pool.acquire();
  MemExt& e = *gp.get_extension<MemExt>();
  e.kind = MemKind::Read;
  gp.set_address(0x1234 & ~0x7full);
  sc_core::sc_time t = sc_core::sc_time(5, sc_core::SC_NS);
  b.dram.in.get_base_interface().b_transport(gp, t);
  CHECK(e.is_reply);
  CHECK(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
  CHECK(t == sc_core::sc_time(5, sc_core::SC_NS));
  auto& w = pool.acquire();
  w.get_extension<MemExt>()->kind = MemKind::Write;
  b.dram.in.get_base_interface().b_transport(w, t);
  CHECK_FALSE(w.get_extension<MemExt>()->is_reply);
  CHECK(b.stat("reads") == 0);
  CHECK(b.stat("writes") == 0);
  gp.release();
  w.release();
}

TEST_CASE("DRAM: an atomic request is a clear error", "[dram][bad]") {
  DramBench b("b", bank_only());
  b.src.at(5, [](tlm::tlm_generic_payload&, MemExt& e) { e.kind = MemKind::Atomic; });
  REQUIRE_THROWS_WITH(run_until(b.clk, 20), Catch::Contains("takes Read and Write (write-back) requests only"));
}

TEST_CASE("DRAM: a request larger than a line is a clear error", "[dram][bad]") {
  DramBench b("b", bank_only());
  b.src.at(5, [](tlm::tlm_generic_payload& gp, MemExt&) { gp.set_data_length(256); });
  REQUIRE_THROWS_WITH(run_until(b.clk, 20), Catch::Contains("exceeds one line (line_bytes = 128)"));
}

namespace {
void construct(const P& p) {
  ClockDomain clk("clk", 924.0);
  DramChannel d("dram", p, clk);
}
}  // namespace

TEST_CASE("DRAM: banks not divisible by bank groups is a clear error", "[dram][bad]") {
  P p;
  p.banks = 18;
  REQUIRE_THROWS_WITH(construct(p), Catch::Contains("banks (18) must be a multiple of bank_groups (4)"));
}

TEST_CASE("DRAM: a zero-entry queue is a clear error", "[dram][bad]") {
  P p;
  p.queue = 0;
  REQUIRE_THROWS_WITH(construct(p), Catch::Contains("parameter 'dram.queue' = 0 is out of range [1, 4096]"));
}

TEST_CASE("DRAM: tRAS greater than tRC is a clear error", "[dram][bad]") {
  P p;
  p.tRAS = 41;
  REQUIRE_THROWS_WITH(construct(p), Catch::Contains("tRAS (41) must not exceed tRC (40)"));
}

TEST_CASE("DRAM: a row that is not a whole number of lines is a clear error", "[dram][bad]") {
  P p;
  p.row_bytes = 2000;
  REQUIRE_THROWS_WITH(construct(p), Catch::Contains("row_bytes (2000) must be a multiple of line_bytes (128)"));
}

TEST_CASE("DRAM: params load from JSON by name, unknown keys and schedulers are errors", "[dram][bad]") {
  const P p = params_from_json<P>(parse_json(R"({"scheduler": "fcfs", "queue": 2, "tCL": 9})", "test"), "dram");
  CHECK(p.scheduler == "fcfs");
  CHECK(p.queue == 2);
  CHECK(p.tCL == 9);
  CHECK(p.tRCD == 12);
  REQUIRE_THROWS_WITH(params_from_json<P>(parse_json(R"({"tFAW": 20})", "test"), "dram"),
                      Catch::Contains("unknown parameter 'dram.tFAW'"));
  REQUIRE_THROWS_WITH(params_from_json<P>(parse_json(R"({"scheduler": "lifo"})", "test"), "dram"),
                      Catch::Contains("is not one of fr-fcfs|fcfs"));
}
