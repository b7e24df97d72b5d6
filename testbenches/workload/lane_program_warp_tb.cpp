// LaneProgramWarp (workload/lane_program_warp.h): per-thread programs executed in SIMT lock step.
// Hand-built programs check loop reconvergence (a lane that leaves a loop early waits, the next
// loop starts with all lanes), if-merging by position, per-lane store values, and the error when
// two lanes put different instructions at one position.
#include <catch2/catch.hpp>

#include "workload/lane_program_warp.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Matchers::Contains;

namespace {
// Lane l: loop 0 runs l + 1 iterations (a load of 4 (l + 32 i) and, on odd iterations, a store of
// l at position 2); then loop 1 once (a compute).
std::unique_ptr<LaneProgram> prog(unsigned l) {
  return std::make_unique<StepProgram>([l](unsigned s, uint32_t& loop, OpList& o) {
    if (s <= l) {
      loop = 0;
      o.load(0x10, 4, 0x1000 + 4 * (l + 32 * s));
      o.compute(0x20);
      if (s % 2) o.store(0x30, 0x2000 + 4 * l, l);
      return true;
    }
    if (s == l + 1) {
      loop = 1;
      o.compute(0x40);
      return true;
    }
    return false;
  });
}
}  // namespace

TEST_CASE("lane program warp: loops reconverge, ifs issue with the lanes taking them, stores carry values",
          "[workload][lane-program]") {
  // Lanes 0..3 exist.
  LaneProgramWarp w([](unsigned l) { return l < 4 ? prog(l) : nullptr; }, true);
  const Stream s = drain(w);
  // Loop 0: 4 iterations (lane 3's count). Iteration i: load (lanes i..3), compute (same), store
  // for odd i (lanes i..3); then loop 1: one compute with all 4 lanes.
  REQUIRE(s.size() == 4 * 2 + 2 + 1);
  unsigned at = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const uint32_t mask = 0xfu & ~((1u << i) - 1);
    REQUIRE(s[at].op == WarpInstr::Op::Load);
    CHECK(s[at].active_mask == mask);
    for (unsigned l = i; l < 4; ++l) CHECK(s[at].addr[l] == 0x1000 + 4 * (l + 32 * i));
    CHECK(s[at + 1].op == WarpInstr::Op::Compute);
    CHECK(s[at + 1].active_mask == mask);
    at += 2;
    if (i % 2) {
      REQUIRE(s[at].op == WarpInstr::Op::Store);
      CHECK(s[at].active_mask == mask);
      for (unsigned l = i; l < 4; ++l) CHECK(s[at].data[l] == l);
      ++at;
    }
  }
  CHECK(s[at].pc == 0x40);
  CHECK(s[at].active_mask == 0xfu);
  // Without values the stores carry nothing.
  LaneProgramWarp nv([](unsigned l) { return l < 4 ? prog(l) : nullptr; }, false);
  for (const WarpInstr& in : drain(nv))
    if (in.op == WarpInstr::Op::Store) CHECK(in.data[3] == 0u);
}

TEST_CASE("lane program warp: skipped positions keep later instructions together; a mismatch is an error",
          "[workload][lane-program]") {
  auto branchy = [](bool take) {
    return std::make_unique<StepProgram>([take](unsigned s, uint32_t& loop, OpList& o) {
      if (s) return false;
      loop = 0;
      if (take) o.compute(0x100);
      else o.skip(1);
      o.load(0x110, 8, 0x3000);
      return true;
    });
  };
  LaneProgramWarp w([&](unsigned l) { return branchy(l % 2 == 0); }, false);
  const Stream s = drain(w);
  REQUIRE(s.size() == 2);
  CHECK(s[0].active_mask == 0x55555555u);
  CHECK(s[1].active_mask == kAllLanes);
  CHECK(s[1].access_bytes == 8);
  auto bad = [](unsigned l) {
    return std::make_unique<StepProgram>([l](unsigned s, uint32_t& loop, OpList& o) {
      if (s) return false;
      loop = 0;
      o.compute(l ? 0x200 : 0x210);
      return true;
    });
  };
  LaneProgramWarp b([&](unsigned l) { return bad(l); }, false);
  WarpInstr in;
  REQUIRE_THROWS_WITH(b.next(in), Contains("lanes disagree"));
}
