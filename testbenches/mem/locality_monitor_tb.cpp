// LocalityMonitor (mem/locality_monitor.h, paper 001 §2.2) on scripted observe(addr, cycle)
// sequences whose ratios are worked out by hand in the comments. Rules under test: a table entry
// lives exactly `window` cycles from its allocation (an access at start + window opens a new
// entry), entries with two or more accesses count all their accesses, the table has no size
// limit, entries still open are counted as they stand, and one table per window.
#include <catch2/catch.hpp>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/stats.h"
#include "mem/locality_monitor.h"

using namespace gpusc;

namespace {

LocalityMonitor::Params windows(std::vector<unsigned> w, unsigned block_bytes = 128) {
  LocalityMonitor::Params p;
  p.windows = std::move(w);
  p.block_bytes = block_bytes;
  return p;
}

}  // namespace

TEST_CASE("locality: two windows over one scripted sequence", "[locality]") {
  ClockDomain clk("clk", 1000);
  LocalityMonitor mon("loc", windows({10, 20}), clk);
  // Block A = 0x000..0x07f, block B = 0x080..0x0ff (128 B blocks).
  mon.observe(0x000, 0);   // A
  mon.observe(0x040, 5);   // A
  mon.observe(0x080, 9);   // B
  mon.observe(0x07f, 10);  // A
  mon.observe(0x0ff, 19);  // B
  mon.observe(0x000, 29);  // A
  REQUIRE(mon.reads() == 6);
  // Window 10: A@0 {0, 5} closes at 10 with 2 accesses (shared); A@10 {10}, B@9 {9}, B@19 {19}
  // and A@29 {29} have one each. Shared 2 of 6.
  REQUIRE(mon.shared_accesses(0) == 2);
  REQUIRE(mon.ratio(0) == Approx(2.0 / 6));
  // Window 20: A@0 {0, 5, 10} and B@9 {19 - 9 = 10 < 20: 9, 19} both shared; A@29 {29} alone.
  // Shared 3 + 2 = 5 of 6.
  REQUIRE(mon.shared_accesses(1) == 5);
  REQUIRE(mon.ratio(1) == Approx(5.0 / 6));

  // One more A at 30 joins A@29 in both tables; that entry is still open and counts: window 10
  // 2 + 2 = 4 of 7, window 20 5 + 2 = 7 of 7.
  mon.observe(0x010, 30);
  REQUIRE(mon.reads() == 7);
  REQUIRE(mon.shared_accesses(0) == 4);
  REQUIRE(mon.shared_accesses(1) == 7);
  REQUIRE(mon.ratio(1) == Approx(1.0));
}

TEST_CASE("locality: an entry lives exactly `window` cycles from its allocation", "[locality]") {
  ClockDomain clk("clk", 1000);
  LocalityMonitor mon("loc", windows({100}), clk);
  mon.observe(0x1000, 0);
  mon.observe(0x1000, 99);  // 99 cycles after allocation: same entry
  REQUIRE(mon.shared_accesses(0) == 2);
  mon.observe(0x1000, 100);  // 100 cycles after: the entry has closed, a new one opens
  REQUIRE(mon.shared_accesses(0) == 2);
  mon.observe(0x1000, 199);  // joins the entry opened at 100 (not extended by the access at 99)
  REQUIRE(mon.shared_accesses(0) == 4);
  mon.observe(0x1000, 300);
  REQUIRE(mon.reads() == 5);
  REQUIRE(mon.shared_accesses(0) == 4);
  REQUIRE(mon.ratio(0) == Approx(4.0 / 5));
}

TEST_CASE("locality: a later access does not extend an entry", "[locality]") {
  ClockDomain clk("clk", 1000);
  LocalityMonitor mon("loc", windows({50}), clk);
  // Accesses every 30 cycles: each is within 50 of the previous one, but an entry lives 50 from
  // its allocation: {0, 30} shared, {60, 90} shared, {120} alone.
  for (uint64_t t = 0; t <= 120; t += 30) mon.observe(0x40, t);
  REQUIRE(mon.reads() == 5);
  REQUIRE(mon.shared_accesses(0) == 4);
}

TEST_CASE("locality: the table has no size limit", "[locality]") {
  ClockDomain clk("clk", 1000);
  LocalityMonitor mon("loc", windows({1920}), clk);
  constexpr uint64_t n = 5000;
  for (uint64_t i = 0; i < n; ++i) mon.observe(i * 128, 0);  // 5000 entries open at once
  for (uint64_t i = 0; i < n; ++i) mon.observe(i * 128 + 4, 1);
  REQUIRE(mon.reads() == 2 * n);
  REQUIRE(mon.shared_accesses(0) == 2 * n);
  for (uint64_t i = 0; i < n; ++i) mon.observe((n + i) * 128, 2);  // 5000 more, single
  REQUIRE(mon.shared_accesses(0) == 2 * n);
  REQUIRE(mon.ratio(0) == Approx(2.0 / 3));
}

TEST_CASE("locality: a sweep drops a block only when every window's entry has closed", "[locality]") {
  ClockDomain clk("clk", 1000);
  LocalityMonitor mon("loc", windows({10, 100}), clk);
  // Sweeps run at the first read and then once per longest window (100 cycles): at 0 and 100.
  for (uint64_t b = 0; b < 1000; ++b) mon.observe(b * 128, 0);  // 1000 blocks, read once
  const uint64_t a = 5000 * 128;
  mon.observe(a, 50);  // A: entries at 50 in both windows
  REQUIRE(mon.blocks_tracked() == 1001);
  mon.observe(6000 * 128, 100);  // sweep at 100: the 1000 blocks have closed everywhere; A's
  REQUIRE(mon.blocks_tracked() == 2);  // window-100 entry is open (100 - 50 < 100): kept
  REQUIRE(mon.shared_accesses(1) == 0);
  mon.observe(a, 140);  // joins A's window-100 entry (140 - 50 < 100): shared 2; window 10: new
  REQUIRE(mon.shared_accesses(1) == 2);
  REQUIRE(mon.shared_accesses(0) == 0);
  mon.observe(0, 145);  // block 0 was swept: a new entry, not shared with its read at 0
  REQUIRE(mon.shared_accesses(1) == 2);
  REQUIRE(mon.reads() == 1004);
}

TEST_CASE("locality: accesses group by block_bytes", "[locality]") {
  ClockDomain clk("clk", 1000);
  LocalityMonitor mon("loc", windows({120}, 64), clk);
  mon.observe(0x00, 0);
  mon.observe(0x40, 1);  // next 64 B block
  REQUIRE(mon.shared_accesses(0) == 0);
  mon.observe(0x3f, 2);  // block 0 again
  REQUIRE(mon.shared_accesses(0) == 2);
  mon.observe(0x7f, 3);  // block 1 again
  REQUIRE(mon.shared_accesses(0) == 4);
}

TEST_CASE("locality: observe(payload) uses the clock's current cycle", "[locality]") {
  ClockDomain clk("clk", 1000);  // 1 ns per cycle
  LocalityMonitor mon("loc", windows({10, 11}), clk);
  tlm::tlm_generic_payload gp;
  gp.set_address(0x200);
  sc_core::sc_start(5, sc_core::SC_NS);
  mon.observe(gp);  // cycle 5
  sc_core::sc_start(10, sc_core::SC_NS);
  mon.observe(gp);  // cycle 15: 10 cycles later, past window 10 but inside window 11
  REQUIRE(mon.shared_accesses(0) == 0);
  REQUIRE(mon.shared_accesses(1) == 2);
}

TEST_CASE("locality: stats and invariants in the dump", "[locality]") {
  ClockDomain clk("clk", 1000);
  LocalityMonitor mon("loc", windows({10, 20}), clk);
  mon.observe(0x000, 0);
  mon.observe(0x000, 12);  // window 10: two single entries; window 20: one shared entry
  mon.observe(0x080, 13);
  const json all = collect_stats();
  const json& s = all.at("stats");
  REQUIRE(s.at("loc.reads").get<double>() == 3);
  REQUIRE(s.at("loc.shared_accesses_w10").get<double>() == 0);
  REQUIRE(s.at("loc.shared_accesses_w20").get<double>() == 2);
  REQUIRE(s.at("loc.locality_ratio_w10").get<double>() == 0);
  REQUIRE(s.at("loc.locality_ratio_w20").get<double>() == Approx(2.0 / 3));
  REQUIRE(all.at("invariant_failures").empty());
  REQUIRE(mon.windows() == std::vector<unsigned>{10, 20});
}

TEST_CASE("locality: no window is an error", "[locality]") {
  ClockDomain clk("clk", 1000);
  REQUIRE_THROWS_WITH(LocalityMonitor("loc", windows({}), clk), Catch::Contains("at least one time window"));
}
