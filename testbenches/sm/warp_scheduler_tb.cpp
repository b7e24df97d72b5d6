// WarpScheduler tests: exact pick sequences of GTO and LRR on scripted ready sets, launch-order
// age with reused slots, and bad configuration.
#include <catch2/catch.hpp>

#include <systemc>

#include "sm/warp_scheduler.h"

using namespace gpusc;

namespace {
std::vector<int> picks(WarpScheduler& s, const std::vector<uint64_t>& ready) {
  std::vector<int> r;
  for (uint64_t m : ready) r.push_back(s.pick(m));
  return r;
}
WarpScheduler launched(WarpScheduler::Policy p, unsigned n) {
  WarpScheduler s(p, n);
  for (unsigned w = 0; w < n; ++w) s.launched(w);
  return s;
}
}  // namespace

TEST_CASE("WarpScheduler: GTO keeps the last warp while ready, else the oldest ready", "[warp_scheduler]") {
  WarpScheduler s = launched(WarpScheduler::Policy::Gto, 4);
  // 1111: oldest is 0; 1111: 0 again (greedy); 1110: 0 not ready -> oldest ready 1;
  // 1111: 1 stays greedy though 0 is older; 1101: 1 not ready -> 0; 0000: none;
  // 1100: 0 not ready -> oldest of {2, 3} = 2; 1000: 3; 1100: 3 stays greedy.
  CHECK(picks(s, {0xF, 0xF, 0xE, 0xF, 0xD, 0x0, 0xC, 0x8, 0xC}) == std::vector<int>{0, 0, 1, 1, 0, -1, 2, 3, 3});
}

TEST_CASE("WarpScheduler: GTO age is launch order, a relaunched slot is the youngest", "[warp_scheduler]") {
  WarpScheduler s = launched(WarpScheduler::Policy::Gto, 4);
  CHECK(s.pick(0x1) == 0);
  s.finished(0);  // warp 0 leaves; a new warp takes slot 0 and is younger than 1, 2, 3
  s.launched(0);
  CHECK(s.last() == -1);
  CHECK(s.pick(0x9) == 3);  // 3 (launched 4th) is older than the new 0 (launched 5th)
  CHECK(s.pick(0x1) == 0);
  CHECK(s.pick(0x3) == 0);  // greedy
  CHECK(s.pick(0x6) == 1);  // oldest of {1, 2}
  // Launch order, not slot order: slots launched 3, 1, 2, 0 in a fresh scheduler.
  WarpScheduler t(WarpScheduler::Policy::Gto, 4);
  for (unsigned w : {3u, 1u, 2u, 0u}) t.launched(w);
  CHECK(picks(t, {0xF, 0x7, 0x5, 0x1}) == std::vector<int>{3, 1, 2, 0});
}

TEST_CASE("WarpScheduler: LRR starts after the last issued warp", "[warp_scheduler]") {
  WarpScheduler s = launched(WarpScheduler::Policy::Lrr, 4);
  // All ready: 0, 1, 2, 3, 0. Then 0101 after 0 -> 2; 0101 after 2 -> (3 not ready) 0;
  // 1000 -> 3; none -> -1 (position kept at 3); 1111 after 3 -> 0.
  CHECK(picks(s, {0xF, 0xF, 0xF, 0xF, 0xF, 0x5, 0x5, 0x8, 0x0, 0xF}) ==
        std::vector<int>{0, 1, 2, 3, 0, 2, 0, 3, -1, 0});
  s.finished(0);  // LRR keeps its position across a finish
  CHECK(s.pick(0x3) == 1);
  CHECK(s.pick(0x3) == 0);
}

TEST_CASE("WarpScheduler: 64 warps use the whole ready mask", "[warp_scheduler]") {
  WarpScheduler g = launched(WarpScheduler::Policy::Gto, 64);
  CHECK(g.pick(uint64_t{1} << 63) == 63);
  CHECK(g.pick((uint64_t{1} << 63) | (uint64_t{1} << 40)) == 63);
  CHECK(g.pick(uint64_t{1} << 40) == 40);
  WarpScheduler l = launched(WarpScheduler::Policy::Lrr, 64);
  CHECK(l.pick(uint64_t{1} << 63) == 63);
  CHECK(l.pick(~uint64_t{0}) == 0);  // wraps around after 63
}

TEST_CASE("WarpScheduler: bad warp count or policy name is an error", "[warp_scheduler][config]") {
  CHECK_THROWS_WITH(WarpScheduler(WarpScheduler::Policy::Gto, 0), Catch::Contains("handles 1..64 warps, got 0"));
  CHECK_THROWS_WITH(WarpScheduler(WarpScheduler::Policy::Lrr, 65), Catch::Contains("handles 1..64 warps, got 65"));
  CHECK_THROWS_WITH(WarpScheduler::policy_from("fifo", "sm"), Catch::Contains("unknown warp scheduling policy 'fifo'"));
  CHECK(WarpScheduler::policy_from("lrr", "sm") == WarpScheduler::Policy::Lrr);
  CHECK(WarpScheduler::policy_from("gto", "sm") == WarpScheduler::Policy::Gto);
}
