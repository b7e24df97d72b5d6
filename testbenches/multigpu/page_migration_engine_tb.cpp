// PageMigrationEngine: one migration followed cycle by cycle (fault, drain waiting for the
// owner's and every GPU's remote requests, shoot-down, flush waiting for the owner's
// write-backs, transfer, remap and pin), what may leave in each phase, later accesses to the
// page (another GPU's request waits, the pinned page is then accessed remotely), faults served
// one at a time in order, each page moved once, and bad setups. Hooks are scripted here: the
// owner map is a std::map, flush and move are recorded.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "multigpu/page_migration_engine.h"

using namespace gpusc;
using multigpu::PageMigrationEngine;
using Phase = PageMigrationEngine::Phase;

namespace {
constexpr uint64_t kPage = 4096;

struct Rig {
  ClockDomain clk{"clk", 1000.0};
  std::map<uint64_t, unsigned> owner;  // page number -> GPU (default 0)
  std::vector<std::pair<uint64_t, uint64_t>> flushes;  // (cycle, page address)
  std::vector<std::pair<uint64_t, unsigned>> moves;    // (page address, to)
  std::vector<unsigned> flushed_gpu;                   // the GPU of each flush
  uint64_t flushed_from = 0;  // the owner's write-backs are done from this cycle
  unsigned wakes = 0;
  std::vector<PageMigrationEngine::Event> events;
  PageMigrationEngine e;
  explicit Rig(const PageMigrationEngine::Params& p = {}, unsigned gpus = 2)
      : e("engine", p, gpus, kPage, clk, hooks()) {
    e.subscribe([this] { ++wakes; });
    e.observe([this](const PageMigrationEngine::Event& ev) { events.push_back(ev); });
  }
  PageMigrationEngine::Hooks hooks() {
    PageMigrationEngine::Hooks h;
    h.owner = [this](uint64_t a) { return owner.count(a / kPage) ? owner[a / kPage] : 0u; };
    h.move = [this](uint64_t a, unsigned to) {
      moves.emplace_back(a, to);
      owner[a / kPage] = to;
    };
    h.flush = [this](unsigned g, uint64_t a, bool page_only) {
      CHECK_FALSE(page_only);
      flushes.emplace_back(clk.now(), a);
      flushed_gpu.push_back(g);
    };
    h.flushed = [this](unsigned) { return clk.now() >= flushed_from; };
    return h;
  }
  // Runs every edge before cycle c: what the test then calls happens in cycle c, before its edge.
  void run_to(uint64_t c) { sc_core::sc_start(clk.time_of(c) - sc_core::sc_time_stamp()); }
};
}  // namespace

TEST_CASE("PageMigrationEngine: one migration, phase by phase, with exact cycles", "[page_migration][timing]") {
  Rig r;
  r.flushed_from = 1500;
  const uint64_t P = 7 * kPage + 0x40, Q = 3 * kPage, S = 9 * kPage;  // P, Q on GPU 0; S on GPU 1
  r.owner[9] = 1;
  r.run_to(10);
  r.e.sent(0, false);  // the owner has a local request in flight
  r.e.sent(1, true);   // GPU 1 has a remote request in flight
  CHECK_FALSE(r.e.check(1, P));  // remote, not pinned: a fault, and the request waits
  CHECK(r.e.faults() == 1);
  CHECK(r.e.pending(P));
  CHECK_FALSE(r.e.check(0, P));  // the page is pending: the owner's own access waits too
  CHECK(r.e.faults() == 1);      // one fault per page
  // Fault phase from 11 to 671: everything else still leaves.
  r.run_to(100);
  CHECK(r.e.phase() == Phase::Fault);
  CHECK(r.e.check(0, Q));
  CHECK(r.e.check(1, S));
  // Drain from 671: no remote request leaves any GPU, nothing leaves the owner, GPU 1's local
  // requests go on. It waits for the owner's request (reply in 800) and GPU 1's remote one (900).
  r.run_to(700);
  CHECK(r.e.phase() == Phase::Drain);
  CHECK(r.e.check(1, S));
  CHECK_FALSE(r.e.check(0, Q));
  r.run_to(800);
  r.e.replied(0, false);
  r.run_to(850);
  CHECK(r.e.phase() == Phase::Drain);
  r.run_to(900);
  r.e.replied(1, true);
  // Drained in 900; shoot-down until 900 + 560 = 1460, when the owner's caches are flushed;
  // the flush is done in 1500; transfer until 1500 + 3260 = 4760: the page moves to GPU 1, pinned.
  r.run_to(1460);
  CHECK(r.e.phase() == Phase::Shootdown);
  CHECK(r.flushes.empty());
  r.run_to(1461);
  REQUIRE(r.flushes.size() == 1);
  CHECK(r.flushes[0] == std::pair<uint64_t, uint64_t>{1460, 7 * kPage});
  CHECK(r.flushed_gpu[0] == 0);  // the owner
  CHECK(r.e.phase() == Phase::Flush);
  r.run_to(1501);
  CHECK(r.e.phase() == Phase::Transfer);
  CHECK_FALSE(r.e.check(0, Q));  // still drained
  r.run_to(4760);
  CHECK(r.moves.empty());
  CHECK(r.wakes == 0);
  r.run_to(4761);
  REQUIRE(r.moves.size() == 1);
  CHECK(r.moves[0] == std::pair<uint64_t, unsigned>{7 * kPage, 1});
  CHECK(r.e.migrations() == 1);
  CHECK(r.e.pinned(P));
  CHECK_FALSE(r.e.pending(P));
  CHECK(r.wakes == 1);
  CHECK(r.e.phase() == Phase::Idle);
  // Now local to GPU 1, and remote but pinned for GPU 0: both leave, no new fault.
  CHECK(r.e.check(1, P));
  CHECK(r.e.check(0, P));
  CHECK(r.e.check(0, Q));
  CHECK(r.e.faults() == 1);
  REQUIRE(r.events.size() == 3);
  CHECK(r.events[0].kind == PageMigrationEngine::Event::Fault);
  CHECK(r.events[0].cycle == 10);
  CHECK(r.events[1].kind == PageMigrationEngine::Event::Start);
  CHECK(r.events[1].cycle == 11);
  CHECK(r.events[2].kind == PageMigrationEngine::Event::Moved);
  CHECK(r.events[2].cycle == 4760);
  CHECK(r.events[2].from == 0);
  CHECK(r.events[2].to == 1);
  // A second migration (Q, for GPU 1) while GPU 0 has a request in flight: in its drain the
  // pinned remote page P may not leave GPU 0 either.
  r.e.sent(0, true);
  CHECK_FALSE(r.e.check(1, Q));
  r.run_to(4761 + 1 + 660 + 5);
  CHECK(r.e.phase() == Phase::Drain);
  CHECK_FALSE(r.e.check(0, P));
  CHECK(r.e.check(1, P));  // GPU 1's own page, and GPU 1 is not the owner being shot down
  const json st = collect_stats()["stats"];
  CHECK(st["engine.fault_cycles"] == 660);
  CHECK(st["engine.fault_cycles.samples"] == 2);
  CHECK(st["engine.drain_cycles.samples"] == 1);
  CHECK(st["engine.drain_cycles"] == 900 - 671);
  CHECK(st["engine.shootdown_cycles"] == 560);
  CHECK(st["engine.flush_cycles"] == 1500 - 1460);
  CHECK(st["engine.transfer_cycles"] == 3260);
}

TEST_CASE("PageMigrationEngine: faults are served one at a time in order, each page moves once", "[page_migration]") {
  PageMigrationEngine::Params p;
  p.fault_cycles = 5;
  p.shootdown_cycles = 5;
  p.transfer_cycles = 10;
  Rig r(p, 4);
  r.owner[2] = 3;
  r.run_to(10);
  CHECK_FALSE(r.e.check(1, 1 * kPage));  // page 1 (GPU 0) for GPU 1
  CHECK_FALSE(r.e.check(2, 2 * kPage));  // page 2 (GPU 3) for GPU 2
  CHECK_FALSE(r.e.check(3, 1 * kPage));  // page 1 again, from GPU 3: waits, no second fault
  CHECK(r.e.faults() == 2);
  // Each migration: 5 + 0 (nothing in flight) + 5 + 1 (flush polled the cycle after) + 10.
  r.run_to(200);
  REQUIRE(r.moves.size() == 2);
  CHECK(r.moves[0] == std::pair<uint64_t, unsigned>{1 * kPage, 1});
  CHECK(r.moves[1] == std::pair<uint64_t, unsigned>{2 * kPage, 2});
  REQUIRE(r.events.size() == 6);
  CHECK(r.events[3].kind == PageMigrationEngine::Event::Moved);  // the first moved before the second started
  CHECK(r.events[4].kind == PageMigrationEngine::Event::Start);
  CHECK(r.events[3].cycle == 11 + 5 + 5 + 1 + 10);
  CHECK(r.events[4].cycle == r.events[3].cycle + 1);
  CHECK(r.flushes.size() == 2);
  // GPU 3's access to page 1 now goes remote (pinned on GPU 1); page 2 never moves again.
  CHECK(r.e.check(3, 1 * kPage));
  CHECK(r.e.check(0, 2 * kPage));
  CHECK(r.e.migrations() == 2);
  CHECK(r.e.idle());
}

TEST_CASE("PageMigrationEngine: bad setups are clear errors", "[page_migration][bad]") {
  Rig r;
  PageMigrationEngine::Hooks none;
  REQUIRE_THROWS_WITH(PageMigrationEngine("e", {}, 2, kPage, r.clk, none), Catch::Contains("every hook"));
  PageMigrationEngine::Params p;
  p.flush_scope = "lines";
  REQUIRE_THROWS_WITH(PageMigrationEngine("e2", p, 2, kPage, r.clk, r.hooks()), Catch::Contains("flush_scope"));
  REQUIRE_THROWS_WITH(r.e.replied(0, false), Catch::Contains("nothing of its kind in flight"));
  REQUIRE_THROWS_WITH(r.e.check(5, 0), Catch::Contains("a request from GPU 5, but there are 2"));
}
