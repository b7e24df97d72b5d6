// SharingPredictor tests (no SystemC elaboration): the (W,S,T) table from the paper's formulas
// worked out by hand, every transition of the four states under scripted reply counts (R = T
// moves toward sharing, R = T - 1 toward Strong Non-shared), which misses of a window probe,
// late reports, LRU replacement, precision/recall against scripted oracle bits, bad parameters.
#include <catch2/catch.hpp>

#include "common/params.h"
#include "harness/params_checks.h"
#include "probe/sharing_predictor.h"

using namespace gpusc;
using gpusc::probe::SharingPredictor;
using P = SharingPredictor::Params;

namespace {

// Runs one whole window of `pc` in its current state: `w` misses, `replies` of the probed ones
// report remote data (reported right after their decision). Returns how many misses probed and
// checks that exactly the first `s` of the window did.
unsigned run_window(SharingPredictor& sp, uint64_t pc, unsigned w, unsigned s, unsigned replies) {
  unsigned probed = 0, reported = 0;
  for (unsigned k = 0; k < w; ++k) {
    const bool probe = sp.decide(pc);
    CHECK(probe == (k < s));
    if (probe) {
      ++probed;
      const bool found = reported < replies;
      reported += found;
      if (k + 1 < w) sp.report(pc, found);  // the last miss closes the window at its decision
    }
  }
  return probed;
}

}  // namespace

TEST_CASE("predictor: (W,S,T) table is W=32*2^i, S=W/4^i, T=ceil(S/8): (32,32,4) (64,16,2) (128,8,1) (256,4,1)") {
  SharingPredictor sp;
  const unsigned expect[4][3] = {{32, 32, 4}, {64, 16, 2}, {128, 8, 1}, {256, 4, 1}};
  for (unsigned i = 0; i < 4; ++i) {
    INFO("state " << i);
    CHECK(sp.window(i).w == expect[i][0]);
    CHECK(sp.window(i).s == expect[i][1]);
    CHECK(sp.window(i).t == expect[i][2]);
  }
  // window_base 16, threshold_div 4: W = 16,32,64,128; S = 16,8,4,2; T = 4,2,1,1.
  SharingPredictor small(P{64, 16, 4});
  const unsigned e2[4][3] = {{16, 16, 4}, {32, 8, 2}, {64, 4, 1}, {128, 2, 1}};
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(small.window(i).w == e2[i][0]);
    CHECK(small.window(i).s == e2[i][1]);
    CHECK(small.window(i).t == e2[i][2]);
  }
}

TEST_CASE("predictor: a new PC starts Strong Shared and probes the first 32 misses of its window") {
  SharingPredictor sp;
  CHECK(sp.state(0x100) == SharingPredictor::StrongShared);
  for (unsigned k = 0; k < 31; ++k) CHECK(sp.decide(0x100));
  CHECK(sp.misses_in_window(0x100) == 31);
  CHECK(sp.state(0x100) == SharingPredictor::StrongShared);
}

TEST_CASE("predictor: every state moves toward sharing at R = T and toward Strong Non-shared at R = T - 1") {
  using S = SharingPredictor::State;
  const uint64_t pc = 0x288;
  SharingPredictor sp;
  // Strong Shared, W=32 S=32 T=4: 3 replies -> Weak Shared.
  CHECK(run_window(sp, pc, 32, 32, 3) == 32);
  CHECK(sp.state(pc) == S::WeakShared);
  // Weak Shared, W=64 S=16 T=2: 1 reply -> Weak Non-shared.
  CHECK(run_window(sp, pc, 64, 16, 1) == 16);
  CHECK(sp.state(pc) == S::WeakNonShared);
  // Weak Non-shared, W=128 S=8 T=1: 0 replies -> Strong Non-shared.
  CHECK(run_window(sp, pc, 128, 8, 0) == 8);
  CHECK(sp.state(pc) == S::StrongNonShared);
  // Strong Non-shared, W=256 S=4 T=1: 0 replies -> stays.
  CHECK(run_window(sp, pc, 256, 4, 0) == 4);
  CHECK(sp.state(pc) == S::StrongNonShared);
  // Strong Non-shared: 1 reply -> Weak Non-shared.
  CHECK(run_window(sp, pc, 256, 4, 1) == 4);
  CHECK(sp.state(pc) == S::WeakNonShared);
  // Weak Non-shared: 1 reply (of 8 probed) -> Weak Shared.
  CHECK(run_window(sp, pc, 128, 8, 1) == 8);
  CHECK(sp.state(pc) == S::WeakShared);
  // Weak Shared: 2 replies -> Strong Shared.
  CHECK(run_window(sp, pc, 64, 16, 2) == 16);
  CHECK(sp.state(pc) == S::StrongShared);
  // Strong Shared: 4 replies -> stays.
  CHECK(run_window(sp, pc, 32, 32, 4) == 32);
  CHECK(sp.state(pc) == S::StrongShared);
  CHECK(sp.transitions() == 6);
  // Misses: 32+64+128+256+256+128+64+32, probed: 32+16+8+4+4+8+16+32.
  CHECK(sp.decisions() == 960);
  CHECK(sp.probed() == 120);
}

TEST_CASE("predictor: the window closes at its last miss, a report after that counts in the next window") {
  const uint64_t pc = 0x80;
  SharingPredictor sp;
  for (unsigned k = 0; k < 32; ++k) sp.decide(pc);  // no report before the close: R = 0 < 4
  CHECK(sp.state(pc) == SharingPredictor::WeakShared);
  for (unsigned k = 0; k < 2; ++k) sp.report(pc, true);  // late reports of the closed window
  CHECK(sp.replies_in_window(pc) == 2);
  CHECK(run_window(sp, pc, 64, 16, 0) == 16);  // no new reply: R = 2 = T -> Strong Shared
  CHECK(sp.state(pc) == SharingPredictor::StrongShared);
  sp.report(pc, false);  // a probe that found nothing counts nothing
  CHECK(sp.replies_in_window(pc) == 0);
}

TEST_CASE("predictor: 64 entries, LRU replacement, an evicted PC starts over in Strong Shared") {
  SharingPredictor sp;
  // PC 0 reaches Weak Shared (a window without replies).
  for (unsigned k = 0; k < 32; ++k) sp.decide(0);
  CHECK(sp.state(0) == SharingPredictor::WeakShared);
  for (uint64_t pc = 1; pc < 64; ++pc) sp.decide(pc);  // table full, PC 0 least recently used
  CHECK(sp.tracked(0));
  sp.decide(0);                                         // PC 0 used again: PC 1 is now the LRU
  sp.decide(1000);
  CHECK(sp.evictions() == 1);
  CHECK_FALSE(sp.tracked(1));
  CHECK(sp.tracked(0));
  CHECK(sp.state(0) == SharingPredictor::WeakShared);
  for (uint64_t pc = 2; pc < 64; ++pc) sp.decide(pc);   // PC 0 is the LRU again
  sp.decide(2000);
  CHECK_FALSE(sp.tracked(0));
  sp.report(0, true);
  CHECK(sp.stale_reports() == 1);
  CHECK(sp.decide(0));  // back, Strong Shared, first miss of a window: probes
  CHECK(sp.state(0) == SharingPredictor::StrongShared);
}

TEST_CASE("predictor: precision and recall against the caller's oracle bit") {
  SharingPredictor sp;
  const uint64_t pc = 7;
  // Window 1 (Strong Shared, all 32 probed): 24 truly shared, 8 not; 2 replies -> Weak Shared.
  for (unsigned k = 0; k < 32; ++k) {
    sp.decide(pc, k < 24);
    if (k < 2) sp.report(pc, true);
  }
  CHECK(sp.state(pc) == SharingPredictor::WeakShared);
  // Window 2 (Weak Shared, W=64, first 16 probed): misses 0..15 probed, oracle shared for even
  // ones; misses 16..63 not probed, oracle shared for 16..35 (20 of them).
  for (unsigned k = 0; k < 64; ++k) sp.decide(pc, k < 16 ? k % 2 == 0 : k < 36);
  // tp = 24 + 8, fp = 8 + 8, fn = 20, tn = 28; decide(pc) without oracle counts nothing.
  sp.decide(pc);
  CHECK(sp.true_pos() == 32);
  CHECK(sp.false_pos() == 16);
  CHECK(sp.false_neg() == 20);
  CHECK(sp.true_neg() == 28);
  CHECK(sp.precision() == Approx(32.0 / 48.0));
  CHECK(sp.recall() == Approx(32.0 / 52.0));
}

TEST_CASE("predictor: bad parameters are clear errors, and each key overrides alone") {
  CHECK_THROWS_WITH(SharingPredictor(P{64, 20, 8}), Catch::Contains("window_base' = 20 must be a multiple of 8"));
  CHECK_THROWS_WITH(SharingPredictor(P{0, 32, 8}), Catch::Contains("entries"));
  CHECK_THROWS_WITH(params_from_json<P>(json{{"window", 32}}, "predictor"), Catch::Contains("unknown parameter 'predictor.window'"));
  CHECK_THROWS_WITH(SharingPredictor().window(4), Catch::Contains("state 4 out of range"));
  const auto report = tb::check_one_key_overrides<P>();
  CHECK(report.keys.size() == 3);
}
