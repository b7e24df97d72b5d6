// Cache sector fetch (fetch_granularity = sector: the critical data tracker of paper 002
// §3.2-3.3) and sector_stats (002 §2.1 block usage before eviction). Expected cycles, maps and
// counts are worked out by hand in each case. Timing conventions as in cache_tb.cpp: a request
// offered in cycle c is looked up in c + 1; a hit leaves in c + 1 + hit_latency (1); a miss goes
// down in c + 1; MemModel (latency M) replies in m + M; the fill is latched and answers its
// first ready request in m + M + 1, the next one per cycle. A fill a ManualBench's `below`
// offers in cycle f is latched and answers in f + 1.
#include <catch2/catch.hpp>

#include "cache_fixture.h"
#include "common/stats.h"

using namespace gpusc;
using namespace gpusc::tb;
using Catch::Contains;

namespace {

Cache::Params sector_params() {
  Cache::Params p;  // the L1: 32 sets x 4 ways, 128 B lines, write-through
  p.sectored = true;
  p.fetch_granularity = "sector";
  return p;
}

void read_at(ScriptedInitiator& sm, uint64_t cycle, uint64_t addr, uint64_t pc, uint32_t sectors) {
  sm.at(cycle, [=](Payload& gp, MemExt& e) {
    e.kind = MemKind::Read;
    e.src = kSmNode;
    e.pc = pc;
    e.sector_mask = sectors;
    gp.set_address(addr);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_length(128);
  });
}

void fill_at(ScriptedInitiator& below, uint64_t cycle, uint64_t addr, uint32_t sectors) {
  below.at(cycle, [=](Payload& gp, MemExt& e) {
    e.kind = MemKind::Read;
    e.is_reply = true;
    e.src = kMcNode;
    e.dst = kCacheNode;
    e.sector_mask = sectors;
    gp.set_address(addr);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_length(128);
  });
}

// (pc, cycle) of every reply, in arrival order.
std::vector<std::pair<uint64_t, uint64_t>> pcs_and_cycles(const std::vector<ScriptedTarget::Arrival>& r) {
  std::vector<std::pair<uint64_t, uint64_t>> v;
  for (const auto& a : r) v.emplace_back(a.ext.pc, a.cycle);
  return v;
}

using PcCycles = std::vector<std::pair<uint64_t, uint64_t>>;

}  // namespace

TEST_CASE("Cache sector fetch: FM, SM and HI misses fetch only the missing sectors", "[cache][sector]") {
  Bench b("b", sector_params(), /*mem_latency=*/10);
  b.read(10, 0x1000, 1, 0x1);  // FM: fetch 0001 down at 11, back 21, fill latched 22: pc1 at 22
  b.read(12, 0x1000, 2, 0x1);  // lookup 13: 0001 pending -> merge, answered after pc1: 23
  b.read(14, 0x1000, 3, 0x3);  // lookup 15: MSHR lacks sector 1 -> SM, fetch 0010 at 15, fill 26
  b.read(40, 0x1000, 4, 0x3);  // lookup 41: valid 0011 -> hit, 42
  b.read(50, 0x1000, 5, 0xc);  // lookup 51: tag present without sectors 2, 3, no MSHR -> HI, fetch 1100, fill 62
  b.read(52, 0x1000, 6, 0x8);  // lookup 53: 1000 pending -> merge, 63
  b.read(54, 0x1000, 7, 0x1);  // lookup 55: sector 0 valid -> hit while the MSHR waits, 56
  b.run_to(18);
  CHECK(b.cache.pending_sectors(0x1000) == 0x3);  // FM's 0001 ORed with SM's 0010
  CHECK(b.cache.valid_sectors(0x1000) == 0);
  b.run_to(24);
  CHECK(b.cache.pending_sectors(0x1000) == 0x2);  // the 0001 reply cleared its bit ...
  CHECK(b.cache.valid_sectors(0x1000) == 0x1);    // ... and made its sector valid
  CHECK(b.cache.mshrs_in_use() == 1);             // pc3 still waits for sector 1
  b.run_to(30);
  CHECK(b.cache.mshrs_in_use() == 0);  // map clear, pc3 answered: MSHR free
  CHECK(b.cache.valid_sectors(0x1000) == 0x3);
  b.run_to(200);

  CHECK(pcs_and_cycles(b.replies()) == PcCycles{{1, 22}, {2, 23}, {3, 26}, {4, 42}, {7, 56}, {5, 62}, {6, 63}});
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 3);
  CHECK(m[0].cycle == 11);
  CHECK(m[0].ext.sector_mask == 0x1);
  CHECK(m[0].ext.pc == 1);
  CHECK(m[1].cycle == 15);
  CHECK(m[1].ext.sector_mask == 0x2);  // only the sector the MSHR lacked
  CHECK(m[1].ext.pc == 3);
  CHECK(m[2].cycle == 51);
  CHECK(m[2].ext.sector_mask == 0xc);
  CHECK(m[2].ext.pc == 5);
  CHECK(b.cache.valid_sectors(0x1000) == 0xf);
  CHECK(stat(b.cache, "reads") == 7);
  CHECK(stat(b.cache, "read_hits") == 2);
  CHECK(stat(b.cache, "read_misses") == 3);
  CHECK(stat(b.cache, "mshr_merges") == 2);
  CHECK(stat(b.cache, "first_misses") == 1);
  CHECK(stat(b.cache, "subsequent_misses") == 1);
  CHECK(stat(b.cache, "hit_but_invalid") == 1);
  CHECK(stat(b.cache, "sector_misses") == 1);
  CHECK(stat(b.cache, "fetches") == 3);
  CHECK(stat(b.cache, "fills") == 3);
  CHECK(stat(b.cache, "sectors_fetched") == 4);  // 1 + 1 + 2
  CHECK(stat(b.cache, "sectors_returned") == 4);
  CHECK(b.cache.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: a sector is valid only once its reply arrives and the MSHR frees only when its map clears",
          "[cache][sector][timing]") {
  ManualBench b("b", sector_params());
  read_at(b.sm, 10, 0x2000, 1, 0x1);  // FM: fetch 0001 down at 11
  read_at(b.sm, 12, 0x2000, 2, 0x8);  // SM: fetch 1000 down at 13
  read_at(b.sm, 14, 0x2000, 3, 0x9);  // merge: 1001 all pending
  fill_at(b.below, 30, 0x2000, 0x8);  // the second fetch's reply comes first: latched 31
  read_at(b.sm, 33, 0x2000, 4, 0x8);  // lookup 34: sector 3 valid -> hit at 35
  read_at(b.sm, 35, 0x2000, 5, 0x1);  // lookup 36: sector 0 still pending -> merge, not a hit
  fill_at(b.below, 40, 0x2000, 0x1);  // latched 41: map clear, pc1, pc3, pc5 at 41, 42, 43
  b.run_to(20);
  CHECK(b.cache.pending_sectors(0x2000) == 0x9);
  CHECK_FALSE(b.cache.present(0x2000));
  b.run_to(38);
  CHECK(b.cache.valid_sectors(0x2000) == 0x8);  // only the sector that came back
  CHECK(b.cache.pending_sectors(0x2000) == 0x1);
  CHECK(b.cache.mshrs_in_use() == 1);
  CHECK(pcs_and_cycles(b.up.arrivals()) == PcCycles{{2, 31}, {4, 35}});  // pc2 answered as its sector arrived
  b.run_to(60);
  CHECK(pcs_and_cycles(b.up.arrivals()) == PcCycles{{2, 31}, {4, 35}, {1, 41}, {3, 42}, {5, 43}});
  CHECK(b.cache.valid_sectors(0x2000) == 0x9);
  CHECK(b.cache.pending_sectors(0x2000) == 0);
  CHECK(b.cache.mshrs_in_use() == 0);
  REQUIRE(b.down.arrivals().size() == 2);
  CHECK(b.down.arrivals()[0].cycle == 11);
  CHECK(b.down.arrivals()[0].ext.sector_mask == 0x1);
  CHECK(b.down.arrivals()[1].cycle == 13);
  CHECK(b.down.arrivals()[1].ext.sector_mask == 0x8);
  CHECK(stat(b.cache, "reads") == 5);
  CHECK(stat(b.cache, "read_hits") == 1);
  CHECK(stat(b.cache, "first_misses") == 1);
  CHECK(stat(b.cache, "subsequent_misses") == 1);
  CHECK(stat(b.cache, "mshr_merges") == 2);
  CHECK(b.cache.idle());
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: a waiting request is answered exactly in the cycle its last sector arrives",
          "[cache][sector][timing]") {
  // Three fetches for one line (FM 0001, SM 0010, SM 0100), replies in the order 0100, 0001,
  // 0010, each request answered in the cycle the last of its sectors is latched.
  ManualBench b("b", sector_params());
  read_at(b.sm, 10, 0x3000, 1, 0x1);  // FM  0001
  read_at(b.sm, 11, 0x3000, 2, 0x3);  // SM  fetch 0010, waits 0011
  read_at(b.sm, 12, 0x3000, 3, 0x4);  // SM  fetch 0100, waits 0100
  read_at(b.sm, 13, 0x3000, 4, 0x6);  // merge, waits 0110
  fill_at(b.below, 20, 0x3000, 0x4);  // 21: pc3 (0100 complete); pc4 still lacks 0010
  fill_at(b.below, 25, 0x3000, 0x1);  // 26: pc1
  fill_at(b.below, 30, 0x3000, 0x2);  // 31: pc2 then pc4 (32); map clear
  b.run_to(28);
  CHECK(b.cache.pending_sectors(0x3000) == 0x2);
  CHECK(b.cache.mshrs_in_use() == 1);
  b.run_to(50);
  CHECK(pcs_and_cycles(b.up.arrivals()) == PcCycles{{3, 21}, {1, 26}, {2, 31}, {4, 32}});
  CHECK(b.cache.mshrs_in_use() == 0);
  CHECK(b.cache.valid_sectors(0x3000) == 0x7);
  CHECK(stat(b.cache, "subsequent_misses") == 2);
  CHECK(stat(b.cache, "sectors_fetched") == 3);
  CHECK(b.cache.idle());
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: a reply carrying more sectors than asked validates them and frees the MSHR",
          "[cache][sector]") {
  // A filter that had no table entry answers with the whole line: the one reply clears both
  // fetches' sectors; the second reply (late) finds no MSHR and only refreshes the line.
  ManualBench b("b", sector_params());
  read_at(b.sm, 10, 0x4000, 1, 0x1);  // FM 0001
  read_at(b.sm, 11, 0x4000, 2, 0x2);  // SM 0010
  fill_at(b.below, 20, 0x4000, 0xf);  // 21: pc1, pc2 (22), map clear
  fill_at(b.below, 30, 0x4000, 0x2);  // 31: no MSHR
  b.run_to(50);
  CHECK(pcs_and_cycles(b.up.arrivals()) == PcCycles{{1, 21}, {2, 22}});
  CHECK(b.cache.valid_sectors(0x4000) == 0xf);
  CHECK(stat(b.cache, "fills") == 2);
  CHECK(stat(b.cache, "fetches") == 2);
  CHECK(b.cache.idle());
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: the fetch-map policy widens a miss and sees its class", "[cache][sector][hooks]") {
  Bench b("b", sector_params(), /*mem_latency=*/10);
  std::vector<std::pair<Cache::MissClass, uint32_t>> asked;
  b.cache.set_fetch_map([&](const Payload& gp, Cache::MissClass c, uint32_t missing) {
    asked.emplace_back(c, missing);
    // Whole line for pc 2 (the SM), the missing sectors otherwise.
    return gp.get_extension<MemExt>()->pc == 2 ? b.cache.all_sectors() : missing;
  });
  b.read(10, 0x1000, 1, 0x1);  // FM 0001
  b.read(12, 0x1000, 2, 0x2);  // SM: missing 0010, policy says 1111: fetch 1111 minus pending 0001 = 1110
  b.read(50, 0x1080, 3, 0x4);  // FM on another line
  b.read(70, 0x1080, 4, 0x8);  // HI: missing 1000
  b.run_to(200);
  REQUIRE(asked.size() == 4);
  CHECK(asked[0] == std::make_pair(Cache::MissClass::First, 0x1u));
  CHECK(asked[1] == std::make_pair(Cache::MissClass::Subsequent, 0x2u));
  CHECK(asked[2] == std::make_pair(Cache::MissClass::First, 0x4u));
  CHECK(asked[3] == std::make_pair(Cache::MissClass::HitInvalid, 0x8u));
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 4);
  CHECK(m[1].ext.sector_mask == 0xe);
  CHECK(b.cache.valid_sectors(0x1000) == 0xf);
  CHECK(b.cache.valid_sectors(0x1080) == 0xc);
  CHECK(stat(b.cache, "sectors_fetched") == 1 + 3 + 1 + 1);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: consistency bits reach the fill-complete and sector-eviction observers",
          "[cache][sector][hooks]") {
  Cache::Params p = sector_params();
  p.sets = 1;
  p.ways = 1;
  Bench b("b", p, /*mem_latency=*/10);
  std::vector<std::tuple<uint64_t, uint32_t, bool>> fills, evictions;
  b.cache.on_fill_complete([&](const Cache::SectorEvent& e) { fills.emplace_back(e.line, e.map, e.inconsistent); });
  b.cache.on_sector_evict([&](const Cache::SectorEvent& e) { evictions.emplace_back(e.line, e.map, e.inconsistent); });
  b.read(10, 0x000, 1, 0x1);   // FM 0001
  b.read(11, 0x000, 2, 0x2);   // SM 0010: MSHR inconsistent; complete at the second fill (23)
  b.read(40, 0x080, 3, 0x4);   // FM, evicts line 0 (valid 0011, line bit clear)
  b.read(60, 0x080, 4, 0x8);   // HI: line 0x80 inconsistent
  b.read(80, 0x100, 5, 0xf);   // FM, evicts 0x80 (valid 1100, inconsistent)
  b.run_to(200);
  using T = std::tuple<uint64_t, uint32_t, bool>;
  CHECK(fills == std::vector<T>{{0x000, 0x3, true}, {0x080, 0x4, false}, {0x080, 0x8, false}, {0x100, 0xf, false}});
  CHECK(evictions == std::vector<T>{{0x000, 0x3, false}, {0x080, 0xc, true}});
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: the observers get the sectors the requests needed next to the map",
          "[cache][sector][hooks]") {
  Cache::Params p = sector_params();
  p.sets = 1;
  p.ways = 1;
  Bench b("b", p, /*mem_latency=*/10);
  b.cache.set_fetch_map([&](const Cache::Payload&, Cache::MissClass, uint32_t) { return b.cache.all_sectors(); });
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> fills, evictions;  // line, map, critical
  b.cache.on_fill_complete([&](const Cache::SectorEvent& e) { fills.emplace_back(e.line, e.map, e.critical); });
  b.cache.on_sector_evict([&](const Cache::SectorEvent& e) { evictions.emplace_back(e.line, e.map, e.critical); });
  b.read(10, 0x000, 1, 0x1);   // FM, whole line fetched; needed 0001
  b.read(40, 0x000, 2, 0x4);   // hit: the line has been read in 0101
  b.read(60, 0x080, 3, 0x2);   // FM, whole line; its fill evicts line 0 (valid 1111, read 0101)
  b.read(61, 0x080, 4, 0x8);   // merges into the MSHR (1111 pending): needed 1010
  b.run_to(200);
  using T = std::tuple<uint64_t, uint32_t, uint32_t>;
  CHECK(fills == std::vector<T>{{0x000, 0xf, 0x1}, {0x080, 0xf, 0xa}});
  CHECK(evictions == std::vector<T>{{0x000, 0xf, 0x5}});
  CHECK(b.replies().size() == 4);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector stats: the fraction of each block read before eviction, scripted", "[cache][sector][stats]") {
  // One set of 2 ways. Lines A, B, C, D, E = 0x000, 0x080, 0x100, 0x180, 0x200.
  //   A 0001 (miss), A 0010, B 1111, C 0001 (evicts A: 2 sectors read), D 0100 (evicts B: 4),
  //   C 0001 (hit), E 1000 (evicts D, the LRU: 1).  3 evictions, 12 sectors, 7 read: 7/12.
  // Line mode fills whole lines (valid 12 of 12); sector mode holds A 0011, B 1111, D 0100.
  auto params = [](const char* mode) {
    Cache::Params p;
    p.sectored = true;
    p.fetch_granularity = mode;
    p.sector_stats = true;
    p.sets = 1;
    p.ways = 2;
    return p;
  };
  Bench line("line", params("line"), /*mem_latency=*/10), sector("sector", params("sector"), /*mem_latency=*/10);
  const std::pair<uint64_t, uint32_t> script[] = {{0x000, 0x1}, {0x000, 0x2}, {0x080, 0xf}, {0x100, 0x1},
                                                  {0x180, 0x4}, {0x100, 0x1}, {0x200, 0x8}};
  for (Bench* b : {&line, &sector}) {
    uint64_t c = 10;
    for (const auto& [a, s] : script) {
      c += 30;
      b->read(c, a, c, s);
    }
  }
  line.run_to(400);
  const json s = collect_stats()["stats"];
  for (Bench* b : {&line, &sector}) {
    const std::string n = b->cache.name();
    INFO(n);
    REQUIRE(b->replies().size() == 7);
    CHECK(stat(b->cache, "evictions") == 3);
    CHECK(stat(b->cache, "evicted_sectors") == 12);
    CHECK(stat(b->cache, "evicted_sectors_used") == 7);
    CHECK(stat(b->cache, "evicted_sectors_valid") == (b == &line ? 12u : 7u));
    CHECK(s[n + ".used_fraction_at_eviction"].get<double>() == Approx(7.0 / 12.0));
    CHECK(s[n + ".sectors_used_at_eviction"]["counts"] == json::array({0, 1, 1, 0, 1}));
  }
  CHECK(stat(sector.cache, "hit_but_invalid") == 1);  // A 0010 after A 0001
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: a line evicted between two replies of its MSHR still answers, and counts only sectors that were here",
          "[cache][sector][stats]") {
  Cache::Params p = sector_params();
  p.sets = 1;
  p.ways = 1;
  p.sector_stats = true;
  Bench b("b", p, /*mem_latency=*/10);
  b.read(10, 0x000, 1, 0x1);  // A FM 0001: down 11, fill 22 installs A (valid 0001)
  b.read(11, 0x080, 2, 0x4);  // B FM 0100: down 12, fill 23 evicts A: 1 sector here, 1 read
  b.read(12, 0x000, 3, 0x2);  // A SM 0010: down 13, fill 24 re-installs A (0010), evicts B; pc3 answered
  b.run_to(100);
  CHECK(pcs_and_cycles(b.replies()) == PcCycles{{1, 22}, {2, 23}, {3, 24}});
  CHECK(b.cache.valid_sectors(0x000) == 0x2);
  CHECK(stat(b.cache, "evictions") == 2);
  CHECK(stat(b.cache, "evicted_sectors") == 8);
  CHECK(stat(b.cache, "evicted_sectors_valid") == 2);
  CHECK(stat(b.cache, "evicted_sectors_used") == 2);  // A's sector 1 was asked, but never here before A left
  CHECK(b.cache.idle());
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: b_transport fetches only the missing sectors", "[cache][sector][functional]") {
  Bench b("b", sector_params());
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate: sockets bound
  auto read = [&](uint64_t addr, uint32_t sectors) {
    Payload& gp = b.pool.acquire();
    MemExt& e = *gp.get_extension<MemExt>();
    e.kind = MemKind::Read;
    e.src = kSmNode;
    e.sector_mask = sectors;
    gp.set_address(addr);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_length(128);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    b.sm.out->b_transport(gp, t);
    gp.release();
  };
  read(0x5000, 0x1);  // FM 0001
  read(0x5000, 0x3);  // HI: fetch 0010
  read(0x5000, 0x2);  // hit
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 2);
  CHECK(m[0].ext.sector_mask == 0x1);
  CHECK(m[1].ext.sector_mask == 0x2);
  CHECK(b.cache.valid_sectors(0x5000) == 0x3);
  CHECK(stat(b.cache, "first_misses") == 1);
  CHECK(stat(b.cache, "hit_but_invalid") == 1);
  CHECK(stat(b.cache, "read_hits") == 1);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache sector fetch: bad configurations and hooks on a line cache are errors", "[cache][sector][config]") {
  ClockDomain clk("clk", 1000.0);
  Cache::Params p;
  p.fetch_granularity = "sector";  // without sectored
  REQUIRE_THROWS_WITH(Cache("c1", p, clk, 0), Contains("c1") && Contains("fetch_granularity = sector") &&
                                                  Contains("sectored = true"));
  p.fetch_granularity = "word";
  REQUIRE_THROWS_WITH(Cache("c2", p, clk, 0), Contains("c2.fetch_granularity"));
  Cache line("c3", Cache::Params{}, clk, 0);
  REQUIRE_THROWS_WITH(line.set_fetch_map([](const Payload&, Cache::MissClass, uint32_t m) { return m; }),
                      Contains("c3") && Contains("set_fetch_map") && Contains("fetch_granularity = sector"));
  REQUIRE_THROWS_WITH(line.on_fill_complete([](const Cache::SectorEvent&) {}), Contains("on_fill_complete"));
  REQUIRE_THROWS_WITH(line.on_sector_evict([](const Cache::SectorEvent&) {}), Contains("on_sector_evict"));
}
