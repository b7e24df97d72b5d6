// DecisionEngine tests: Fig. 11 on scripted statistics with each threshold's edge (a statistic
// equal to its threshold is not below it), and the engine fed scripted L1 accesses: the warm-up
// is ignored, the window closes at exactly 20K remote accesses (or at 1M accesses for a
// local-dominated run), block use per residency with evictions, the decision taken once, and a
// short run left undecided. Every expected ratio is a ratio of the scripted counts.
#include <catch2/catch.hpp>

#include <vector>

#include "multigpu/decision_engine.h"

using namespace gpusc;
using multigpu::DecisionEngine;
using Mode = DecisionEngine::Mode;
using P = DecisionEngine::Params;

namespace {
Mode cls(double ratio, double block, double hit) { return DecisionEngine::classify(ratio, block, hit, P{}); }

// Feeds the engine: `n` accesses, remote every `remote_every`-th (1: all), remote reads hitting
// when hit(k) says so, each remote read to its own line in L1 0 reading word 0.
struct Feeder {
  DecisionEngine& de;
  uint64_t line = 0;
  void remote_read(bool hit, uint64_t mask = 1, unsigned cache = 0, uint64_t at = UINT64_MAX) {
    de.observe({cache, at == UINT64_MAX ? 64 * line++ : at, mask, true, true, hit});
  }
  void remote_write() { de.observe({0, 64 * line++, 1, true, false, false}); }
  void local(uint64_t n) {
    for (uint64_t k = 0; k < n; ++k) de.observe({0, 0x8000'0000ull + 64 * k, 1, false, true, false});
  }
};
}  // namespace

TEST_CASE("Decision: Fig. 11 on statistics, with each threshold's edge", "[decision]") {
  CHECK(cls(0.0199, 0.9, 0.9) == Mode::LocalDominated);
  CHECK(cls(0.0, 0.0, 0.0) == Mode::LocalDominated);
  CHECK(cls(0.02, 0.0, 0.0) == Mode::Coalescing);  // 2% is not below 2%: remote-dominated
  CHECK(cls(0.5, 0.1999, 0.3999) == Mode::Coalescing);
  CHECK(cls(0.5, 0.2, 0.0) == Mode::Caching);       // block use at its threshold
  CHECK(cls(0.5, 0.0, 0.4) == Mode::Caching);       // hit rate at its threshold
  CHECK(cls(0.5, 0.1, 0.9) == Mode::Caching);       // good hit rate alone
  CHECK(cls(0.5, 0.9, 0.1) == Mode::Caching);       // good block use alone
  CHECK(cls(1.0, 1.0, 1.0) == Mode::Caching);
  P p;  // other thresholds move the edges
  p.block_thresh = 0.5;
  p.hit_thresh = 0.1;
  CHECK(DecisionEngine::classify(0.5, 0.45, 0.05, p) == Mode::Coalescing);
  CHECK(DecisionEngine::classify(0.5, 0.45, 0.1, p) == Mode::Caching);
}

TEST_CASE("Decision: a cache-insensitive run is declared coalescing at its 20000th remote access", "[decision]") {
  P p;
  p.warmup_accesses = 1000;
  DecisionEngine de("de", p);
  std::vector<Mode> told;
  de.on_decision([&](Mode m) { told.push_back(m); });
  Feeder f{de};
  for (unsigned k = 0; k < 1000; ++k) f.remote_read(true, 0xFFFF);  // warm-up: all hits, full lines, ignored
  CHECK(de.window().accesses == 0);
  CHECK(de.monitoring());
  // Window: 20000 remote reads, 7999 hits (39.995 %), one word of a new line each; 20000 locals
  // in between: ratio 0.5, block use 1/16.
  for (unsigned k = 0; k < 19999; ++k) {
    f.remote_read(k < 7999);
    f.local(1);
  }
  CHECK(de.mode() == Mode::Undecided);
  f.remote_read(false);  // the 20000th remote access closes the window
  REQUIRE(told == std::vector<Mode>{Mode::Coalescing});
  const auto& w = de.window();
  CHECK(w.accesses == 39999);
  CHECK(w.remote == 20000);
  CHECK(w.remote_read_hits == 7999);
  CHECK(w.residencies == 21000 - 1000);  // the warm-up's lines were never tracked
  CHECK(w.block_use(16) == Approx(1.0 / 16));
  CHECK_FALSE(de.monitoring());
}

TEST_CASE("Decision: a remote hit rate of exactly 0.4 is caching, one hit fewer is coalescing", "[decision]") {
  for (unsigned hits : {8000u, 7999u}) {
    INFO(hits << " hits of 20000");
    P p;
    p.warmup_accesses = 0;
    DecisionEngine de(hits == 8000 ? "de_a" : "de_b", p);
    Feeder f{de};
    for (unsigned k = 0; k < 20000; ++k) f.remote_read(k < hits);
    CHECK(de.window().hit_rate() == (hits == 8000 ? 0.4 : 7999.0 / 20000));
    CHECK(de.mode() == (hits == 8000 ? Mode::Caching : Mode::Coalescing));
  }
}

TEST_CASE("Decision: a block use of exactly 0.2 is caching, one word fewer is coalescing", "[decision]") {
  // Five remote lines in one L1, read over and over (no hits scripted). Words used: 4 + 4 + 4 + 2
  // + 2 = 16 of 5 x 16 = 80: 0.2. With the last line's second word never read: 15 / 80.
  for (bool all : {true, false}) {
    INFO((all ? "16 words" : "15 words"));
    P p;
    p.warmup_accesses = 0;
    DecisionEngine de(all ? "de_a" : "de_b", p);
    Feeder f{de};
    const uint64_t masks[5] = {0xF, 0xF0, 0xF00, 0x3, all ? 0x3ull : 0x1ull};
    for (unsigned k = 0; k < 20000; ++k) f.remote_read(false, masks[k % 5] & (k % 10 < 5 ? ~0ull : 0x5555), 0, 64 * (k % 5));
    CHECK(de.window().residencies == 5);
    CHECK(de.window().words_used == (all ? 16u : 15u));
    CHECK(de.mode() == (all ? Mode::Caching : Mode::Coalescing));
  }
}

TEST_CASE("Decision: block use is per residency: an eviction ends one, the next read starts another", "[decision]") {
  P p;
  p.warmup_accesses = 0;
  p.window_remote = 8;
  DecisionEngine de("de", p);
  Feeder f{de};
  f.remote_read(false, 0x1, 0, 0x40);  // residency 1 of line 0x40 in L1 0: word 0
  f.remote_read(true, 0x2, 0, 0x40);   // + word 1
  f.remote_read(false, 0x4, 1, 0x40);  // the same line in L1 1 is another residency: word 2
  de.observe_eviction(0, 0x40);        // residency 1 ends with 2 words
  de.observe_eviction(0, 0x999);       // a line never tracked: nothing
  CHECK(de.window().residencies == 1);
  CHECK(de.window().words_used == 2);
  f.remote_read(true, 0x1, 0, 0x40);   // residency 3: word 0
  de.observe({0, 0x40, 0, true, false, false});  // a remote write: counts as remote access, not a read
  f.remote_read(true, 0x3, 0, 0x40);   // + word 1
  f.remote_read(true, 0x3, 0, 0x40);
  f.remote_read(true, 0x3, 0, 0x40);   // the 8th remote access closes the window
  const auto& w = de.window();
  CHECK(w.remote == 8);
  CHECK(w.remote_reads == 7);
  CHECK(w.remote_read_hits == 5);
  CHECK(w.residencies == 3);  // open residencies count at the close
  CHECK(w.words_used == 2 + 1 + 2);
  CHECK(w.block_use(16) == Approx(5.0 / 48));
  CHECK(de.mode() == Mode::Caching);  // hit rate 5/7
}

TEST_CASE("Decision: a local-dominated run closes the window at 1M accesses", "[decision]") {
  // One remote access every 51 accesses: after 1,000,000 accesses (20000 / 0.02) only 19607 were
  // remote, ratio 0.019607: local-dominated. One every 50 reaches 20000 remote at access 1,000,000
  // exactly: ratio 0.02, not below it.
  for (unsigned every : {51u, 50u}) {
    INFO("one remote access every " << every);
    P p;
    p.warmup_accesses = 0;
    DecisionEngine de(every == 51 ? "de_a" : "de_b", p);
    Feeder f{de};
    uint64_t k = 0;
    for (; k < 999999; ++k) (k % every == every - 1) ? f.remote_read(false) : f.local(1);
    CHECK(de.mode() == Mode::Undecided);
    (k % every == every - 1) ? f.remote_read(false) : f.local(1);
    CHECK(de.window().accesses == 1000000);
    CHECK(de.window().remote == 1000000 / every);
    CHECK(de.mode() == (every == 51 ? Mode::LocalDominated : Mode::Coalescing));
  }
}

TEST_CASE("Decision: decided once, later accesses change nothing, a short run stays undecided", "[decision]") {
  P p;
  p.warmup_accesses = 10;
  p.window_remote = 100;
  DecisionEngine de("de", p), short_run("short", p);
  unsigned calls = 0;
  de.on_decision([&](Mode) { ++calls; });
  Feeder f{de}, g{short_run};
  for (unsigned k = 0; k < 110; ++k) f.remote_read(false);
  CHECK(de.mode() == Mode::Coalescing);
  const auto w = de.window();
  for (unsigned k = 0; k < 1000; ++k) f.remote_read(true, 0xFFFF);
  de.observe_eviction(0, 0);
  CHECK(calls == 1);
  CHECK(de.mode() == Mode::Coalescing);
  CHECK(de.window().remote == w.remote);
  CHECK(de.window().residencies == w.residencies);
  for (unsigned k = 0; k < 109; ++k) g.remote_read(false);
  CHECK(short_run.mode() == Mode::Undecided);
  CHECK(short_run.monitoring());
}

TEST_CASE("Decision: bad thresholds and masks are clear errors", "[decision][bad]") {
  P p;
  p.remote_thresh = 0;
  CHECK_THROWS_WITH(DecisionEngine("a", p), Catch::Contains("'a.remote_thresh' = 0 is out of range"));
  p = {};
  p.block_thresh = 1.5;
  CHECK_THROWS_WITH(DecisionEngine("b", p), Catch::Contains("'b.block_thresh' = 1.5 is out of range"));
  p = {};
  p.warmup_accesses = 0;
  DecisionEngine de("c", p);
  CHECK_THROWS_WITH(de.observe({0, 0, 0x10000, true, true, false}), Catch::Contains("bits past words_per_line = 16"));
}

TEST_CASE("Decision: a window whose remote accesses are all writes is local-dominated, one remote read makes it coalescing",
          "[decision]") {
  for (bool one_read : {false, true}) {
    P p;
    p.warmup_accesses = 0;
    DecisionEngine de(one_read ? "de_read" : "de_writes", p);
    Feeder f{de};
    // 20000 remote accesses and 20000 local ones: remote ratio 0.5, far above remote_thresh.
    for (unsigned k = 0; k < 20000; ++k) {
      f.local(1);
      if (one_read && k == 19999) f.remote_read(false);
      else f.remote_write();
    }
    CHECK(de.window().remote == 20000);
    CHECK(de.window().remote_reads == (one_read ? 1u : 0u));
    CHECK(de.mode() == (one_read ? Mode::Coalescing : Mode::LocalDominated));
  }
}
