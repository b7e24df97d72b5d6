// SelectiveCacheBypass tests: decisions at both edges of the local range (one byte inside and
// one outside each register), at the ends of the address space, by request kind, by mode, through
// the Cache::set_bypass policy on real payloads and on an L1 (mem/cache.h), and bad ranges.
#include <catch2/catch.hpp>

#include "common/payload_pool.h"
#include "mem/cache_fixture.h"
#include "multigpu/selective_cache_bypass.h"

using namespace gpusc;
using multigpu::SelectiveCacheBypass;
using P = SelectiveCacheBypass::Params;

namespace {
// GPU 1 of four with 4 GB each: [4 GB, 8 GB - 1].
P gpu1() {
  P p;
  p.local_first = 4ull << 30;
  p.local_last = (8ull << 30) - 1;
  return p;
}
}  // namespace

TEST_CASE("SCBU: in coalescing mode a read one byte outside either register bypasses, one inside does not",
          "[scbu]") {
  SelectiveCacheBypass s(gpu1());
  s.set_coalescing(true);
  const uint64_t first = 4ull << 30, last = (8ull << 30) - 1;
  CHECK(s.bypass(first - 1, MemKind::Read));   // GPU 0's last byte: remote
  CHECK_FALSE(s.bypass(first, MemKind::Read)); // first local byte
  CHECK_FALSE(s.bypass(first + 64, MemKind::Read));
  CHECK_FALSE(s.bypass(last - 63, MemKind::Read));  // the last local line
  CHECK_FALSE(s.bypass(last, MemKind::Read));       // the end register is inclusive
  CHECK(s.bypass(last + 1, MemKind::Read));          // GPU 2's first byte
  CHECK(s.bypass(0, MemKind::Read));
  CHECK(s.bypass(~uint64_t{0}, MemKind::Read));
}

TEST_CASE("SCBU: outside coalescing mode nothing bypasses", "[scbu]") {
  SelectiveCacheBypass s(gpu1());
  CHECK_FALSE(s.coalescing());  // off at reset
  for (uint64_t a : {uint64_t{0}, uint64_t{(4ull << 30) - 1}, uint64_t{8ull << 30}}) {
    CHECK(s.remote(a));
    CHECK_FALSE(s.bypass(a, MemKind::Read));
  }
  s.set_coalescing(true);
  CHECK(s.bypass(0, MemKind::Read));
  s.set_coalescing(false);
  CHECK_FALSE(s.bypass(0, MemKind::Read));
}

TEST_CASE("SCBU: remote writes and atomics stay conventional unless bypass_writes", "[scbu]") {
  SelectiveCacheBypass s(gpu1());
  s.set_coalescing(true);
  CHECK_FALSE(s.bypass(0, MemKind::Write));
  CHECK_FALSE(s.bypass(0, MemKind::Atomic));
  P p = gpu1();
  p.bypass_writes = true;
  SelectiveCacheBypass w(p);
  w.set_coalescing(true);
  CHECK(w.bypass(0, MemKind::Write));
  CHECK(w.bypass(0, MemKind::Atomic));
  CHECK_FALSE(w.bypass(4ull << 30, MemKind::Write));  // local writes never bypass
}

TEST_CASE("SCBU: ranges at the ends of the address space", "[scbu]") {
  P p;  // GPU 0: [0, 4 GB - 1]
  SelectiveCacheBypass s(p);
  s.set_coalescing(true);
  CHECK_FALSE(s.bypass(0, MemKind::Read));
  CHECK_FALSE(s.bypass((4ull << 30) - 1, MemKind::Read));
  CHECK(s.bypass(4ull << 30, MemKind::Read));
  s.set_range(~uint64_t{0} - 63, ~uint64_t{0});  // one line at the very top: nothing above it
  CHECK(s.bypass(~uint64_t{0} - 64, MemKind::Read));
  CHECK_FALSE(s.bypass(~uint64_t{0} - 63, MemKind::Read));
  CHECK_FALSE(s.bypass(~uint64_t{0}, MemKind::Read));
  s.set_range(100, 100);  // a single byte
  CHECK(s.bypass(99, MemKind::Read));
  CHECK_FALSE(s.bypass(100, MemKind::Read));
  CHECK(s.bypass(101, MemKind::Read));
}

TEST_CASE("SCBU: the Cache bypass policy decides on the payload's address and kind", "[scbu]") {
  SelectiveCacheBypass s(gpu1());
  const auto policy = s.policy();
  PayloadPool pool(64);
  auto& gp = pool.acquire();
  MemExt& e = *gp.get_extension<MemExt>();
  gp.set_address((4ull << 30) - 64);  // GPU 0's last line
  e.kind = MemKind::Read;
  CHECK_FALSE(policy(gp));  // mode off
  s.set_coalescing(true);   // the policy reads the registers at each call
  CHECK(policy(gp));
  gp.set_address(4ull << 30);
  CHECK_FALSE(policy(gp));
  gp.set_address(8ull << 30);
  CHECK(policy(gp));
  e.kind = MemKind::Write;
  CHECK_FALSE(policy(gp));
  gp.release();
  tlm::tlm_generic_payload bare;  // no MemExt: malformed
  CHECK_THROWS_WITH(policy(bare), Catch::Contains("without MemExt"));
}

TEST_CASE("SCBU: a start register above the end register is a clear error", "[scbu][bad]") {
  P p;
  p.local_first = 0x2000;
  p.local_last = 0x1fff;
  CHECK_THROWS_WITH(SelectiveCacheBypass(p), Catch::Contains("local_first = 0x2000 is above local_last = 0x1fff"));
  SelectiveCacheBypass s(gpu1());
  CHECK_THROWS_WITH(s.set_range(10, 9), Catch::Contains("is above local_last"));
  CHECK(s.local_first() == 4ull << 30);  // unchanged by the refused reload
  const P q = params_from_json<P>(parse_json(R"({"local_first": 4096, "local_last": 8191})", "test"), "scbu");
  CHECK(q.local_first == 4096);
  CHECK(q.local_last == 8191);
  CHECK_THROWS_WITH(params_from_json<P>(parse_json(R"({"local_end": 1})", "test"), "scbu"),
                    Catch::Contains("unknown parameter 'scbu.local_end'"));
}

TEST_CASE("SCBU: plugged into an L1 with Cache::set_bypass, remote reads skip it in coalescing mode only",
          "[scbu][cache]") {
  tb::Bench b("b", Cache::Params{});  // SM driver -> L1 -> memory model (testbenches/mem/cache_fixture.h)
  P p;
  p.local_first = 0;
  p.local_last = 0xFFFF;
  SelectiveCacheBypass s(p);
  b.cache.set_bypass(s.policy());
  s.set_coalescing(true);
  b.read(10, 0x20000, 1);   // remote: bypassed, goes down as the request itself
  b.read(30, 0x1000, 2);    // local: a miss, fetched by the cache and allocated
  b.write(50, 0x30000, 3);  // remote write: conventional (write-through)
  b.run_to(100);
  CHECK_FALSE(b.cache.present(0x20000));
  CHECK(b.cache.present(0x1000));
  CHECK(tb::stat(b.cache, "bypassed") == 1);
  s.set_coalescing(false);  // e.g. the decision engine chose caching
  b.read(110, 0x20000, 4);
  b.run_to(200);
  CHECK(b.cache.present(0x20000));
  CHECK(tb::stat(b.cache, "bypassed") == 1);
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 4);
  CHECK(m[0].addr == 0x20000);
  CHECK(m[0].ext.src == tb::kSmNode);     // the bypassed request itself
  CHECK(m[1].ext.src == tb::kCacheNode);  // the cache's fetch for the local miss
  CHECK(m[2].kind == MemKind::Write);
  CHECK(m[3].ext.src == tb::kCacheNode);  // outside coalescing mode the remote line is fetched
  CHECK(b.replies().size() == 4);
  CHECK(tb::invariant_failures().empty());
}
