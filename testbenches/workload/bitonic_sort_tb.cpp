// BitonicSort: launches in the SDK's (stage, pass) order, the pair each thread compares worked
// out by hand, every launch loading and storing every element exactly once, and lengths that
// are not a power of two refused.
#include <catch2/catch.hpp>

#include "workload/bitonic_sort.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

TEST_CASE("bitonic-sort: one launch per (stage, pass) in SDK order") {
  BitonicSortWorkload::Params p;
  p.length = 16;  // 4 stages: 1 + 2 + 3 + 4 = 10 launches
  BitonicSortWorkload w(p);
  const auto ks = all_kernels(w);
  REQUIRE(ks.size() == 10);
  CHECK(ks[0]->name() == "bitonic-sort.s0p0");
  CHECK(ks[1]->name() == "bitonic-sort.s1p0");
  CHECK(ks[2]->name() == "bitonic-sort.s1p1");
  CHECK(ks[5]->name() == "bitonic-sort.s2p2");
  CHECK(ks[9]->name() == "bitonic-sort.s3p3");
  for (const auto& k : ks) {
    CHECK(k->num_ctas() == 1);  // 8 threads
    const auto warps = drain_kernel(*k);
    check_invariants(w.address_space(), *k, warps);
    const AccessCount c = count_accesses(w.address_space(), warps);
    for (uint64_t i = 0; i < 16; ++i) {
      INFO(k->name() << " element " << i);
      CHECK(c.load("array", i) == 1);
      CHECK(c.store("array", i) == 1);
    }
  }
}

TEST_CASE("bitonic-sort: thread t compares left = t mod d + (t / d) 2d with left + d, by hand") {
  BitonicSortWorkload::Params p;
  p.length = 16;
  BitonicSortWorkload w(p);
  const auto ks = all_kernels(w);
  const AddressSpace& s = w.address_space();
  // Launch 4 is stage 2, pass 1: d = 2^(2 - 1) = 2. Threads 0..7:
  //   t:     0  1  2  3  4   5   6   7
  //   left:  0  1  4  5  8   9  12  13   (t % 2 + (t / 2) * 4)
  //   right: 2  3  6  7  10  11 14  15
  const auto st = drain(*ks[4]->warp(0, 0));
  const auto ld = on_array(s, st, "array", WarpInstr::Op::Load);
  const auto sto = on_array(s, st, "array", WarpInstr::Op::Store);
  REQUIRE(ld.size() == 2);
  REQUIRE(sto.size() == 2);
  const uint64_t left[8] = {0, 1, 4, 5, 8, 9, 12, 13};
  CHECK(ld[0].active_mask == 0xffu);
  for (unsigned t = 0; t < 8; ++t) {
    CHECK(element(s, "array", ld[0], t) == left[t]);
    CHECK(element(s, "array", ld[1], t) == left[t] + 2);
    CHECK(element(s, "array", sto[0], t) == left[t]);
    CHECK(element(s, "array", sto[1], t) == left[t] + 2);
  }
  // Stage 3, pass 0 (launch 6): d = 8, left = t, right = t + 8: two runs of 8 consecutive words.
  const auto st6 = on_array(s, drain(*ks[6]->warp(0, 0)), "array", WarpInstr::Op::Load);
  for (unsigned t = 0; t < 8; ++t) {
    CHECK(element(s, "array", st6[0], t) == t);
    CHECK(element(s, "array", st6[1], t) == t + 8);
  }
}

TEST_CASE("bitonic-sort: a large pair distance gives two coalesced runs per warp, and bad lengths are errors") {
  BitonicSortWorkload::Params p;
  p.length = 1024;  // 10 stages, 55 launches; stage 9, pass 0 has d = 512
  BitonicSortWorkload w(p);
  const auto ks = all_kernels(w);
  REQUIRE(ks.size() == 55);
  unsigned stage = 0, pass = 0;
  BitonicSortWorkload::stage_pass(45, stage, pass);  // 1 + 2 + ... + 9 = 45 launches before stage 9
  CHECK(stage == 9);
  CHECK(pass == 0);
  const auto ld = on_array(w.address_space(), drain(*ks[45]->warp(1, 2)), "array", WarpInstr::Op::Load);
  REQUIRE(ld.size() == 2);
  for (unsigned l = 1; l < 32; ++l) {
    CHECK(ld[0].addr[l] - ld[0].addr[l - 1] == 4);
    CHECK(ld[1].addr[l] - ld[0].addr[l] == 4 * 512);
  }
  // Thread 256 + 64 = 320 (CTA 1, warp 2, lane 0): left = 320, right = 832.
  CHECK(element(w.address_space(), "array", ld[0], 0) == 320);
  p.length = 1000;
  REQUIRE_THROWS_WITH(BitonicSortWorkload(p), Catch::Contains("must be a power of two"));
}
