// FIR: per thread and tap the coefficient broadcast and the input sample t - i, or the history
// slot taps - (i - t) for the first threads, worked out by hand; every output written once.
#include <catch2/catch.hpp>

#include "workload/fir.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

TEST_CASE("fir: loads of input t - i or history taps - (i - t), by hand, and one store per sample") {
  FirWorkload::Params p;
  p.length = 40;
  p.taps = 4;
  p.threads_per_cta = 32;  // 2 CTAs, the second with 8 threads
  FirWorkload w(p);
  auto k = w.next_kernel();
  REQUIRE(k->num_ctas() == 2);
  const auto warps = drain_kernel(*k);
  check_invariants(w.address_space(), *k, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  for (uint64_t t = 0; t < 40; ++t) CHECK(c.store("output", t) == 1);
  // input[j] is read by threads j .. j + 3 (those with t - i = j, i < 4, t < 40).
  for (uint64_t j = 0; j < 40; ++j) CHECK(c.load("input", j) == std::min<uint64_t>(4, 40 - j));
  // history: thread t < i reads slot 4 - (i - t): (t, i) = (0,1) -> 3, (0,2) -> 2, (0,3) -> 1,
  // (1,2) -> 3, (1,3) -> 2, (2,3) -> 3. So slot 1 once, slot 2 twice, slot 3 three times.
  CHECK(c.load("history", 0) == 0);
  CHECK(c.load("history", 1) == 1);
  CHECK(c.load("history", 2) == 2);
  CHECK(c.load("history", 3) == 3);
  // coeff[i] once per warp and tap (a broadcast): 2 warps x 4 taps, every lane the same word.
  const AddressSpace& s = w.address_space();
  unsigned coeff_loads = 0;
  for (const auto& st : warps)
    for (const auto& i : on_array(s, st, "coeff", WarpInstr::Op::Load)) {
      ++coeff_loads;
      for (unsigned l = 1; l < 32; ++l)
        if (i.lane_active(l)) CHECK(i.addr[l] == i.addr[0]);
    }
  CHECK(coeff_loads == 8);
  // Warp 0, tap 2: lanes 0, 1 take the history branch, lanes 2.. read input[t - 2].
  const auto in0 = on_array(s, warps[0], "input", WarpInstr::Op::Load);
  REQUIRE(in0.size() == 4);
  CHECK(in0[2].active_mask == (0xffffffffu & ~0x3u));
  CHECK(element(s, "input", in0[2], 2) == 0);
  CHECK(element(s, "input", in0[2], 31) == 29);
  const auto h0 = on_array(s, warps[0], "history", WarpInstr::Op::Load);
  REQUIRE(h0.size() == 3);  // taps 1, 2, 3 (tap 0 has no history lane)
  CHECK(h0[1].active_mask == 0x3u);
  CHECK(element(s, "history", h0[1], 0) == 2);
  CHECK(element(s, "history", h0[1], 1) == 3);
}
