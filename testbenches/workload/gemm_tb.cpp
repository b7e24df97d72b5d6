// GEMM (tiled): each CTA loads its A row-panel and B column-panel once, C stored once.
#include <catch2/catch.hpp>

#include "workload/gemm.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
void check_gemm(unsigned m, unsigned n, unsigned k, unsigned tile) {
  INFO(m << "x" << n << "x" << k << " tile " << tile);
  GemmWorkload::Params p;
  p.m = m, p.n = n, p.k = k, p.tile = tile;
  GemmWorkload w(p);
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == 1);
  const Kernel& kern = *kernels[0];
  const unsigned gx = (n + tile - 1) / tile, gy = (m + tile - 1) / tile;
  REQUIRE(kern.num_ctas() == gx * gy);
  REQUIRE(kern.threads_per_cta() == tile * tile);
  const auto warps = drain_kernel(kern);
  check_invariants(w.address_space(), kern, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.loaded() == std::set<std::string>{"A", "B"});
  REQUIRE(c.stored() == std::set<std::string>{"C"});
  // A[i][*] is needed by the gx CTAs of block row i / tile, B[*][j] by the gy CTAs of column j / tile.
  for (uint64_t i = 0; i < uint64_t(m) * k; ++i) REQUIRE(c.load("A", i) == gx);
  for (uint64_t i = 0; i < uint64_t(k) * n; ++i) REQUIRE(c.load("B", i) == gy);
  for (uint64_t i = 0; i < uint64_t(m) * n; ++i) REQUIRE(c.store("C", i) == 1);
  // Shared-memory work is Compute: per warp at least tile FMA steps per k-tile.
  const unsigned ktiles = (k + tile - 1) / tile;
  for (const auto& s : warps) {
    unsigned compute = 0;
    for (const auto& i : s) compute += !i.is_memory();
    REQUIRE(compute >= ktiles * tile * 3);
  }
}
}  // namespace

TEST_CASE("gemm: square tiles load every A and B element once per CTA that needs it") {
  check_gemm(32, 32, 32, 16);
}

TEST_CASE("gemm: edge tiles load and store only in-range elements") {
  check_gemm(20, 24, 18, 8);
  check_gemm(5, 3, 7, 4);  // 16-thread CTAs: half-empty warps
}
