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

TEST_CASE("stencil2d: points 9 adds the four clamped diagonal loads of temp_src and nothing else") {
  Stencil2dWorkload::Params p;
  p.rows = 4, p.cols = 3, p.iterations = 1, p.block_x = 2, p.block_y = 2, p.points = 9;
  Stencil2dWorkload w(p);
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == 1);
  std::vector<unsigned> reads(12, 0);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 3; ++x)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) ++reads[std::clamp(y + dy, 0, 3) * 3 + std::clamp(x + dx, 0, 2)];
  // Clamping sends each border read back onto the border, so here every cell is read 9 times in
  // all: corner (0,0) by itself 4 times (C, N, W, NW clamp onto it), by (1,0) twice (W, NW), by
  // (0,1) twice (N, NE) and once by (1,1) (NW).
  REQUIRE(reads[0] == 9);
  const auto warps = drain_kernel(*kernels[0]);
  check_invariants(w.address_space(), *kernels[0], warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.loaded() == std::set<std::string>{"temp0", "power"});
  REQUIRE(c.stored() == std::set<std::string>{"temp1"});
  for (uint64_t cell = 0; cell < 12; ++cell) {
    REQUIRE(c.load("temp0", cell) == reads[cell]);
    REQUIRE(c.load("power", cell) == 1);
    REQUIRE(c.store("temp1", cell) == 1);
  }
  p.points = 7;
  REQUIRE_THROWS_WITH(Stencil2dWorkload(p), Catch::Contains("stencil2d.points = 7"));
}
