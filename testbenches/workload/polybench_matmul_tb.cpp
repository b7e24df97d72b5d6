// PolyBench/GPU GEMM, 2MM, 3MM (naive, one thread per output element): addresses of a tiny case
// by hand, per-element read counts (the cross-CTA reuse that is the kernels' inter-core
// locality), instruction counts, launch sequence and the accumulate_in_memory variant.
// Units under test include workload/naive_matmul.h (NaiveMatmul, the kernel GEMM, 2MM and 3MM are made of).
#include <catch2/catch.hpp>

#include "workload/polybench_2mm.h"
#include "workload/polybench_3mm.h"
#include "workload/polybench_gemm.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Op = WarpInstr::Op;

TEST_CASE("polybench-gemm: addresses and instruction sequence of a 3 x 5 x 2 case by hand") {
  PolybenchGemmWorkload::Params p;
  p.ni = 3, p.nj = 5, p.nk = 2, p.block_x = 4, p.block_y = 2;  // 8-thread CTAs, 2 x 2 grid
  PolybenchGemmWorkload w(p);
  auto ks = all_kernels(w);
  REQUIRE(ks.size() == 1);
  const Kernel& k = *ks[0];
  REQUIRE(k.num_ctas() == 4);
  REQUIRE(k.threads_per_cta() == 8);
  const uint64_t A = w.address_space().base("A"), B = w.address_space().base("B"), C = w.address_space().base("C");
  // CTA 1 = (bx 1, by 0): j = 4 + tx, i = ty; only tx = 0 is inside (j < 5): lanes 0 (i 0) and 4 (i 1).
  const Stream s = drain(*k.warp(1, 0));
  REQUIRE(s.size() == 3 + 2 + 2 * 5 + 1);
  const uint32_t m = 0x11;
  auto expect = [&](size_t n, Op op, uint64_t lane0, uint64_t lane4) {
    INFO("instruction " << n);
    REQUIRE(s[n].op == op);
    REQUIRE(s[n].active_mask == m);
    REQUIRE(s[n].access_bytes == 4);
    REQUIRE(s[n].addr[0] == lane0);
    REQUIRE(s[n].addr[4] == lane4);
  };
  for (size_t n : {0, 1, 2}) REQUIRE(s[n].active_mask == 0xff);  // j, i, bounds check: every thread
  expect(3, Op::Load, C + 4 * 4, C + 4 * (5 + 4));                // C[0][4], C[1][4] (C *= beta)
  REQUIRE(s[4].op == Op::Compute);
  expect(5, Op::Load, A + 0, A + 4 * 2);                          // k = 0: A[0][0], A[1][0]
  expect(6, Op::Load, B + 4 * 4, B + 4 * 4);                      //        B[0][4] for both
  for (size_t n : {7, 8, 9}) REQUIRE(s[n].op == Op::Compute);     // FMUL alpha, FFMA, loop
  expect(10, Op::Load, A + 4, A + 4 * 3);                         // k = 1: A[0][1], A[1][1]
  expect(11, Op::Load, B + 4 * (5 + 4), B + 4 * (5 + 4));         //        B[1][4]
  expect(15, Op::Store, C + 4 * 4, C + 4 * (5 + 4));
  REQUIRE(s[10].pc == s[5].pc);  // the loop body repeats its static instructions
  // CTA 3 = (bx 1, by 1): i = 2 + ty, only (i 2, j 4) exists: lane 0.
  const Stream t = drain(*k.warp(3, 0));
  REQUIRE(t[3].active_mask == 1);
  REQUIRE(t[3].addr[0] == C + 4 * (2 * 5 + 4));
}

TEST_CASE("polybench-gemm: every A element read nj times, every B element ni times, C read and written once") {
  PolybenchGemmWorkload::Params p;
  p.ni = 20, p.nj = 70, p.nk = 9;  // partial CTAs in both dimensions with the 32 x 8 default
  PolybenchGemmWorkload w(p);
  auto ks = all_kernels(w);
  const auto warps = drain_kernel(*ks[0]);
  check_invariants(w.address_space(), *ks[0], warps);
  REQUIRE(ks[0]->num_ctas() == 3 * 3);
  REQUIRE(ks[0]->threads_per_cta() == 256);
  const AccessCount c = count_accesses(w.address_space(), warps);
  for (uint64_t e = 0; e < 20 * 9; ++e) REQUIRE(c.load("A", e) == 70);
  for (uint64_t e = 0; e < 9 * 70; ++e) REQUIRE(c.load("B", e) == 20);
  for (uint64_t e = 0; e < 20 * 70; ++e) {
    REQUIRE(c.load("C", e) == 1);
    REQUIRE(c.store("C", e) == 1);
  }
  // A loads are broadcasts (one address per warp), B loads one coalesced row segment.
  for (const auto& s : warps) {
    for (const auto& i : on_array(w.address_space(), s, "A", Op::Load))
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (i.lane_active(l)) REQUIRE(i.addr[l] == i.addr[__builtin_ctz(i.active_mask)]);
    for (const auto& i : on_array(w.address_space(), s, "B", Op::Load))
      for (unsigned l = 1; l < kWarpSize; ++l)
        if (i.lane_active(l)) REQUIRE(i.addr[l] - i.addr[l - 1] == 4);
  }
  // Instruction count of a full warp: 3 + beta (LD, FMUL) + nk * (LD, LD, FMUL, FFMA, loop) + ST.
  REQUIRE(warps[0].size() == 3 + 2 + 9 * 5 + 1);
}

TEST_CASE("polybench-gemm: accumulate_in_memory stores C at init and every k step") {
  PolybenchGemmWorkload::Params p;
  p.ni = 8, p.nj = 32, p.nk = 6, p.accumulate_in_memory = true;
  PolybenchGemmWorkload w(p);
  auto ks = all_kernels(w);
  const AccessCount c = count_accesses(w.address_space(), *ks[0]);
  for (uint64_t e = 0; e < 8 * 32; ++e) {
    REQUIRE(c.load("C", e) == 1);
    REQUIRE(c.store("C", e) == 7);
  }
  REQUIRE(drain(*ks[0]->warp(0, 0)).size() == 3 + 3 + 6 * 6);
}

TEST_CASE("2mm: tmp = alpha A B, then D = beta D + tmp C, tmp read by the second launch") {
  Polybench2mmWorkload::Params p;
  p.ni = 10, p.nj = 12, p.nk = 7, p.nl = 40;
  Polybench2mmWorkload w(p);
  auto ks = all_kernels(w);
  REQUIRE(ks.size() == 2);
  REQUIRE(ks[0]->name() == "2mm.kernel1");
  REQUIRE(ks[1]->name() == "2mm.kernel2");
  REQUIRE(ks[0]->num_ctas() == 1 * 2);  // 12 columns, 10 rows in 32 x 8 CTAs
  REQUIRE(ks[1]->num_ctas() == 2 * 2);  // 40 columns
  const AccessCount c1 = count_accesses(w.address_space(), *ks[0]);
  REQUIRE(c1.loaded() == std::set<std::string>{"A", "B"});
  REQUIRE(c1.stored() == std::set<std::string>{"tmp"});
  for (uint64_t e = 0; e < 10 * 7; ++e) REQUIRE(c1.load("A", e) == 12);
  for (uint64_t e = 0; e < 10 * 12; ++e) REQUIRE(c1.store("tmp", e) == 1);
  const AccessCount c2 = count_accesses(w.address_space(), *ks[1]);
  REQUIRE(c2.loaded() == std::set<std::string>{"tmp", "C", "D"});
  REQUIRE(c2.stored() == std::set<std::string>{"D"});
  for (uint64_t e = 0; e < 10 * 12; ++e) REQUIRE(c2.load("tmp", e) == 40);
  for (uint64_t e = 0; e < 12 * 40; ++e) REQUIRE(c2.load("C", e) == 10);
  for (uint64_t e = 0; e < 10 * 40; ++e) REQUIRE(c2.load("D", e) == 1);
  // kernel 1 has alpha (5 per k step) and no beta load; kernel 2 the reverse (4 per step).
  REQUIRE(drain(*ks[0]->warp(0, 0)).size() == 3 + 1 + 7 * 5 + 1);
  REQUIRE(drain(*ks[1]->warp(0, 0)).size() == 3 + 2 + 12 * 4 + 1);
  REQUIRE(w.address_space().bytes() == 4 * (10 * 7 + 7 * 12 + 10 * 12 + 12 * 40 + 10 * 40));
}

TEST_CASE("3mm: E = A B, F = C D, G = E F in three launches") {
  Polybench3mmWorkload::Params p;
  p.ni = 9, p.nj = 11, p.nk = 5, p.nl = 33, p.nm = 4;
  Polybench3mmWorkload w(p);
  auto ks = all_kernels(w);
  REQUIRE(ks.size() == 3);
  const std::vector<std::set<std::string>> in = {{"A", "B"}, {"C", "D"}, {"E", "F"}};
  const std::vector<std::string> out = {"E", "F", "G"};
  const unsigned inner[] = {5, 4, 11}, rows[] = {9, 11, 9}, cols[] = {11, 33, 33};
  for (unsigned n = 0; n < 3; ++n) {
    INFO("launch " << n);
    REQUIRE(ks[n]->name() == "3mm.kernel" + std::to_string(n + 1));
    const auto warps = drain_kernel(*ks[n]);
    check_invariants(w.address_space(), *ks[n], warps);
    const AccessCount c = count_accesses(w.address_space(), warps);
    REQUIRE(c.loaded() == in[n]);
    REQUIRE(c.stored() == std::set<std::string>{out[n]});
    const std::string left = *in[n].begin(), right = *in[n].rbegin();
    for (uint64_t e = 0; e < uint64_t(rows[n]) * inner[n]; ++e) REQUIRE(c.load(left, e) == cols[n]);
    for (uint64_t e = 0; e < uint64_t(inner[n]) * cols[n]; ++e) REQUIRE(c.load(right, e) == rows[n]);
    for (uint64_t e = 0; e < uint64_t(rows[n]) * cols[n]; ++e) REQUIRE(c.store(out[n], e) == 1);
    REQUIRE(warps[0].size() == 3 + 1 + inner[n] * 4 + 1);  // zero init, no alpha
  }
}

TEST_CASE("polybench matmul: default footprints") {
  REQUIRE(PolybenchGemmWorkload(PolybenchGemmWorkload::Params{}).address_space().bytes() == 3ull * 640 * 640 * 4);
  REQUIRE(Polybench2mmWorkload(Polybench2mmWorkload::Params{}).address_space().bytes() == 5ull << 20);
  REQUIRE(Polybench3mmWorkload(Polybench3mmWorkload::Params{}).address_space().bytes() == 7ull << 20);
}
