// Cache hook points (DESIGN.md §6): per-request bypass, allocation policy, peer lookup, eviction
// and miss observers. Exact cycles follow the conventions of cache_tb.cpp: a request offered by
// the SM driver in cycle c is looked up in c + 1; a message sent down in cycle m is answered by
// the memory model in m + M (M = 10 unless set) and latched and answered by the cache in m + M + 1.
// A peer lookup requested in the middle of cycle c (after its edge) may be served from c + 1.
// (Observers against a random stream: cache_random_tb.cpp.)
#include <catch2/catch.hpp>

#include "cache_fixture.h"

using namespace gpusc;
using namespace gpusc::tb;

namespace {

uint64_t pc_of(const Payload& gp) { return gp.get_extension<MemExt>()->pc; }

// Runs to the middle of cycle c: its edge has been handled.
void run_to_mid(Bench& b, uint64_t c) {
  sc_core::sc_start(b.clk.time_of(c) + b.clk.period() / 2 - sc_core::sc_time_stamp());
}

// Default L1: 32 sets x 4 ways of 128 B, so lines 4096 B apart share set 0.
uint64_t set0(unsigned k) { return 0x10000 + uint64_t{k} * 4096; }

}  // namespace

TEST_CASE("Cache hooks: a bypassed read goes down as it is and leaves tags and LRU unchanged",
          "[cache][hooks][bypass]") {
  Bench b("b", Cache::Params{});
  b.cache.set_bypass([](const Payload& gp) { return pc_of(gp) == 5 || pc_of(gp) == 6; });
  for (unsigned k = 0; k < 4; ++k) b.read(10 + 20 * k, set0(k), 1 + k);  // fill set 0: L0 < L1 < L2 < L3
  b.read(90, set0(4), 5);   // bypassed: down at 91 (no lookup), reply at 91 + 10 + 1 = 102
  b.read(110, set0(0), 6);  // bypassed although present: down at 111, reply 122; L0 not touched
  b.run_to(130);
  for (unsigned k = 0; k < 4; ++k) CHECK(b.cache.present(set0(k)));
  CHECK_FALSE(b.cache.present(set0(4)));
  CHECK(stat(b.cache, "evictions") == 0);
  b.read(130, set0(5), 7);  // miss, fetch 131, fill 142 evicts L0: the bypassed read did not refresh it
  b.read(150, set0(4), 8);  // the line the bypassed read carried misses: fetch 151, evicts L1
  b.run_to(200);
  const auto& m = b.mem.log();
  REQUIRE(m.size() == 8);
  const uint64_t want_addr[] = {set0(0), set0(1), set0(2), set0(3), set0(4), set0(0), set0(5), set0(4)};
  const uint64_t want_cycle[] = {11, 31, 51, 71, 91, 111, 131, 151};
  for (unsigned i = 0; i < 8; ++i) {
    INFO("down message " << i);
    CHECK(m[i].addr == want_addr[i]);
    CHECK(m[i].cycle == want_cycle[i]);
    CHECK(m[i].kind == MemKind::Read);
    CHECK(m[i].length == 128);
    CHECK(m[i].ext.dst == kMcNode);  // routed like every message sent down
    const bool bypassed = i == 4 || i == 5;
    CHECK(m[i].ext.src == (bypassed ? kSmNode : kCacheNode));  // the request itself, not a fetch
    CHECK(m[i].ext.pc == i + 1);
  }
  const auto& r = b.replies();
  REQUIRE(r.size() == 8);
  for (unsigned i = 0; i < 8; ++i) {
    INFO("reply " << i);
    CHECK(r[i].ext.pc == i + 1);
    CHECK(r[i].cycle == want_cycle[i] + 11);
    CHECK(r[i].ext.is_reply);
    CHECK(r[i].ext.dst == kSmNode);
    CHECK(r[i].length == 128);
  }
  CHECK_FALSE(b.cache.present(set0(0)));
  CHECK_FALSE(b.cache.present(set0(1)));
  for (unsigned k = 2; k < 6; ++k) CHECK(b.cache.present(set0(k)));
  CHECK(stat(b.cache, "bypassed") == 2);
  CHECK(stat(b.cache, "reads") == 6);  // bypassed requests are not looked up
  CHECK(stat(b.cache, "read_misses") == 6);
  CHECK(stat(b.cache, "read_hits") == 0);
  CHECK(stat(b.cache, "fetches") == 6);
  CHECK(stat(b.cache, "evictions") == 2);
  CHECK(b.cache.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache hooks: a bypassed write at a write-back cache does not allocate", "[cache][hooks][bypass]") {
  Cache::Params p = l2_params();
  p.hit_latency = 3;
  p.lookup_latency = 2;
  Bench b("b", p, 10, /*ack_writes=*/true);
  b.cache.set_bypass([](const Payload& gp) { return pc_of(gp) == 1; });
  // bypassed: down at 11, without the lookup_latency of 2 (nothing is looked up; a disabled RDMA
  // cache paid it on every remote request), ack forwarded at 11 + 11 = 22
  b.write(10, 0x400, 1);
  b.write(30, 0x400, 2);  // looked up: write-allocate, ack at 31 + 3 = 34
  b.run_to(27);
  CHECK_FALSE(b.cache.present(0x400));
  b.run_to(100);
  REQUIRE(b.mem.log().size() == 1);
  CHECK(b.mem.log()[0].cycle == 11);
  CHECK(b.mem.log()[0].kind == MemKind::Write);
  CHECK(b.mem.log()[0].ext.src == kSmNode);
  CHECK(b.mem.log()[0].length == 8);
  const auto& r = b.replies();
  REQUIRE(r.size() == 2);
  CHECK(r[0].cycle == 22);
  CHECK(r[1].cycle == 34);
  CHECK(b.cache.is_dirty(0x400));
  CHECK(stat(b.cache, "writes") == 1);
  CHECK(stat(b.cache, "bypassed") == 1);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache hooks: bypass on the b_transport path", "[cache][hooks][bypass][functional]") {
  Bench b("b", Cache::Params{});
  bool bypass = true;
  b.cache.set_bypass([&](const Payload&) { return bypass; });
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  auto read = [&](uint64_t addr) {
    Payload& gp = b.pool.acquire();
    MemExt& e = *gp.get_extension<MemExt>();
    e.kind = MemKind::Read;
    e.src = kSmNode;
    gp.set_address(addr);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_length(128);
    b.sm.out->b_transport(gp, t);
    CHECK(e.is_reply);
    gp.release();
  };
  read(0x3000);
  CHECK_FALSE(b.cache.present(0x3000));
  bypass = false;
  read(0x3000);
  CHECK(b.cache.present(0x3000));
  REQUIRE(b.mem.log().size() == 2);
  CHECK(b.mem.log()[0].ext.src == kSmNode);
  CHECK(b.mem.log()[1].ext.src == kCacheNode);
  CHECK(stat(b.cache, "bypassed") == 1);
  CHECK(stat(b.cache, "read_misses") == 1);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("Cache hooks: a no-allocate policy answers misses without installing", "[cache][hooks][allocate]") {
  Bench b("b", Cache::Params{});
  const uint64_t A = 0x1000, B = 0x2000;
  unsigned asked = 0;
  b.cache.set_allocate([&](const Payload& gp) {
    ++asked;
    return gp.get_address() != A;
  });
  b.read(10, A, 1);  // miss, fetch 11, reply 22, not installed
  b.read(30, A, 2);  // misses again: fetch 31, reply 42
  b.read(50, B, 3);  // allocates: fetch 51, reply 62
  b.read(70, B, 4);  // hit: 71 + 1 = 72
  b.read(90, A, 5);  // miss, fetch 91; fill latched 102 answers #5 at 102, #6 at 103
  b.read(91, A, 6);  // merges into #5's MSHR (the policy is asked once per MSHR)
  b.run_to(200);
  CHECK_FALSE(b.cache.present(A));
  CHECK(b.cache.present(B));
  std::vector<uint64_t> fetch_cycles;
  for (const auto& m : b.mem.log()) fetch_cycles.push_back(m.cycle);
  CHECK(fetch_cycles == std::vector<uint64_t>{11, 31, 51, 91});
  std::vector<uint64_t> reply_cycles;
  for (const auto& r : b.replies()) reply_cycles.push_back(r.cycle);
  CHECK(reply_cycles == std::vector<uint64_t>{22, 42, 62, 72, 102, 103});
  CHECK(asked == 4);
  CHECK(stat(b.cache, "read_misses") == 4);
  CHECK(stat(b.cache, "mshr_merges") == 1);
  CHECK(stat(b.cache, "read_hits") == 1);
  CHECK(stat(b.cache, "evictions") == 0);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache hooks: a peer lookup of the LRU line does not save it from eviction", "[cache][hooks][peer]") {
  Bench b("b", Cache::Params{});
  for (unsigned k = 0; k < 4; ++k) b.read(10 + 20 * k, set0(k), 1 + k);  // L0 < L1 < L2 < L3
  b.read(130, set0(4), 5);  // miss, fetch 131, fill latched 142 evicts the LRU line
  std::vector<std::pair<uint64_t, Cache::PeerResult>> got;
  auto record = [&](const Cache::PeerResult& r) { got.emplace_back(b.clk.now(), r); };
  run_to_mid(b, 100);
  b.cache.peer_lookup(set0(0) + 0x40, 0, record);  // L0, the LRU line: served at 101 (no local traffic)
  b.cache.peer_lookup(set0(4), 0, record);         // absent: served at 102 (one slot per cycle)
  run_to_mid(b, 131);
  b.cache.peer_lookup(set0(4), 0, record);  // its fill is outstanding: not present (served 132)
  b.run_to(200);
  REQUIRE(got.size() == 3);
  CHECK(got[0].first == 101);  // lookup_latency 0: delivered in the serving cycle
  CHECK(got[0].second.line == set0(0));
  CHECK(got[0].second.present);
  CHECK(got[0].second.hit);
  CHECK(got[0].second.valid == 0xf);
  CHECK_FALSE(got[0].second.dirty);
  CHECK(got[1].first == 102);
  CHECK_FALSE(got[1].second.present);
  CHECK_FALSE(got[1].second.hit);
  CHECK(got[2].first == 132);
  CHECK_FALSE(got[2].second.present);
  // Had the peer lookup refreshed L0, the fill would have evicted L1.
  CHECK_FALSE(b.cache.present(set0(0)));
  for (unsigned k = 1; k < 5; ++k) CHECK(b.cache.present(set0(k)));
  CHECK(b.replies().size() == 5);
  CHECK(b.replies()[4].cycle == 142);
  CHECK(stat(b.cache, "peer_lookups") == 3);
  CHECK(stat(b.cache, "peer_hits") == 1);
  CHECK(stat(b.cache, "reads") == 5);  // the local counters do not see peers
  CHECK(stat(b.cache, "read_hits") == 0);
  CHECK(b.cache.idle());
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache hooks: a peer lookup never delays a local access and waits for a free slot",
          "[cache][hooks][peer][timing]") {
  // hit_latency 3, lookup_latency 2. Warm-up miss of A: down 11 + 2 = 13, reply 13 + 11 = 24.
  // Five hits offered 40..44 are looked up 41..45 and answered 44..48, with or without peers.
  // One lookup per cycle: two peers requested mid-40 find the slots of 41..45 taken, are served
  // at 46 and 47 and delivered lookup_latency later, at 48 and 49. Two lookups per cycle: the
  // local stream uses one slot a cycle, so the peers are served at 41 and 42 (delivered 43, 44).
  // All modules exist before the simulation starts.
  Cache::Params p1, p2;
  for (Cache::Params* p : {&p1, &p2}) {
    p->hit_latency = 3;
    p->lookup_latency = 2;
  }
  p2.accesses_per_cycle = 2;
  Bench alone1("alone1", p1), with1("with1", p1), alone2("alone2", p2), with2("with2", p2);
  const uint64_t A = 0x1000;
  for (Bench* b : {&alone1, &with1, &alone2, &with2}) {
    b->read(10, A, 0);
    for (unsigned i = 0; i < 5; ++i) b->read(40 + i, A, 1 + i);
  }
  std::vector<uint64_t> delivered1, delivered2;
  run_to_mid(with1, 40);
  for (unsigned i = 0; i < 2; ++i) {
    with1.cache.peer_lookup(A, 0, [&](const Cache::PeerResult& r) {
      CHECK(r.hit);
      delivered1.push_back(with1.clk.now());
    });
    with2.cache.peer_lookup(A, 0, [&](const Cache::PeerResult& r) {
      CHECK(r.hit);
      delivered2.push_back(with2.clk.now());
    });
  }
  with1.run_to(100);
  CHECK(delivered1 == std::vector<uint64_t>{48, 49});
  CHECK(delivered2 == std::vector<uint64_t>{43, 44});
  for (Bench* b : {&alone1, &with1, &alone2, &with2}) {
    INFO(b->name());
    std::vector<uint64_t> cycles;
    for (const auto& r : b->replies()) cycles.push_back(r.cycle);
    CHECK(cycles == std::vector<uint64_t>{24, 44, 45, 46, 47, 48});
    CHECK(stat(b->cache, "read_hits") == 5);
    CHECK(b->cache.idle());
  }
  CHECK(stat(with1.cache, "peer_lookups") == 2);
  CHECK(stat(with2.cache, "peer_lookups") == 2);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache hooks: a head stalled on reservation fails keeps peers off its slot unless told not to",
          "[cache][hooks][peer][timing]") {
  // One MSHR. A misses at 11 (down 11, reply latched and answered at 22); B, offered at 12, is
  // looked up from 13 and fails reservation in 13..21 (9 fails); in 22 the fill is handled before
  // the lookups, so B misses then (down 22, answered 33). A peer lookup of A requested mid-14 may
  // be served from 15: with the default, the failing head holds the only slot through 21 and B's
  // lookup takes 22, so the peer is served at 23 (the line present since 22); with
  // reservation_fail_takes_slot = false it is served at 15, while A's fill is outstanding, so the
  // line is not present yet.
  Cache::Params held, freed;
  for (Cache::Params* p : {&held, &freed}) p->mshrs = 1;
  freed.reservation_fail_takes_slot = false;
  Bench h("held", held), f("freed", freed);
  const uint64_t A = 0x1000, B = 0x2000;
  for (Bench* b : {&h, &f}) {
    b->read(10, A, 1);
    b->read(12, B, 2);
  }
  std::vector<std::pair<uint64_t, bool>> got_h, got_f;  // (cycle, present)
  run_to_mid(h, 14);
  h.cache.peer_lookup(A, 0, [&](const Cache::PeerResult& r) { got_h.push_back({h.clk.now(), r.present}); });
  f.cache.peer_lookup(A, 0, [&](const Cache::PeerResult& r) { got_f.push_back({f.clk.now(), r.present}); });
  h.run_to(60);
  CHECK(got_h == std::vector<std::pair<uint64_t, bool>>{{23, true}});
  CHECK(got_f == std::vector<std::pair<uint64_t, bool>>{{15, false}});
  for (Bench* b : {&h, &f}) {  // the local stream is the same either way
    INFO(b->name());
    std::vector<uint64_t> cycles;
    for (const auto& r : b->replies()) cycles.push_back(r.cycle);
    CHECK(cycles == std::vector<uint64_t>{22, 33});
    CHECK(stat(b->cache, "reservation_fails") == 9);
  }
}

TEST_CASE("Cache hooks: the miss observer is called once per fetch, eviction observers once per eviction",
          "[cache][hooks][observer]") {
  Cache::Params p = l2_params();  // 2 sets x 2 ways, sectored write-back: lines 256 B apart share set 0
  Bench b("b", p, 10, false);
  std::vector<std::pair<uint64_t, uint64_t>> misses;  // (cycle, pc)
  std::vector<std::pair<uint64_t, bool>> ev1, ev2;
  b.cache.on_miss([&](const Payload& gp, uint64_t line) {
    CHECK(line == (gp.get_address() & ~uint64_t{127}));
    misses.emplace_back(b.clk.now(), pc_of(gp));
  });
  b.cache.on_evict([&](uint64_t line, bool dirty) { ev1.emplace_back(line, dirty); });
  b.cache.on_evict([&](uint64_t line, bool dirty) { ev2.emplace_back(line, dirty); });
  b.read(10, 0x000, 1, 0b0001);          // miss at 11
  b.read(11, 0x000, 2, 0b0010);          // merged: no call
  b.write(30, 0x100, 3, 0b0001);         // write-allocate without fetch: no miss
  b.read(40, 0x100, 4, 0b0010);          // sector miss at 41 (a fetch)
  b.req(60, MemKind::Atomic, 0x200, 5);  // atomic miss at 61; its fill (72) evicts LRU 0x000, clean
  b.read(80, 0x200, 6);                  // hit: no call
  b.write(90, 0x300, 7);                 // allocates: evicts 0x100 (dirty: written, then filled)
  b.run_to(200);
  CHECK(misses == std::vector<std::pair<uint64_t, uint64_t>>{{11, 1}, {41, 4}, {61, 5}});
  CHECK(ev1 == std::vector<std::pair<uint64_t, bool>>{{0x000, false}, {0x100, true}});
  CHECK(ev2 == ev1);
  CHECK(stat(b.cache, "fetches") == 3);
  CHECK(stat(b.cache, "evictions") == 2);
  b.cache.flush();  // invalidation at a kernel boundary is not an eviction
  CHECK(ev1.size() == 2);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache hooks: a read policy is asked once per read taken and may answer a hit with another message",
          "[cache][hooks][read_policy]") {
  Bench b("b", Cache::Params{});
  const uint64_t A = 0x1000;
  std::vector<std::pair<uint64_t, bool>> asked;  // (tag, hit)
  b.cache.set_read_policy([&](Payload&, MemExt& e, bool hit) {
    asked.emplace_back(e.pc, hit);
    if (hit && e.pc == 3) {  // a forward, as LA-LLC sends one: header only, to node 7
      e.kind = MemKind::Probe;
      e.is_reply = true;
      e.dst = 7;
      return true;
    }
    return e.pc == 1;  // true for a miss: ignored
  });
  b.read(10, A, 1);   // miss: looked up 11, fetch 11, fill latched 22 answers it at 22
  b.read(12, A, 2);   // merges into its MSHR: answered at 23
  b.write(20, A, 5);  // not asked
  b.read(30, A, 3);   // hit at 31, redirected: the forward leaves at 31 + 1 = 32, in place of the data
  b.read(40, A, 4);   // hit at 41, not redirected: data at 42
  b.run_to(100);
  CHECK(asked == std::vector<std::pair<uint64_t, bool>>{{1, false}, {2, false}, {3, true}, {4, true}});
  std::vector<std::pair<uint64_t, uint64_t>> reads;  // (tag, cycle)
  for (const auto& r : b.replies()) {
    if (r.ext.kind == MemKind::Write) continue;
    reads.emplace_back(r.ext.pc, r.cycle);
    CHECK(r.ext.is_reply);
    CHECK(r.ext.dst == (r.ext.pc == 3 ? 7u : kSmNode));
    CHECK(r.ext.kind == (r.ext.pc == 3 ? MemKind::Probe : MemKind::Read));
  }
  CHECK(reads == std::vector<std::pair<uint64_t, uint64_t>>{{1, 22}, {2, 23}, {3, 32}, {4, 42}});
  CHECK(b.mem.of_kind(MemKind::Read).size() == 1);  // one fetch: the policy's true for the miss changed nothing
  CHECK(stat(b.cache, "read_hits") == 2);
  CHECK(stat(b.cache, "redirected_hits") == 1);
  CHECK(stat(b.cache, "read_misses") == 1);
  CHECK(stat(b.cache, "mshr_merges") == 1);
  CHECK(invariant_failures().empty());
}

TEST_CASE("Cache hooks: a read policy needs whole-line fetch", "[cache][hooks][read_policy]") {
  Cache::Params p;
  p.sectored = true;
  p.fetch_granularity = "sector";
  Bench b("b", p);
  REQUIRE_THROWS_WITH(b.cache.set_read_policy([](Payload&, MemExt&, bool) { return false; }),
                      Catch::Contains("set_read_policy needs fetch_granularity = line"));
}
