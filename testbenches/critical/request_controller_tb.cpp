// RequestController tests: decisions on scripted windows (paper 002 §4.1, Figure 4.5 order),
// window sliding, thresholds as parameters, and the controller attached to a sector-fetch L1
// (the fetch maps it sends, fed by the cache's replies and evictions). Expected ratios, decisions
// and maps are worked out by hand in each case.
#include <catch2/catch.hpp>

#include "../mem/cache_fixture.h"
#include "common/stats.h"
#include "critical/request_controller.h"

using namespace gpusc;
using namespace gpusc::tb;
using Catch::Contains;
using D = RequestController::Decision;
using MC = Cache::MissClass;

namespace {
// A sector-fetch L1 of one line, so each new line's fill evicts the last.
Cache::Params one_line_sector_cache() {
  Cache::Params cp;
  cp.sets = 1;
  cp.ways = 1;
  cp.sectored = true;
  cp.fetch_granularity = "sector";
  return cp;
}
}  // namespace

TEST_CASE("RequestController: decisions on scripted windows follow FDR, then SM, then ICA", "[critical][controller]") {
  RequestController::Params p;
  p.window_size = 4;
  RequestController rc("rc", p);
  CHECK(rc.decide(0x1, MC::First) == D::Partial);  // empty windows: ratio 0
  rc.on_reply(0xf, false);  // FDR [1]        ICA 128 B [0]
  rc.on_reply(0xf, false);  // FDR [1 1]      ICA 128 B [0 0]
  rc.on_evict(0xf, true);   // FDR [1 1 1]    ICA 128 B [0 0 1]
  rc.on_reply(0xf, false);  // FDR [1 1 1 1]  ICA 128 B [0 0 1 0]
  CHECK(rc.fdr_ratio() == 1.0);
  CHECK(rc.ica_ratio(4) == 0.25);
  CHECK(rc.decide(0x1, MC::First) == D::FullFdr);       // 1.0 > 0.9 comes first ...
  CHECK(rc.decide(0x3, MC::Subsequent) == D::FullFdr);  // ... even before the SM rule
  rc.on_evict(0x3, true);   // FDR [1 1 1 0] = 0.75   ICA 64 B [1]
  CHECK(rc.fdr_ratio() == 0.75);
  CHECK(rc.ica_ratio(2) == 1.0);
  CHECK(rc.decide(0x3, MC::Subsequent) == D::FullSubsequent);
  CHECK(rc.decide(0x3, MC::First) == D::FullIca);       // 64 B window 1.0 > 0.5
  CHECK(rc.decide(0x1, MC::HitInvalid) == D::FullIca);  // a 32 B request uses the 64 B window
  CHECK(rc.decide(0x7, MC::First) == D::Partial);       // 96 B window empty
  CHECK(rc.decide(0xf, MC::First) == D::FullRequest);
  rc.on_reply(0x3, false);  // FDR [1 1 0 0] = 0.5    ICA 64 B [1 0] = 0.5
  CHECK(rc.decide(0x1, MC::First) == D::Partial);       // 0.5 <= 0.5: partial
  rc.on_reply(0x1, false);  // FDR [1 0 0 0]; a 32 B map never enters an ICA window
  CHECK(rc.fdr_ratio() == 0.25);
  CHECK(rc.ica_events(2) == 2);
  rc.on_evict(0x5, true);   // ICA 64 B [1 0 1] = 2/3 (two sectors, not adjacent)
  CHECK(rc.ica_ratio(2) == Approx(2.0 / 3.0));
  CHECK(rc.decide(0x2, MC::First) == D::FullIca);
  const double slide[] = {0.5, 0.25, 0.25, 0.0};  // [1 0 1 0], [0 1 0 0], [1 0 0 0], [0 0 0 0]
  for (double r : slide) {
    rc.on_reply(0x6, false);
    CHECK(rc.ica_ratio(2) == r);
  }
  CHECK(rc.ica_events(2) == 4);
  CHECK(rc.fdr_events() == 4);
  CHECK(rc.ica_ratio(3) == 0.0);
  CHECK(rc.ica_events(3) == 0);
  CHECK(rc.ica_ratio(4) == 0.25);

  // fetch_map: the missing sectors when partial, every sector otherwise; counted per decision.
  CHECK(rc.fetch_map(0x3, 0x2, MC::First) == 0x2);
  CHECK(rc.fetch_map(0x3, 0x2, MC::Subsequent) == 0xf);
  CHECK(rc.fetch_map(0xf, 0xc, MC::HitInvalid) == 0xf);
  const json s = collect_stats()["stats"];
  CHECK(s["rc.partial"] == 1);
  CHECK(s["rc.full_subsequent"] == 1);
  CHECK(s["rc.full_request"] == 1);
  CHECK(s["rc.full_fdr"] == 0);
}

TEST_CASE("RequestController: thresholds and window size are parameters", "[critical][controller]") {
  RequestController::Params lo;
  lo.window_size = 2;
  lo.fdr_threshold = 0.3;
  lo.ica_threshold = 0.25;
  RequestController a("a", lo), b("b", RequestController::Params{});  // b: 16 events, 0.9, 0.5
  for (RequestController* rc : {&a, &b}) {
    rc->on_reply(0xf, false);
    rc->on_reply(0x3, true);
    rc->on_reply(0x3, false);
  }
  // a: FDR [0 0] = 0 (window 2), ICA 64 B [1 0] = 0.5 > 0.25.  b: FDR 1/3, ICA 64 B 0.5 <= 0.5.
  CHECK(a.fdr_ratio() == 0.0);
  CHECK(b.fdr_ratio() == Approx(1.0 / 3.0));
  CHECK(a.decide(0x3, MC::First) == D::FullIca);
  CHECK(b.decide(0x3, MC::First) == D::Partial);
  a.on_reply(0xf, false);  // a: FDR [0 1] = 0.5 > 0.3
  b.on_reply(0xf, false);  // b: FDR 2/4 = 0.5, not over 0.9
  CHECK(a.decide(0x3, MC::First) == D::FullFdr);
  CHECK(b.decide(0x3, MC::First) == D::Partial);
}

TEST_CASE("RequestController: attached to a sector-fetch L1 it chooses each fetch map from the L1's replies and evictions (fetched maps)",
          "[critical][controller][cache]") {
  Bench b("b", one_line_sector_cache(), /*mem_latency=*/10);  // B's fill evicts A, C's evicts B
  RequestController::Params p;
  p.window_size = 4;
  p.window_maps = "fetched";  // the windows see the maps fetched (replies) and valid (evictions)
  RequestController rc("rc", p);
  rc.attach(b.cache);
  b.read(10, 0x000, 1, 0x1);  // A FM, windows empty: partial 0001; complete at 22: FDR [0]
  b.read(40, 0x000, 2, 0x2);  // A HI, 64 B window empty: partial 0010; FDR [0 0]; A inconsistent
  b.read(60, 0x080, 3, 0x1);  // B FM: partial 0001, fill 72 evicts A (0011, ICA): FDR [0 0 0], 64 B [1]
  b.read(61, 0x080, 4, 0x2);  // B SM: whole line, 1111 minus pending 0001 = 1110; complete at 73:
                              //   FDR [0 0 0 1], 128 B [1]
  b.read(100, 0x100, 5, 0x3); // C FM: FDR 0.25, 64 B window 1.0 > 0.5: whole line 1111
  b.run_to(300);
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 5);
  const uint32_t maps[] = {0x1, 0x2, 0x1, 0xe, 0xf};
  const uint64_t pcs[] = {1, 2, 3, 4, 5};
  for (size_t i = 0; i < 5; ++i) {
    INFO("fetch " << i);
    CHECK(m[i].ext.sector_mask == maps[i]);
    CHECK(m[i].ext.pc == pcs[i]);
  }
  REQUIRE(b.replies().size() == 5);
  // C's fill (at 112) evicted B (1111, consistent) and completed C (1111): FDR [0 1 1 1].
  CHECK(rc.fdr_ratio() == 0.75);
  CHECK(rc.ica_ratio(2) == 1.0);
  CHECK(rc.ica_ratio(4) == Approx(1.0 / 3.0));  // [1 0 0]
  const json s = collect_stats()["stats"];
  CHECK(s["rc.partial"] == 3);
  CHECK(s["rc.full_subsequent"] == 1);
  CHECK(s["rc.full_ica"] == 1);
  CHECK(s["rc.window_replies"] == 4);
  CHECK(s["rc.window_evictions"] == 2);
  CHECK(stat(b.cache, "subsequent_misses") == 1);
  CHECK(stat(b.cache, "hit_but_invalid") == 1);
  CHECK(invariant_failures().empty());
}

TEST_CASE("RequestController: with critical maps (the default) the windows see the sectors the requests needed",
          "[critical][controller][cache]") {
  // The script of the case above; the fetch maps are the same, the windows are not: a whole-line
  // fetch or a line read in two sectors feeds the sectors its requests needed.
  Bench b("b", one_line_sector_cache(), /*mem_latency=*/10);
  RequestController::Params p;
  p.window_size = 4;
  RequestController rc("rc", p);
  REQUIRE(rc.params().window_maps == "critical");
  rc.attach(b.cache);
  b.read(10, 0x000, 1, 0x1);  // A FM: partial 0001; complete: needed 0001: FDR [0]
  b.read(40, 0x000, 2, 0x2);  // A HI: partial 0010; complete: needed 0010: FDR [0 0]; A inconsistent
  b.read(60, 0x080, 3, 0x1);  // B FM: partial 0001; its fill evicts A (read 0011, ICA): FDR [0 0 0], 64 B [1]
  b.read(61, 0x080, 4, 0x2);  // B SM: 1110; complete: fetched 1111 but needed 0011, SM: FDR [0 0 0 0], 64 B [1 1]
  b.read(100, 0x100, 5, 0x3); // C FM: 64 B window 1.0 > 0.5: whole line 1111; its fill evicts B (read 0011,
                              //   consistent): 64 B [1 1 0]; C complete, needed 0011: 64 B [1 1 0 0]
  b.run_to(300);
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 5);
  const uint32_t maps[] = {0x1, 0x2, 0x1, 0xe, 0xf};
  for (size_t i = 0; i < 5; ++i) {
    INFO("fetch " << i);
    CHECK(m[i].ext.sector_mask == maps[i]);
  }
  CHECK(rc.fdr_ratio() == 0.0);  // the fetched-map case has 0.75 here
  CHECK(rc.fdr_events() == 4);
  CHECK(rc.ica_ratio(2) == 0.5);
  CHECK(rc.ica_events(2) == 4);
  CHECK(rc.ica_events(4) == 0);
  CHECK(rc.decide(0x1, MC::First) == D::Partial);
  CHECK(invariant_failures().empty());
}

TEST_CASE("RequestController: ica_window = first-request feeds the window the first request consulted",
          "[critical][controller]") {
  RequestController::Params p;
  p.window_size = 4;
  p.ica_window = "first-request";
  RequestController rc("rc", p);
  rc.on_evict(0xf, true, 0x1);   // read 1111 after a 1-sector first request: the 64 B window
  rc.on_reply(0x7, false, 0x6);  // a 2-sector request's MSHR, 3 sectors needed in all: 64 B again
  rc.on_reply(0x7, true, 0x7);   // 3 sectors from the start: the 96 B window
  rc.on_evict(0xf, true);        // first unknown: the window of its map, 128 B
  CHECK(rc.ica_events(2) == 2);
  CHECK(rc.ica_ratio(2) == 0.5);
  CHECK(rc.ica_events(3) == 1);
  CHECK(rc.ica_ratio(3) == 1.0);
  CHECK(rc.ica_events(4) == 1);
  CHECK(rc.fdr_events() == 4);
  CHECK(rc.fdr_ratio() == 0.5);  // two events read the whole line
  CHECK(rc.decide(0x1, MC::First) == D::Partial);  // 0.5 <= ica_threshold
}

TEST_CASE("RequestController: ica_consult = larger pools the windows of more sectors than the request's",
          "[critical][controller]") {
  RequestController::Params p;
  p.window_size = 4;
  p.fdr_threshold = 1.0;  // keep the FDR rule out of the way
  for (const char* consult : {"size", "larger"}) {
    INFO(consult);
    p.ica_consult = consult;
    RequestController rc("rc", p);
    rc.on_reply(0x3, false);  // ICA 64 B  [0]
    rc.on_reply(0x3, false);  // ICA 64 B  [0 0]
    rc.on_evict(0xf, true);   // ICA 128 B [1]: a line read in part, then whole (string-match's)
    rc.on_evict(0xf, true);   // ICA 128 B [1 1]
    rc.on_evict(0x7, false);  // ICA 96 B  [0]
    const bool larger = std::string(consult) == "larger";
    // 32 B: size reads the 64 B window (0); larger pools 64, 96, 128 B: 2 of 5 = 0.4
    CHECK(rc.decide(0x1, MC::First) == D::Partial);
    // 64 B: size reads the 64 B window (0); larger pools 96 and 128 B: 2 of 3
    CHECK(rc.decide(0x3, MC::First) == (larger ? D::FullIca : D::Partial));
    // 96 B: size reads the 96 B window (0); larger the 128 B one (1.0)
    CHECK(rc.decide(0x7, MC::First) == (larger ? D::FullIca : D::Partial));
    rc.on_evict(0xf, true);  // ICA 128 B [1 1 1]: 32 B under larger: 3 of 6 = 0.5, still partial
    CHECK(rc.decide(0x1, MC::First) == D::Partial);
    rc.on_evict(0xf, true);  // ICA 128 B [1 1 1 1]: 4 of 7 > 0.5
    CHECK(rc.decide(0x1, MC::First) == (larger ? D::FullIca : D::Partial));
  }
}

TEST_CASE("RequestController: attached with ica_window = first-request: a line's later sectors count against its first request",
          "[critical][controller][cache]") {
  // The script of the critical-maps case: A's eviction (read 0011, ICA) and B's SM completion go
  // to the 64 B window, which A's and B's 1-sector first requests consulted, with A's first fill
  // and its HI's fill (consistent) before them: C (2 sectors) sees 0.5 and fetches only its
  // sectors, where the map reading (64 B window [1 1]) fetched the whole line.
  Bench b("b", one_line_sector_cache(), /*mem_latency=*/10);
  RequestController::Params p;
  p.window_size = 4;
  p.ica_window = "first-request";
  RequestController rc("rc", p);
  rc.attach(b.cache);
  b.read(10, 0x000, 1, 0x1);  // A FM: partial 0001; complete, first 0001: FDR [0], 64 B [0]
  b.read(40, 0x000, 2, 0x2);  // A HI: partial 0010; complete, first 0010: FDR [0 0], 64 B [0 0]; A inconsistent
  b.read(60, 0x080, 3, 0x1);  // B FM: partial 0001; its fill evicts A (read 0011, ICA, first 0001): 64 B [0 0 1]
  b.read(61, 0x080, 4, 0x2);  // B SM: 1110; complete, first 0001, SM: FDR [0 0 0 0], 64 B [0 0 1 1]
  b.read(100, 0x100, 5, 0x3); // C FM: 64 B window 0.5: partial 0011; its fill evicts B (read 0011,
                              //   consistent, first 0001): 64 B [0 1 1 0]; C complete, first 0011: [1 1 0 0]
  b.run_to(300);
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 5);
  const uint32_t maps[] = {0x1, 0x2, 0x1, 0xe, 0x3};
  for (size_t i = 0; i < 5; ++i) {
    INFO("fetch " << i);
    CHECK(m[i].ext.sector_mask == maps[i]);
  }
  CHECK(rc.fdr_ratio() == 0.0);
  CHECK(rc.ica_events(2) == 4);
  CHECK(rc.ica_ratio(2) == 0.5);
  CHECK(rc.ica_events(3) == 0);
  CHECK(rc.ica_events(4) == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("RequestController: attaching to a line cache or to other sectors per line is an error",
          "[critical][controller][config]") {
  ClockDomain clk("clk", 1000.0);
  Cache line("line", Cache::Params{}, clk, 0);
  RequestController rc("rc", RequestController::Params{});
  REQUIRE_THROWS_WITH(rc.attach(line), Contains("line") && Contains("fetch_granularity = sector"));
  Cache::Params p;
  p.line_bytes = 64;
  p.sets = 64;
  p.sectored = true;
  p.fetch_granularity = "sector";
  Cache small("small", p, clk, 0);
  REQUIRE_THROWS_WITH(rc.attach(small), Contains("rc") && Contains("small") && Contains("line_bytes / 32"));
  RequestController::Params bad;
  bad.window_size = 0;
  REQUIRE_THROWS_WITH(RequestController("rc2", bad), Contains("rc2.window_size"));
  RequestController::Params maps;
  maps.window_maps = "valid";
  REQUIRE_THROWS_WITH(RequestController("rc4", maps), Contains("rc4.window_maps"));
  REQUIRE_THROWS_WITH(RequestController("rc3", RequestController::Params{}, 1), Contains("rc3") && Contains("2..32"));
}
