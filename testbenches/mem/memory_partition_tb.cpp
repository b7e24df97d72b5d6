// MemoryPartition tests: the idle latencies of one memory partition with its default (paper)
// parameters, L2 at 1400 MHz and DRAM at 924 MHz, against paper 001 Table 1 (minimum L2 latency
// 120 cycles, minimum DRAM latency 220 cycles), and the exact cycle of each reply derived from
// the documented model (cache.h, dram_channel.h, memory_partition.h):
//   * a read offered to in() in core cycle c is latched and looked up by the L2 in c + 1;
//   * a hit leaves on out() in c + 1 + hit_latency;
//   * a miss leaves down_out in s = c + 1 + lookup_latency; the DRAM channel takes it in its
//     cycle d = floor(time(s) / T_dram) and sends the fill in d + D, D its accept-to-reply latency
//     (1 + fixed_latency + bank timing: row hit, closed bank or row conflict);
//   * the L2 latches the fill in the first core cycle after that time and sends the reply in it.
#include <catch2/catch.hpp>

#include "common/address_map.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "mem/memory_partition.h"

using namespace gpusc;
using P = MemoryPartition::Params;

namespace {

constexpr unsigned kSm = 5, kMcNode = 0;

// Scripted network interface on both sides of one partition.
struct PartitionBench : sc_core::sc_module {
  P p;
  ClockDomain core{"core", 1400.0};
  ClockDomain dram_clk{"dram_clk", 924.0};
  AddressMap map{1};
  PayloadPool pool{64};
  tb::ScriptedInitiator noc{"noc", core, pool};
  MemoryPartition mc;
  tb::ScriptedTarget ni;

  explicit PartitionBench(sc_core::sc_module_name n, const P& params = P{})
      : sc_core::sc_module(n), p(params), mc("mc", params, core, dram_clk, kMcNode, map), ni("ni", core, 8) {
    noc.out.bind(mc.in());
    mc.out().bind(ni.in);
  }
  void read(uint64_t cycle, uint64_t address, uint64_t tag) {
    noc.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = MemKind::Read;
      e.src = kSm;
      e.dst = kMcNode;
      e.pc = tag;
      e.word_mask = 0xffffffffu;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(address);
      gp.set_data_length(128);
    });
  }
  void run_to(uint64_t cycle) { sc_core::sc_start(core.time_of(cycle) - sc_core::sc_time_stamp()); }
  // Core cycle the reply tagged `tag` left out(); it must have left exactly once.
  uint64_t reply(uint64_t tag) const {
    uint64_t at = UINT64_MAX;
    unsigned n = 0;
    for (const auto& a : ni.arrivals())
      if (a.ext.pc == tag) at = a.cycle, ++n;
    INFO("reply tag " << tag);
    REQUIRE(n == 1);
    return at;
  }
  // The documented model: reply cycle of a read offered in c that misses the L2 and whose DRAM
  // access takes `dram` DRAM cycles from acceptance to reply.
  uint64_t miss_reply(uint64_t c, unsigned dram) const {
    const uint64_t sent = c + 1 + p.l2.lookup_latency;
    const uint64_t taken = dram_clk.cycle_of(core.time_of(sent));
    return core.cycle_of(dram_clk.time_of(taken + dram)) + 1;
  }
  double stat(const std::string& key) const { return collect_stats()["stats"][std::string(name()) + ".mc." + key].get<double>(); }
};

}  // namespace

TEST_CASE("MemoryPartition: idle L2 hit, and L2 misses to a closed bank, an open row and a row conflict",
          "[partition][timing]") {
  PartitionBench b("b");
  const auto& d = b.p.dram;
  // Default parameters: the figures documented in memory_partition.h and dram_channel.h.
  REQUIRE(b.p.l2.hit_latency == 120);
  REQUIRE(b.p.l2.lookup_latency == 120);
  REQUIRE(d.fixed_latency == 132);
  REQUIRE(d.burst_cycles == 4);
  const unsigned row_hit = 1 + d.fixed_latency + d.tCL + d.burst_cycles;
  const unsigned closed = row_hit + d.tRCD;
  const unsigned conflict = closed + d.tRP;
  CHECK(row_hit == 149);
  CHECK(closed == 161);
  CHECK(conflict == 173);

  // One partition, so local = global: 0x0 and 0x200 are bank 0 row 0 (columns 0 and 1), 0x8000 is
  // bank 0 row 1 (dram_channel.h's decoding). Each read finds the partition idle.
  b.read(10, 0x0, 1);        // L2 miss, bank 0 closed
  b.read(1000, 0x0, 2);      // L2 hit
  b.read(2000, 0x200, 3);    // L2 miss, row 0 open: row hit
  b.read(3000, 0x8000, 4);   // L2 miss, row 1: row conflict
  b.run_to(4000);

  const uint64_t miss_closed = b.reply(1) - 11, hit = b.reply(2) - 1001, miss_hit = b.reply(3) - 2001,
                 miss_conflict = b.reply(4) - 3001;  // from the cycle the L2 latched the request
  INFO("idle latencies [core cycles]: L2 hit " << hit << ", L2 miss: row hit " << miss_hit << ", closed bank "
                                               << miss_closed << ", row conflict " << miss_conflict);
  CHECK(hit == 120);
  CHECK(b.reply(1) == b.miss_reply(10, closed));
  CHECK(b.reply(3) == b.miss_reply(2000, row_hit));
  CHECK(b.reply(4) == b.miss_reply(3000, conflict));

  // Paper 001 Table 1: minimum L2 latency 120, minimum DRAM latency 220 (core cycles): a miss
  // pays the L2 pipeline and then at least the DRAM minimum.
  CHECK(hit >= 120);
  for (uint64_t miss : {miss_hit, miss_closed, miss_conflict}) CHECK(miss >= hit + 220);
  CHECK(miss_hit < miss_closed);
  CHECK(miss_closed < miss_conflict);

  CHECK(b.stat("l2.read_hits") == 1);
  CHECK(b.stat("l2.read_misses") == 3);
  CHECK(b.stat("dram.row_misses") == 1);
  CHECK(b.stat("dram.row_hits") == 1);
  CHECK(b.stat("dram.row_conflicts") == 1);
  CHECK(b.mc.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("MemoryPartition: back-to-back misses are pipelined through the L2 lookup and the DRAM fixed latency",
          "[partition][timing]") {
  PartitionBench b("b");
  // 16 lines of one open DRAM row (bank 0 row 0 after the first ACT; columns 0..15 are every 4th
  // line), offered one per cycle: each pays the idle miss latency once, not 16 times over.
  for (unsigned i = 0; i < 16; ++i) b.read(10 + i, 0x200 * i, i);
  b.run_to(2000);
  const uint64_t first = b.reply(0), last = b.reply(15);
  INFO("first reply " << first << ", last " << last);
  CHECK(first == b.miss_reply(10, 1 + b.p.dram.fixed_latency + b.p.dram.tRCD + b.p.dram.tCL + b.p.dram.burst_cycles));
  // After the first, the data bus (4 DRAM cycles per line = 5.8 core cycles) paces the replies.
  CHECK(last - first <= 15 * 6 + 2);
  CHECK(b.stat("l2.read_misses") == 16);
  CHECK(b.stat("dram.row_hits") == 15);
  CHECK(b.mc.idle());
}

// ---- memory = bandwidth: a BandwidthMemory behind the L2 (bandwidth_memory.h) ----------------

namespace {

P bandwidth_params(unsigned bytes_per_cycle = 768) {
  P p;
  p.memory = "bandwidth";
  p.bandwidth_memory.bytes_per_cycle = bytes_per_cycle;
  return p;
}

}  // namespace

TEST_CASE("MemoryPartition: memory = bandwidth serves an idle L2 miss in the lookup plus the memory latency",
          "[partition][timing][bandwidth]") {
  PartitionBench b("b", bandwidth_params());
  REQUIRE(b.mc.dram() == nullptr);
  REQUIRE(b.mc.bandwidth_memory() != nullptr);
  const auto& m = b.p.bandwidth_memory;
  REQUIRE(m.latency == 99);
  REQUIRE(m.access_bytes == 32);
  // By hand (periods rounded to ps: core 714 ps, memory clock 924 MHz = 1082 ps). Offered in core
  // cycle 10, latched and looked up in 11; the miss leaves down_out in 11 + 120 = 131 = 93534 ps,
  // memory cycle floor(93534 / 1082) = 86. Accept-to-reply: latch + ceil(128 / 768) transfer
  // cycle - 1 + latency = 1 + 0 + 99 = 100 (bandwidth_memory.h), so the fill leaves in memory
  // cycle 186 = 201252 ps, inside core cycle floor(201252 / 714) = 281; the L2 latches it in 282
  // and answers in that cycle.
  b.read(10, 0x0, 1);
  b.read(1000, 0x0, 2);  // now an L2 hit
  b.run_to(2000);
  CHECK(b.reply(1) == 282);
  CHECK(b.reply(1) == b.miss_reply(10, 100));
  CHECK(b.reply(2) == 1001 + 120);
  CHECK(b.stat("l2.read_misses") == 1);
  CHECK(b.stat("dram.reads") == 1);
  CHECK(b.stat("dram.bytes") == 128);
  CHECK(b.stat("dram.read_latency") == 100);
  CHECK(b.mc.idle());
  CHECK(b.mc.memory_pending() == 0);
  CHECK(b.pool.in_use() == 0);
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("MemoryPartition: memory = bandwidth, a stream of misses is paced by bytes_per_cycle",
          "[partition][timing][bandwidth]") {
  // 16 B per memory cycle: a 128 B line takes 8 memory cycles (8 x 1082 ps = 12.1 core cycles), so
  // 32 misses offered one per core cycle queue in the memory (queue 64 >= 32, L2 MSHRs 32) and
  // leave it exactly 8 memory cycles apart.
  PartitionBench b("b", bandwidth_params(16));
  constexpr unsigned n = 32;
  for (unsigned i = 0; i < n; ++i) b.read(10 + i, 0x80 * i, i);
  b.run_to(4000);
  CHECK(b.reply(0) == b.miss_reply(10, 1 + 7 + 99));  // idle: latch, 8 transfer cycles, latency
  const uint64_t first = b.reply(0), last = b.reply(n - 1);
  const double spread_ps = double(last - first) * 714;
  INFO("first reply " << first << ", last " << last);
  // (n - 1) x 8 memory cycles between the first and last fill, give or take the core-cycle rounding.
  const double paced_ps = double(n - 1) * 8 * 1082;
  CHECK(spread_ps >= paced_ps - 714);
  CHECK(spread_ps <= paced_ps + 714);
  for (unsigned i = 1; i < n; ++i) CHECK(b.reply(i) > b.reply(i - 1));
  CHECK(b.stat("dram.reads") == n);
  CHECK(b.stat("dram.bytes") == n * 128);
  CHECK(b.stat("l2.read_misses") == n);
  CHECK(b.mc.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("MemoryPartition: an unknown memory model is an error naming the known ones", "[partition][config]") {
  REQUIRE_THROWS_WITH(params_from_json<P>(parse_json(R"({"memory": "hbm3"})", "test"), "mc"),
                      Catch::Contains("'mc.memory'") && Catch::Contains("hbm3") &&
                          Catch::Contains("gddr5|bandwidth"));
  P p;
  p.memory = "ddr4";
  REQUIRE_THROWS_WITH(PartitionBench("bad", p), Catch::Contains("memory") && Catch::Contains("ddr4") &&
                                                    Catch::Contains("gddr5|bandwidth"));
  // The section of the model not chosen keeps its defaults and is still a known key.
  const P q = params_from_json<P>(parse_json(R"({"memory": "bandwidth", "bandwidth_memory": {"latency": 50}})", "t"),
                                  "mc");
  CHECK(q.memory == "bandwidth");
  CHECK(q.bandwidth_memory.latency == 50);
  CHECK(q.dram.burst_cycles == P{}.dram.burst_cycles);
}
