// Cache tests: exact hit and miss timing, LRU order, MSHR merge and limits, write-through and
// write-back policies, flush, sector bits, back-pressure, the loosely-timed path with real bytes,
// protocol and configuration errors. (Random streams against a reference: cache_random_tb.cpp.)
// Timing conventions used below (see cache.h): a request offered by the SM driver in cycle c is
// latched and looked up in c + 1; a hit is sent up in c + 1 + hit_latency; a miss goes down in
// c + 1 + lookup_latency (0 unless a case sets it). The memory model takes it in that cycle m and replies in m + M (M = its latency); the
// cache latches the fill in m + M + 1 and answers the first merged request in that cycle.
#include <catch2/catch.hpp>

#include <cstring>

#include "cache_fixture.h"
#include "common/address_map.h"
#include "mem/backing_store.h"

using namespace gpusc;
using namespace gpusc::tb;
using Catch::Contains;

TEST_CASE("Cache: hit latency is exact and hits are pipelined", "[cache][timing]") {
  Cache::Params p1, p7;
  p7.hit_latency = 7;
  Bench b1("b1", p1), b7("b7", p7);
  for (Bench* b : {&b1, &b7}) {
    b->read(10, 0x1000, 1, 0x4);  // miss
    b->read(50, 0x1000, 2);       // three hits offered back to back
    b->read(51, 0x1000, 3);
    b->read(52, 0x1000, 4);
  }
  b1.run_to(200);
  for (Bench* b : {&b1, &b7}) {
    const unsigned L = b->cache.params().hit_latency;
    INFO("hit_latency " << L);
    const auto& r = b->replies();
    REQUIRE(r.size() == 4);
    // Miss: looked up at 11, fill back at 11 + 10, latched and answered at 22.
    CHECK(r[0].cycle == 22);
    for (unsigned i = 1; i < 4; ++i) {
      CHECK(r[i].ext.pc == i + 1);
      CHECK(r[i].cycle == 50 + i + L);  // offered 49 + i, looked up 50 + i
    }
    for (const auto& a : r) {
      CHECK(a.ext.is_reply);
      CHECK(a.ext.dst == kSmNode);
      CHECK(a.ext.src == kSmNode);
      CHECK(a.length == 128);
      CHECK(a.address == 0x1000);
      CHECK(a.ext.kind == MemKind::Read);
    }
    // The one fetch: the cache's own payload, first request's fields, routed.
    REQUIRE(b->mem.log().size() == 1);
    const auto& f = b->mem.log()[0];
    CHECK(f.cycle == 11);
    CHECK(f.addr == 0x1000);
    CHECK(f.length == 128);
    CHECK(f.kind == MemKind::Read);
    CHECK_FALSE(f.ext.is_reply);
    CHECK(f.ext.src == kCacheNode);
    CHECK(f.ext.dst == kMcNode);
    CHECK(f.ext.pc == 1);
    CHECK(f.ext.warp == 1);
    CHECK(f.ext.sector_mask == 0xf);  // not sectored: the fetch asks for the whole line
    CHECK(stat(b->cache, "reads") == 4);
    CHECK(stat(b->cache, "read_hits") == 3);
    CHECK(stat(b->cache, "read_misses") == 1);
    CHECK(collect_stats()["stats"][std::string(b->cache.name()) + ".hit_rate"] == 0.75);
    CHECK(b->cache.idle());
    CHECK(b->pool.in_use() == 0);
  }
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: a miss pays lookup_latency before it goes down, a hit pays hit_latency", "[cache][timing]") {
  Cache::Params p = l2_params();
  p.sets = 8;
  p.hit_latency = 7;
  p.lookup_latency = 5;
  p.miss_queue = 1;  // the lookup pipeline is not bounded by the miss queue
  Bench b("b", p, /*mem_latency=*/10);
  b.read(10, 0x000, 1);  // miss: looked up 11, down 11 + 5 = 16, reply 16 + 10 = 26, fill 27
  b.read(50, 0x000, 2);  // hit: looked up 51, up 51 + 7 = 58
  for (unsigned i = 0; i < 4; ++i) b.read(100 + i, 0x100 + 0x80 * i, 10 + i);  // 4 misses, down 106..109
  b.run_to(13);
  CHECK_FALSE(b.cache.idle());  // a miss in the lookup pipeline is work in flight
  CHECK(b.mem.log().empty());
  b.run_to(300);
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 5);
  CHECK(m[0].cycle == 16);
  for (unsigned i = 0; i < 4; ++i) {
    INFO("miss " << i);
    CHECK(m[1 + i].cycle == 106 + i);
    CHECK(m[1 + i].addr == 0x100 + 0x80 * i);
  }
  const auto& r = b.replies();
  REQUIRE(r.size() == 6);
  CHECK(r[0].ext.pc == 1);
  CHECK(r[0].cycle == 27);  // 10 + 1 + lookup 5 + memory 10 + fill latch 1
  CHECK(r[1].ext.pc == 2);
  CHECK(r[1].cycle == 58);  // 50 + 1 + hit 7
  for (unsigned i = 0; i < 4; ++i) CHECK(r[2 + i].cycle == 106 + i + 10 + 1);
  CHECK(stat(b.cache, "reservation_fails") == 0);
  CHECK(b.cache.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: a write-through and an atomic pay lookup_latency, a write-back does not", "[cache][timing]") {
  Cache::Params wt;  // L1: write-through
  wt.hit_latency = 3;
  wt.lookup_latency = 2;
  Bench a("a", wt);
  a.write(10, 0x40, 1);                      // down 11 + 2 = 13
  a.req(20, MemKind::Atomic, 0x80, 2);       // down 21 + 2 = 23
  Cache::Params wb = l2_params();            // 2 sets x 2 ways
  wb.hit_latency = 6;
  wb.lookup_latency = 4;
  Bench b("b", wb, /*mem_latency=*/10, /*ack_writes=*/false);
  b.write(10, 0x000, 1);   // write-allocate, dirty, ack 11 + 6 = 17
  b.write(11, 0x100, 2);   // same set, second way
  b.read(30, 0x200, 3);    // same set: miss, down 31 + 4 = 35; fill 46 evicts 0x000 (dirty)
  a.run_to(100);
  REQUIRE(a.mem.log().size() == 2);
  CHECK(a.mem.log()[0].kind == MemKind::Write);
  CHECK(a.mem.log()[0].cycle == 13);
  CHECK(a.mem.log()[1].kind == MemKind::Atomic);
  CHECK(a.mem.log()[1].cycle == 23);
  const auto wbs = b.mem.of_kind(MemKind::Write);
  const auto rds = b.mem.of_kind(MemKind::Read);
  REQUIRE(rds.size() == 1);
  CHECK(rds[0].cycle == 35);
  REQUIRE(wbs.size() == 1);
  CHECK(wbs[0].addr == 0x000);
  CHECK(wbs[0].cycle == 46);  // queued by the fill latched in 35 + 10 + 1, sent at once
  CHECK(b.replies().at(0).cycle == 17);
}

TEST_CASE("Cache: LRU picks the least recently used way of the set", "[cache][lru]") {
  // Default L1: 32 sets x 4 ways of 128 B, so lines 4096 B apart share set 0.
  Bench b("b", Cache::Params{});
  auto L = [](unsigned k) { return 0x10000 + uint64_t{k} * 4096; };
  b.read(10, L(0), 1);
  b.read(50, L(1), 2);
  b.read(90, L(2), 3);
  b.read(130, L(3), 4);   // set full: LRU order L0 < L1 < L2 < L3
  b.read(170, L(0), 5);   // hit: L1 < L2 < L3 < L0
  b.read(210, L(4), 6);   // miss: the fill evicts L1
  b.run_to(245);
  CHECK_FALSE(b.cache.present(L(1)));
  for (unsigned k : {0u, 2u, 3u, 4u}) CHECK(b.cache.present(L(k)));
  b.read(250, L(1), 7);   // miss: L2 < L3 < L0 < L4, the fill evicts L2
  b.read(290, L(3), 8);   // still there: hit
  b.run_to(400);
  CHECK_FALSE(b.cache.present(L(2)));
  for (unsigned k : {0u, 1u, 3u, 4u}) CHECK(b.cache.present(L(k)));
  std::vector<uint64_t> fetched;
  for (const auto& r : b.mem.log()) fetched.push_back(r.addr);
  CHECK(fetched == std::vector<uint64_t>{L(0), L(1), L(2), L(3), L(4), L(1)});
  CHECK(stat(b.cache, "evictions") == 2);
  CHECK(stat(b.cache, "read_hits") == 2);
  CHECK(b.replies().size() == 8);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: reads to one line merge into one MSHR and one fetch", "[cache][mshr]") {
  Bench b("b", Cache::Params{}, 20);
  b.read(10, 0x2000, 1);
  b.read(11, 0x2000, 2);
  b.read(12, 0x2000, 3);
  b.read(60, 0x2000, 4);
  b.run_to(20);
  CHECK(b.cache.mshrs_in_use() == 1);
  b.run_to(100);
  REQUIRE(b.mem.log().size() == 1);
  CHECK(b.mem.log()[0].cycle == 11);
  CHECK(b.mem.log()[0].ext.pc == 1);  // fields of the first request
  const auto& r = b.replies();
  REQUIRE(r.size() == 4);
  // Fill latched at 11 + 20 + 1 = 32: merged requests answered in order, one per cycle.
  for (unsigned i = 0; i < 3; ++i) {
    CHECK(r[i].ext.pc == i + 1);
    CHECK(r[i].cycle == 32 + i);
  }
  CHECK(r[3].ext.pc == 4);
  CHECK(r[3].cycle == 62);  // hit
  CHECK(stat(b.cache, "reads") == 4);
  CHECK(stat(b.cache, "read_misses") == 1);
  CHECK(stat(b.cache, "mshr_merges") == 2);
  CHECK(stat(b.cache, "read_hits") == 1);
  CHECK(stat(b.cache, "fetches") == 1);
  CHECK(stat(b.cache, "fills") == 1);
  CHECK(b.cache.mshrs_in_use() == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: with every MSHR busy a new miss waits and each waiting cycle counts", "[cache][mshr]") {
  Cache::Params p;
  p.mshrs = 2;
  Bench b("b", p, 20);
  b.read(10, 0x1000, 1);  // A: looked up 11
  b.read(11, 0x2000, 2);  // B: looked up 12
  b.read(12, 0x3000, 3);  // C: no MSHR from 13 on
  b.read(13, 0x4000, 4);  // D: waits behind C
  b.run_to(20);
  CHECK(b.cache.mshrs_in_use() == 2);
  CHECK(b.mem.log().size() == 2);
  b.run_to(200);
  // A's fill is latched at 32 and frees its MSHR before the lookup of that cycle: C goes down
  // at 32 after failing in cycles 13..31 (19 cycles); B's fill at 33 lets D go at 33.
  REQUIRE(b.mem.log().size() == 4);
  const uint64_t want_cycle[] = {11, 12, 32, 33};
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(b.mem.log()[i].ext.pc == i + 1);
    CHECK(b.mem.log()[i].cycle == want_cycle[i]);
  }
  CHECK(stat(b.cache, "reservation_fails") == 19);
  const auto& r = b.replies();
  REQUIRE(r.size() == 4);
  const uint64_t want_reply[] = {32, 33, 53, 54};
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(r[i].ext.pc == i + 1);
    CHECK(r[i].cycle == want_reply[i]);
  }
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: a full merge list stalls the next read to that line", "[cache][mshr]") {
  Cache::Params p;
  p.mshr_merge = 2;
  p.hit_latency = 5;
  Bench b("b", p, 20);
  b.read(10, 0x2000, 1);  // allocates at 11
  b.read(11, 0x2000, 2);  // merges at 12
  b.read(12, 0x2000, 3);  // list full: fails from 13
  b.run_to(100);
  // Fill latched at 32: installs the line and answers #1; #3 is then looked up at 32 and hits
  // (reply at 32 + 5); #2 is answered at 33. Failed cycles: 13..31.
  const auto& r = b.replies();
  REQUIRE(r.size() == 3);
  CHECK(r[0].ext.pc == 1);
  CHECK(r[0].cycle == 32);
  CHECK(r[1].ext.pc == 2);
  CHECK(r[1].cycle == 33);
  CHECK(r[2].ext.pc == 3);
  CHECK(r[2].cycle == 37);
  CHECK(b.mem.log().size() == 1);
  CHECK(stat(b.cache, "reservation_fails") == 19);
  CHECK(stat(b.cache, "mshr_merges") == 1);
  CHECK(stat(b.cache, "read_hits") == 1);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: write-through does not allocate and forwards writes and atomics and their replies",
          "[cache][write-through]") {
  Bench b("b", Cache::Params{}, 10, true);
  const uint64_t A = 0x3000;
  b.write(10, A, 1);                  // miss: down at 11, ack up at 11 + 10 + 1
  b.read(40, A, 2);                   // read miss: fetch at 41, reply 52
  b.write(70, A, 3);                  // hit: down at 71, ack 82
  b.read(100, A, 4);                  // hit: 102
  b.req(120, MemKind::Atomic, A, 5);  // forwarded at 121, reply 132
  b.run_to(35);
  CHECK_FALSE(b.cache.present(A));
  b.run_to(200);
  CHECK(b.cache.present(A));
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 4);
  const MemKind want_kind[] = {MemKind::Write, MemKind::Read, MemKind::Write, MemKind::Atomic};
  const uint64_t want_pc[] = {1, 2, 3, 5}, want_cycle[] = {11, 41, 71, 121};
  const unsigned want_len[] = {8, 128, 8, 4};
  for (unsigned i = 0; i < 4; ++i) {
    INFO("down message " << i);
    CHECK(m[i].kind == want_kind[i]);
    CHECK(m[i].ext.pc == want_pc[i]);
    CHECK(m[i].cycle == want_cycle[i]);
    CHECK(m[i].length == want_len[i]);
    CHECK(m[i].ext.dst == kMcNode);
    CHECK(m[i].ext.src == (m[i].kind == MemKind::Read ? kCacheNode : kSmNode));
  }
  const auto& r = b.replies();
  REQUIRE(r.size() == 5);
  const uint64_t want_reply[] = {22, 52, 82, 102, 132};
  const unsigned want_rlen[] = {8, 128, 8, 128, 4};  // acks and atomic replies come back unchanged
  for (unsigned i = 0; i < 5; ++i) {
    INFO("reply " << i);
    CHECK(r[i].ext.pc == i + 1);
    CHECK(r[i].cycle == want_reply[i]);
    CHECK(r[i].length == want_rlen[i]);
    CHECK(r[i].ext.is_reply);
  }
  CHECK(stat(b.cache, "writes") == 2);
  CHECK(stat(b.cache, "atomics") == 1);
  CHECK(stat(b.cache, "fetches") == 1);
  CHECK(stat(b.cache, "read_hits") == 1);
  CHECK(stat(b.cache, "writebacks") == 0);
  CHECK(b.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: write-back allocates on write and acks itself and writes each dirty victim back once",
          "[cache][write-back]") {
  Cache::Params p = l2_params();  // 2 sets x 2 ways: lines 256 B apart share set 0
  p.hit_latency = 3;
  Bench b("b", p, 10, false);
  const uint64_t A = 0x0, B = 0x100, C = 0x200, D = 0x300, E = 0x400;
  b.write(10, A, 1);                   // allocate A (dirty), ack at 11 + 3
  b.write(20, B, 2);                   // allocate B (dirty), ack at 24
  b.read(30, C, 3);                    // fetch at 31, fill at 42 evicts A: write-back at 42
  b.read(60, D, 4);                    // fetch 61, fill 72 evicts B: write-back at 72
  b.read(90, E, 5);                    // fetch 91, fill 102 evicts clean C: nothing written
  b.req(120, MemKind::Atomic, D, 6);   // hit, dirties D, reply with the line at 124
  b.read(140, A, 7);                   // fetch 141, fill 152 evicts clean E (LRU: E 102 < D 121)
  b.read(170, C, 8);                   // fetch 171, fill 182 evicts dirty D: write-back at 182
  b.run_to(300);
  const auto wb = b.mem.of_kind(MemKind::Write);
  REQUIRE(wb.size() == 3);
  const uint64_t want_addr[] = {A, B, D}, want_cycle[] = {42, 72, 182};
  for (unsigned i = 0; i < 3; ++i) {
    INFO("write-back " << i);
    CHECK(wb[i].addr == want_addr[i]);
    CHECK(wb[i].cycle == want_cycle[i]);
    CHECK(wb[i].length == 128);
    CHECK(wb[i].ext.src == kCacheNode);
    CHECK(wb[i].ext.dst == kMcNode);
    CHECK_FALSE(wb[i].ext.is_reply);
  }
  CHECK(b.mem.of_kind(MemKind::Read).size() == 5);
  CHECK(b.mem.of_kind(MemKind::Atomic).empty());  // performed here
  const auto& r = b.replies();
  REQUIRE(r.size() == 8);
  CHECK(r[0].cycle == 14);
  CHECK(r[0].ext.kind == MemKind::Write);
  CHECK(r[0].length == 8);  // write ack: length unchanged
  CHECK(r[0].ext.dst == kSmNode);
  CHECK(r[1].cycle == 24);
  CHECK(r[5].ext.pc == 6);
  CHECK(r[5].cycle == 124);
  CHECK(r[5].length == 4);  // atomic reply: the old values, the request's length (one word here)
  for (const auto& a : r) CHECK(a.ext.is_reply);
  CHECK(stat(b.cache, "writebacks") == 3);
  CHECK(stat(b.cache, "evictions") == 5);
  CHECK(stat(b.cache, "atomics") == 1);
  CHECK(b.cache.is_dirty(C) == false);
  CHECK(b.cache.present(A));
  CHECK(b.cache.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: flush of a write-through L1 makes everything miss again", "[cache][flush]") {
  Bench b("b", Cache::Params{});
  b.read(10, 0x1000, 1);
  b.read(12, 0x2000, 2);
  b.run_to(60);
  CHECK(b.cache.present(0x1000));
  CHECK(b.cache.present(0x2000));
  b.cache.flush();
  CHECK_FALSE(b.cache.present(0x1000));
  CHECK_FALSE(b.cache.present(0x2000));
  b.read(70, 0x1000, 3);
  b.read(72, 0x2000, 4);
  b.run_to(73);  // 0x1000 fetched at 71, its fill is due at 82: not idle
  CHECK_FALSE(b.cache.idle());
  REQUIRE_THROWS_WITH(b.cache.flush(), Contains("b.cache") && Contains("idle()"));
  b.run_to(150);
  CHECK(b.mem.log().size() == 4);
  CHECK(stat(b.cache, "read_misses") == 4);
  CHECK(stat(b.cache, "read_hits") == 0);
  CHECK(stat(b.cache, "writebacks") == 0);
  CHECK(b.replies().size() == 4);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: flush of a write-back L2 writes every dirty line down first", "[cache][flush]") {
  Bench b("b", l2_params(), 10, false);
  b.write(10, 0x000, 1);  // set 0, dirty
  b.write(12, 0x080, 2);  // set 1, dirty
  b.read(14, 0x100, 3);   // set 0, clean after its fill
  b.run_to(60);
  const uint64_t now = b.clk.now();
  b.cache.flush();
  for (uint64_t a : {0x000, 0x080, 0x100}) CHECK_FALSE(b.cache.present(a));
  b.run_to(100);
  const auto wb = b.mem.of_kind(MemKind::Write);
  REQUIRE(wb.size() == 2);
  CHECK(wb[0].addr == 0x000);
  CHECK(wb[1].addr == 0x080);
  CHECK(wb[0].cycle == now + 1);  // one per cycle from the next edge
  CHECK(wb[1].cycle == now + 2);
  CHECK(wb[0].length == 128);
  CHECK(stat(b.cache, "writebacks") == 2);
  CHECK(stat(b.cache, "evictions") == 0);
  b.read(110, 0x000, 4);  // gone: fetched again
  b.run_to(150);
  CHECK(b.mem.of_kind(MemKind::Read).size() == 2);
  CHECK(b.cache.idle());
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: invalidate with a miss in flight drops the chosen lines, writes dirty ones down, keeps the fill",
          "[cache][flush]") {
  Bench b("b", l2_params(), 10, false);
  b.write(10, 0x000, 1);  // set 0, dirty
  b.write(12, 0x080, 2);  // set 1, dirty
  b.read(14, 0x100, 3);   // set 0, clean after its fill
  b.run_to(60);
  b.read(60, 0x200, 4);   // looked up 61, fetched 61, fill latched 72
  b.run_to(65);
  CHECK_FALSE(b.cache.idle());
  const uint64_t now = b.clk.now();
  // Only lines below 0x100: 0x000 (dirty) and 0x080 (dirty) go, 0x100 stays.
  CHECK(b.cache.invalidate([](uint64_t line) { return line < 0x100; }) == 2);
  CHECK_FALSE(b.cache.present(0x000));
  CHECK_FALSE(b.cache.present(0x080));
  CHECK(b.cache.present(0x100));
  // Everything else now, with the fetch of 0x200 still out: it is not present, so not counted.
  CHECK(b.cache.invalidate() == 1);
  CHECK_FALSE(b.cache.present(0x100));
  b.run_to(120);
  const auto wb = b.mem.of_kind(MemKind::Write);
  REQUIRE(wb.size() == 2);  // the two dirty lines, one per cycle from the next edge
  CHECK(wb[0].addr == 0x000);
  CHECK(wb[0].cycle == now + 1);
  CHECK(wb[1].addr == 0x080);
  CHECK(wb[1].cycle == now + 2);
  CHECK(stat(b.cache, "writebacks") == 2);
  // The outstanding fill was installed after the invalidation and answered its read.
  CHECK(b.cache.present(0x200));
  REQUIRE(b.replies().size() == 4);
  CHECK(b.replies().back().ext.pc == 4);
  CHECK(b.cache.idle());
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: sector valid bits decide hits in a sectored cache", "[cache][sector]") {
  Cache::Params ps = l2_params(), pn = l2_params();
  pn.sectored = false;
  Bench bs("bs", ps), bn("bn", pn);
  const uint64_t X = 0x1000;
  for (Bench* b : {&bs, &bn}) {
    b->write(10, X, 1, 0b0010);  // write-allocate without fetch: only sector 1 valid
    b->read(20, X, 2, 0b0010);
    b->read(40, X, 3, 0b0001);
  }
  bs.run_to(15);
  for (Bench* b : {&bs, &bn}) CHECK(b->cache.valid_sectors(X) == 0b0010);
  bs.run_to(100);
  // Sectored: read of sector 1 hits (reply 22); read of sector 0 is a sector miss (fetch at 41).
  REQUIRE(bs.mem.log().size() == 1);
  CHECK(bs.mem.log()[0].cycle == 41);
  CHECK(bs.replies().at(1).cycle == 22);
  CHECK(bs.replies().at(2).cycle == 52);
  // Not sectored: a read needs the whole line, so the first read is the sector miss (fetch at
  // 21, fill 32) and the second hits (42).
  REQUIRE(bn.mem.log().size() == 1);
  CHECK(bn.mem.log()[0].cycle == 21);
  CHECK(bn.replies().at(1).cycle == 32);
  CHECK(bn.replies().at(2).cycle == 42);
  for (Bench* b : {&bs, &bn}) {
    CHECK(stat(b->cache, "read_hits") == 1);
    CHECK(stat(b->cache, "read_misses") == 1);
    CHECK(stat(b->cache, "sector_misses") == 1);
    CHECK(b->cache.valid_sectors(X) == 0b1111);  // the fill brings the whole line
    CHECK(b->cache.is_dirty(X));                 // and keeps it dirty
  }
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: a stalled receiver above back-pressures the cache and its input without loss",
          "[cache][backpressure]") {
  // in_queue 2, out_queue 2, hit latency 1; the receiver above holds 1 message and is stalled
  // until cycle 200. Twelve hits r0..r11 offered from cycle 100 as fast as they are taken.
  //   r0: looked up 101, sent 102, taken into the receiver's queue.
  //   r1: sent 103, withheld (up_out blocked from 103).  r2, r3: sent to the out queue at 104,
  //   105 -> full, lookups stop.  r4, r5 fill the input queue; r6, offered at 106, is withheld.
  // At 200 the receiver takes r1 (up_out free from 201): 201 - 1 - 103 = 97 blocked cycles.
  // 201: the lookup still sees the out queue full (r2, r3), then r2 leaves. 202: r4 is looked up
  // (freeing an input slot: r6 enters the cache at 202) and r3 leaves. From then on one lookup
  // and one reply per cycle: r_i arrives at 199 + i.
  Cache::Params p;
  p.in_queue = 2;
  p.out_queue = 2;
  Bench b("b", p, 10, true, 1);
  const uint64_t A = 0x5000;
  b.read(10, A, 100);  // warm-up: reply at 22
  b.run_to(50);
  b.up.stall_until(200);
  for (unsigned i = 0; i < 12; ++i) b.read(100, A, i);
  b.run_to(150);
  CHECK(b.cache.input_backlog() == 2);
  CHECK(b.cache.out_backlog() == 2);
  CHECK(b.up.occupancy() == 1);
  CHECK(b.cache.up_out.busy());
  const auto& s = b.sm.sent();
  REQUIRE(s.size() == 1 + 7);
  for (unsigned i = 0; i < 6; ++i) {
    CHECK(s[1 + i].offered == 100 + i);
    CHECK(s[1 + i].accepted == 100 + i);
  }
  CHECK(s[7].offered == 106);
  CHECK(s[7].accepted == UINT64_MAX);  // withheld
  b.run_to(300);
  CHECK(s[7].accepted == 202);
  const auto& r = b.replies();
  REQUIRE(r.size() == 13);
  CHECK(r[0].cycle == 22);
  CHECK(r[1].cycle == 102);
  for (unsigned i = 1; i < 12; ++i) {
    CHECK(r[1 + i].ext.pc == i);
    CHECK(r[1 + i].cycle == 199 + i);
  }
  CHECK(stat(b.cache, "reply_stall_cycles") == 97);
  CHECK(stat(b.cache, "read_hits") == 12);
  CHECK(b.cache.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: the index hook spreads one partition's lines over all sets", "[cache][index]") {
  // 4 partitions interleaved every 256 B: partition 0 owns global lines 0x000, 0x080, 0x400,
  // 0x480. With 4 direct-mapped sets indexed by the global address they fall in sets 0, 1, 0, 1
  // and evict each other; indexed by AddressMap::local (0x000, 0x080, 0x100, 0x180) they use
  // all 4 sets and the second pass hits.
  Cache::Params p;
  p.sets = 4;
  p.ways = 1;
  Bench local("local", p), global("global", p);
  const AddressMap map(4);
  local.cache.set_index_address([map](uint64_t a) { return map.local(a); });
  const uint64_t lines[] = {0x000, 0x080, 0x400, 0x480};
  for (Bench* b : {&local, &global})
    for (unsigned pass = 0; pass < 2; ++pass)
      for (unsigned i = 0; i < 4; ++i) b->read(10 + 30 * (4 * pass + i), lines[i], 4 * pass + i);
  local.run_to(400);
  CHECK(stat(local.cache, "fetches") == 4);
  CHECK(stat(local.cache, "read_hits") == 4);
  CHECK(stat(global.cache, "fetches") == 8);
  CHECK(stat(global.cache, "read_hits") == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: accesses_per_cycle lookups per cycle drain a backlog", "[cache][timing]") {
  // 2 lookups per cycle; one MSHR holding one request, so a second read of B blocks the queue
  // until B's fill: B fetched at 31, fill latched at 42; the second B fails in 32..41.
  // At 42 the fill answers #2 and frees the MSHR, then two lookups: #3 (B, now a hit) and #4
  // (A). 43: #5 and #6. 44: #7. Replies leave one per cycle: #2 at 42 ... #7 at 47.
  Cache::Params p;
  p.accesses_per_cycle = 2;
  p.mshrs = 1;
  p.mshr_merge = 1;
  Bench b("b", p);
  const uint64_t A = 0x1000, B = 0x2000;
  b.read(10, A, 1);  // warm-up, reply at 22
  b.read(30, B, 2);
  b.read(31, B, 3);
  for (unsigned t = 4; t <= 7; ++t) b.read(28 + t, A, t);  // offered 32..35
  auto run_to_mid = [&](uint64_t c) {  // to the middle of cycle c: its edge has been handled
    sc_core::sc_start(b.clk.time_of(c) + b.clk.period() / 2 - sc_core::sc_time_stamp());
  };
  run_to_mid(41);
  CHECK(b.cache.input_backlog() == 5);  // #3..#7
  run_to_mid(42);
  CHECK(b.cache.input_backlog() == 3);  // #5..#7
  run_to_mid(43);
  CHECK(b.cache.input_backlog() == 1);
  b.run_to(100);
  const auto& r = b.replies();
  REQUIRE(r.size() == 7);
  for (unsigned i = 1; i < 7; ++i) {
    CHECK(r[i].ext.pc == i + 1);
    CHECK(r[i].cycle == 41 + i);
  }
  CHECK(stat(b.cache, "reservation_fails") == 10);
  CHECK(stat(b.cache, "read_hits") == 5);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: messages_per_cycle answers and sends that many replies of a fill per cycle", "[cache][timing]") {
  // Four reads of line B merge in one MSHR (offered 30..33, fetched at 31); the fill is latched at
  // 42. One message per cycle (the default) answers them at 42, 43, 44, 45; with 4 all leave at 42.
  std::vector<std::vector<uint64_t>> at;
  Cache::Params p1, p4;
  p4.messages_per_cycle = 4;
  Bench b1("b1", p1, 10, true, 8), b4("b4", p4, 10, true, 8);
  for (Bench* b : {&b1, &b4})
    for (unsigned t = 0; t < 4; ++t) b->read(30 + t, 0x2000, t + 1);
  b1.run_to(100);
  for (Bench* b : {&b1, &b4}) {
    std::vector<uint64_t> c;
    for (const auto& r : b->replies()) c.push_back(r.cycle);
    at.push_back(c);
  }
  CHECK(at[0] == std::vector<uint64_t>{42, 43, 44, 45});
  CHECK(at[1] == std::vector<uint64_t>{42, 42, 42, 42});
  CHECK(stat(b4.cache, "mshr_merges") == 3);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: a fill is matched by line address and kept read only and released once", "[cache][protocol]") {
  // The fill is another payload (as with a multicast reply of the coalescing unit): the cache
  // must answer its own request with it without modifying it and drop exactly its reference.
  ManualBench b("b");
  b.sm.at(10, [](Payload& gp, MemExt& e) {
    e.kind = MemKind::Read;
    e.src = kSmNode;
    e.pc = 7;
    gp.set_address(0x2000);
  });
  Payload* fill = nullptr;
  b.below.at(30, [&](Payload& gp, MemExt& e) {
    e.kind = MemKind::Read;
    e.is_reply = true;
    e.src = 77;
    e.dst = 78;
    gp.set_address(0x2000);
    gp.acquire();  // the test keeps a reference, as another receiver of a multicast would
    fill = &gp;
  });
  b.run_to(60);
  REQUIRE(b.down.arrivals().size() == 1);
  CHECK(b.down.arrivals()[0].cycle == 11);
  REQUIRE(b.up.arrivals().size() == 1);
  CHECK(b.up.arrivals()[0].cycle == 31);
  CHECK(b.up.arrivals()[0].ext.pc == 7);
  CHECK(b.up.arrivals()[0].ext.dst == kSmNode);
  REQUIRE(fill);
  CHECK(fill->get_extension<MemExt>()->src == 77);
  CHECK(fill->get_extension<MemExt>()->dst == 78);
  CHECK(b.pool.in_use() == 1);  // only the test's reference is left
  fill->release();
  CHECK(b.pool.in_use() == 0);
  CHECK(b.cache.present(0x2000));
}

TEST_CASE("Cache: a fill with no outstanding miss is an error naming the cache", "[cache][protocol]") {
  ManualBench b("b");
  b.below.at(5, [](Payload& gp, MemExt& e) {
    e.kind = MemKind::Read;
    e.is_reply = true;
    gp.set_address(0x4000);
  });
  REQUIRE_THROWS_WITH(b.run_to(20), Contains("b.cache") && Contains("0x4000") && Contains("no outstanding miss"));
}

TEST_CASE("Cache: a message of unexpected kind from above is an error naming the cache", "[cache][protocol]") {
  ManualBench b("b");
  b.sm.at(5, [](Payload&, MemExt& e) { e.kind = MemKind::Probe; });
  REQUIRE_THROWS_WITH(b.run_to(20), Contains("b.cache") && Contains("probe request"));
}

TEST_CASE("Cache: a request arriving on down_in is an error naming the cache", "[cache][protocol]") {
  ManualBench b("b");
  b.below.at(5, [](Payload&, MemExt& e) { e.kind = MemKind::Read; });
  REQUIRE_THROWS_WITH(b.run_to(20), Contains("b.cache") && Contains("read request"));
}

TEST_CASE("Cache: b_transport keeps tags and real bytes through an L1 and an L2", "[cache][functional]") {
  struct Stack : sc_core::sc_module {
    ClockDomain clk{"clk", 1000.0};
    PayloadPool pool{128};
    BackingStore store;
    Cache l1, l2;
    ScriptedInitiator sm{"sm", clk, pool};
    ScriptedTarget up{"up", clk};
    MemModel mem{"mem", clk, 10, false};
    Stack(sc_core::sc_module_name n, const Cache::Params& p1, const Cache::Params& p2)
        : sc_core::sc_module(n), l1("l1", p1, clk, kSmNode), l2("l2", p2, clk, kMcNode) {
      sm.out.bind(l1.up_in);
      l1.up_out.bind(up.in);
      l1.down_out.bind(l2.up_in);
      l2.up_out.bind(l1.down_in);
      l2.down_out.bind(mem.in);
      mem.out.bind(l2.down_in);
      l1.set_backing_store(&store);
      l2.set_backing_store(&store);
    }
  };
  Cache::Params p2 = l2_params();
  p2.sets = 4;  // lines 512 B apart share a set
  Stack s("s", Cache::Params{}, p2);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate: sockets bound
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  auto access = [&](MemKind k, uint64_t addr, uint32_t words, const std::vector<uint32_t>& data,
                    uint32_t sectors = 0) {
    Payload& gp = s.pool.acquire();
    MemExt& e = *gp.get_extension<MemExt>();
    e.kind = k;
    e.src = kSmNode;
    e.word_mask = words;
    e.sector_mask = sectors;
    gp.set_address(addr);
    gp.set_command(k == MemKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    std::memset(gp.get_data_ptr(), 0xee, 128);
    if (k == MemKind::Write) {
      std::memcpy(gp.get_data_ptr(), data.data(), 4 * data.size());
      gp.set_data_length(static_cast<unsigned>(4 * data.size()));
    }
    s.sm.out->b_transport(gp, t);
    CHECK(e.is_reply);
    std::vector<uint32_t> line(32);
    std::memcpy(line.data(), gp.get_data_ptr(), 128);
    gp.release();
    return line;
  };
  // Words 1 and 3 of line 0x2000: write-through L1 keeps nothing, write-back L2 allocates dirty.
  access(MemKind::Write, 0x2000, 0b1010, {0xaabbccdd, 0x11223344}, 0b1);
  CHECK_FALSE(s.l1.present(0x2000));
  CHECK(s.l2.is_dirty(0x2000));
  CHECK(s.mem.log().empty());
  // Read: L1 miss, L2 sector miss (only sector 0 written) -> one line read from memory.
  std::vector<uint32_t> want(32, 0);
  want[1] = 0xaabbccdd;
  want[3] = 0x11223344;
  CHECK(access(MemKind::Read, 0x2000, 0, {}) == want);
  CHECK(s.l1.present(0x2000));
  REQUIRE(s.mem.log().size() == 1);
  CHECK(s.mem.log()[0].kind == MemKind::Read);
  CHECK(access(MemKind::Read, 0x2000, 0, {}) == want);  // L1 hit: memory not asked
  CHECK(s.mem.log().size() == 1);
  // Two more lines of L2 set 0: the second evicts dirty 0x2000, written back functionally.
  access(MemKind::Read, 0x2200, 0, {});
  access(MemKind::Read, 0x2400, 0, {});
  REQUIRE(s.mem.log().size() == 4);
  CHECK(s.mem.log()[3].kind == MemKind::Write);
  CHECK(s.mem.log()[3].addr == 0x2000);
  CHECK(s.mem.log()[3].length == 128);
  CHECK_FALSE(s.l2.present(0x2000));
  CHECK(t == sc_core::SC_ZERO_TIME);  // untimed
  CHECK(stat(s.l1, "reads") == 4);
  CHECK(stat(s.l1, "read_hits") == 1);
  CHECK(stat(s.l2, "sector_misses") == 1);
  CHECK(stat(s.l2, "writebacks") == 1);
  CHECK(s.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache: bad configurations are errors naming the parameter", "[cache][config]") {
  ClockDomain clk("clk", 1000.0);
  auto bad = [&](const char* name, auto change) {
    Cache::Params p;
    change(p);
    Cache c(name, p, clk, 0);
  };
  REQUIRE_THROWS_WITH(bad("c1", [](Cache::Params& p) { p.sets = 24; }),
                      Contains("c1") && Contains("sets = 24") && Contains("power of two"));
  REQUIRE_THROWS_WITH(bad("c2", [](Cache::Params& p) { p.ways = 0; }), Contains("c2.ways") && Contains("out of range"));
  REQUIRE_THROWS_WITH(bad("c3", [](Cache::Params& p) { p.line_bytes = 16; p.sectored = true; }),
                      Contains("c3") && Contains("multiple of 32"));
  REQUIRE_THROWS_WITH(bad("c4", [](Cache::Params& p) { p.mshr_merge = 0; }), Contains("c4.mshr_merge"));
  REQUIRE_THROWS_WITH(bad("c5", [](Cache::Params& p) { p.line_bytes = 96; }),
                      Contains("c5") && Contains("line_bytes = 96"));
  REQUIRE_THROWS_WITH(bad("c6", [](Cache::Params& p) { p.write_policy = "write-around"; }),
                      Contains("c6.write_policy"));
  REQUIRE_THROWS_WITH(bad("c8", [](Cache::Params& p) { p.hit_latency = 2; p.lookup_latency = 3; }),
                      Contains("c8") && Contains("lookup_latency = 3") && Contains("hit_latency = 2"));
  // Line 16 B without sectors is fine: one valid bit per line.
  Cache::Params ok;
  ok.line_bytes = 16;
  REQUIRE_NOTHROW(Cache("c7", ok, clk, 0));
}

TEST_CASE("BackingStore: sparse pages with zeros elsewhere and accesses across a page boundary", "[cache][store]") {
  BackingStore s;
  unsigned char buf[16];
  s.read(0x1234, 16, buf);
  for (unsigned char c : buf) CHECK(c == 0);
  CHECK(s.pages() == 0);
  unsigned char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  s.write(4096 - 4, 8, data);  // straddles pages 0 and 1
  CHECK(s.pages() == 2);
  unsigned char back[12];
  s.read(4096 - 6, 12, back);
  const unsigned char want[12] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0};
  CHECK(std::memcmp(back, want, 12) == 0);
  s.write(uint64_t{1} << 40, 1, data);
  CHECK(s.pages() == 3);
}
