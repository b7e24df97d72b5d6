// Stencil2d (hotspot-like): 5 clamped points of temp_src and power per cell, one store of
// temp_dst, temp0/temp1 alternating over the launches.
#include <catch2/catch.hpp>

#include <algorithm>

#include "workload/stencil2d.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

TEST_CASE("stencil2d: clamped 5-point loads, power once, one store per cell, ping-pong launches") {
  Stencil2dWorkload::Params p;
  p.rows = 4, p.cols = 3, p.iterations = 3, p.block_x = 2, p.block_y = 2;
  Stencil2dWorkload w(p);
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == 3);
  // Reference: how often each cell is read as centre or (clamped) neighbour.
  std::vector<unsigned> reads(12, 0);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 3; ++x) {
      const int pts[5][2] = {{x, y}, {x, std::max(y - 1, 0)}, {x, std::min(y + 1, 3)}, {std::max(x - 1, 0), y},
                             {std::min(x + 1, 2), y}};
      for (const auto& q : pts) ++reads[q[1] * 3 + q[0]];
    }
  REQUIRE(reads[0] == 5);   // corner (0,0): itself as centre, N and W
  REQUIRE(reads[4] == 5);   // interior (1,1): centre + 4 neighbours
  for (unsigned i = 0; i < 3; ++i) {
    const auto warps = drain_kernel(*kernels[i]);
    check_invariants(w.address_space(), *kernels[i], warps);
    const AccessCount c = count_accesses(w.address_space(), warps);
    const std::string src = i % 2 ? "temp1" : "temp0", dst = i % 2 ? "temp0" : "temp1";
    REQUIRE(c.loaded() == std::set<std::string>{src, "power"});
    REQUIRE(c.stored() == std::set<std::string>{dst});
    for (uint64_t cell = 0; cell < 12; ++cell) {
      REQUIRE(c.load(src, cell) == reads[cell]);
      REQUIRE(c.load("power", cell) == 1);
      REQUIRE(c.store(dst, cell) == 1);
    }
  }
  REQUIRE(w.next_kernel() == nullptr);
}
