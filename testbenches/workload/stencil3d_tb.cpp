// Stencil3d (hotspot3D-like): per cell and launch the clamped 7 points of temp_src (or, with
// hotspot3D's registers, each column's cells once plus the 4 in-plane neighbours), power once and
// one store of temp_dst; temp0/temp1 alternating over the launches; one thread's order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <tuple>

#include "workload/stencil3d.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Matchers::Contains;

namespace {
// How often each cell of an nx x ny x nz grid is read as one of the listed clamped offsets.
std::vector<unsigned> reads(int nx, int ny, int nz, const std::vector<std::array<int, 3>>& offsets) {
  std::vector<unsigned> r(size_t(nx) * ny * nz, 0);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)
        for (const auto& o : offsets) {
          const int xx = std::clamp(x + o[0], 0, nx - 1), yy = std::clamp(y + o[1], 0, ny - 1),
                    zz = std::clamp(z + o[2], 0, nz - 1);
          ++r[(size_t(zz) * ny + yy) * nx + xx];
        }
  return r;
}
const std::vector<std::array<int, 3>> kSeven = {{0, 0, 0}, {0, -1, 0}, {0, 1, 0}, {1, 0, 0},
                                                {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
const std::vector<std::array<int, 3>> kInPlane = {{-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}};

// Checks every launch: temp_src read `expect` times per cell, power and temp_dst once, ping-pong.
void check_launches(Stencil3dWorkload& w, unsigned launches, const std::vector<unsigned>& expect) {
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == launches);
  for (unsigned i = 0; i < launches; ++i) {
    INFO("launch " << i);
    REQUIRE(kernels[i]->name() == "stencil3d.step" + std::to_string(i));
    const auto warps = drain_kernel(*kernels[i]);
    check_invariants(w.address_space(), *kernels[i], warps);
    const AccessCount c = count_accesses(w.address_space(), warps);
    const std::string src = i % 2 ? "temp1" : "temp0", dst = i % 2 ? "temp0" : "temp1";
    REQUIRE(c.loaded() == std::set<std::string>{src, "power"});
    REQUIRE(c.stored() == std::set<std::string>{dst});
    REQUIRE(c.atomic().empty());
    for (uint64_t cell = 0; cell < expect.size(); ++cell) {
      INFO("cell " << cell);
      REQUIRE(c.load(src, cell) == expect[cell]);
      REQUIRE(c.load("power", cell) == 1);
      REQUIRE(c.store(dst, cell) == 1);
    }
  }
  REQUIRE(w.next_kernel() == nullptr);
}

}  // namespace

TEST_CASE("stencil3d without registers: the clamped 7 points and power per cell per layer, one store, ping-pong") {
  Stencil3dWorkload::Params p;
  p.nx = 3, p.ny = 4, p.nz = 3, p.iterations = 3, p.block_x = 2, p.block_y = 2, p.z_in_registers = false;
  Stencil3dWorkload w(p);
  const auto r = reads(3, 4, 3, kSeven);
  REQUIRE(r[0] == 7);       // corner (0,0,0): C, and N, W, B clamped onto it, and read by (1,0,0), (0,1,0), (0,0,1)
  REQUIRE(r[3 * 4 + 4] == 7);  // interior (1,1,1): centre and 6 neighbours
  check_launches(w, 3, r);
  p.nz = 1;  // a single layer: T and B clamp onto the cell
  Stencil3dWorkload flat(p);
  check_launches(flat, 3, reads(3, 4, 1, kSeven));
}

TEST_CASE("stencil3d with hotspot3D's registers: each column cell loaded once, plus the 4 in-plane neighbours") {
  Stencil3dWorkload::Params p;
  p.nx = 3, p.ny = 4, p.nz = 4, p.iterations = 2, p.block_x = 2, p.block_y = 2;
  REQUIRE(p.z_in_registers);  // the default
  Stencil3dWorkload w(p);
  auto r = reads(3, 4, 4, kInPlane);
  for (auto& n : r) ++n;  // the column's own load (C at layer 0, T above each layer but the last)
  check_launches(w, 2, r);
  p.nz = 2;  // the shortest column: peeled first and last layer, no loop body
  Stencil3dWorkload two(p);
  auto r2 = reads(3, 4, 2, kInPlane);
  for (auto& n : r2) ++n;
  check_launches(two, 2, r2);
  p.nz = 1;
  REQUIRE_THROWS_WITH(Stencil3dWorkload(p), Contains("stencil3d.nz = 1") && Contains("z_in_registers"));
}

TEST_CASE("stencil3d: one thread's accesses in program order on 3 x 3 x 3, with and without registers") {
  Stencil3dWorkload::Params p;
  p.nx = p.ny = p.nz = 3, p.iterations = 1, p.block_x = p.block_y = 4;
  using Op = WarpInstr::Op;
  auto cell = [](unsigned x, unsigned y, unsigned z) { return uint64_t(9 * z + 3 * y + x); };
  {
    Stencil3dWorkload w(p);
    auto k = w.next_kernel();
    REQUIRE(k->num_ctas() == 1);
    const Stream s = drain(*k->warp(0, 0));
    const AddressSpace& sp = w.address_space();
    // Lane 5 = thread (1, 1): below/centre/above roll through registers.
    std::vector<LaneAccess> want;
    for (unsigned z = 0; z < 3; ++z) {
      if (z == 0) want.push_back({Op::Load, "temp0", cell(1, 1, 0)});
      if (z < 2) want.push_back({Op::Load, "temp0", cell(1, 1, z + 1)});
      for (auto [x, y] : std::vector<std::pair<unsigned, unsigned>>{{0, 1}, {2, 1}, {1, 2}, {1, 0}})  // W E S N
        want.push_back({Op::Load, "temp0", cell(x, y, z)});
      want.push_back({Op::Load, "power", cell(1, 1, z)});
      want.push_back({Op::Store, "temp1", cell(1, 1, z)});
    }
    REQUIRE(lane_accesses(sp, s, 5) == want);
    // Lane 0 = corner (0, 0): W and N clamp onto the cell itself.
    const auto corner = lane_accesses(sp, s, 0);
    REQUIRE(std::vector<LaneAccess>(corner.begin(), corner.begin() + 8) ==
            std::vector<LaneAccess>{{Op::Load, "temp0", 0}, {Op::Load, "temp0", 9}, {Op::Load, "temp0", 0},
                                {Op::Load, "temp0", 1}, {Op::Load, "temp0", 3}, {Op::Load, "temp0", 0},
                                {Op::Load, "power", 0}, {Op::Store, "temp1", 0}});
    // Only threads inside the 3 x 3 plane access memory (x = lane % 4, y = lane / 4).
    const uint32_t inside = 0x7u | (0x7u << 4) | (0x7u << 8);
    for (const auto& in : s)
      if (in.is_memory()) REQUIRE(in.active_mask == inside);
    // hotspotOpt1 peels the first and the last layer: three code copies, so three store pcs.
    std::set<uint32_t> pcs;
    for (const auto& in : s)
      if (in.op == Op::Store) pcs.insert(in.pc);
    REQUIRE(pcs.size() == 3);
    REQUIRE(on_array(sp, s, "temp0", Op::Load).size() == 2 + 4 + 1 + 4 + 4);  // C T WESN, T WESN, WESN
  }
  {
    p.z_in_registers = false;
    Stencil3dWorkload w(p);
    auto k = w.next_kernel();
    const Stream s = drain(*k->warp(0, 0));
    const AddressSpace& sp = w.address_space();
    std::vector<LaneAccess> want;
    for (unsigned z = 0; z < 3; ++z) {  // computeTempCPU's order: c, n, s, e, w, t, b
      for (auto [x, y, zz] : std::vector<std::tuple<unsigned, unsigned, unsigned>>{
               {1, 1, z}, {1, 0, z}, {1, 2, z}, {2, 1, z}, {0, 1, z}, {1, 1, std::min(z + 1, 2u)},
               {1, 1, z ? z - 1 : 0}})
        want.push_back({Op::Load, "temp0", cell(x, y, zz)});
      want.push_back({Op::Load, "power", cell(1, 1, z)});
      want.push_back({Op::Store, "temp1", cell(1, 1, z)});
    }
    REQUIRE(lane_accesses(sp, s, 5) == want);
    std::set<uint32_t> pcs;
    for (const auto& in : s)
      if (in.op == Op::Store) pcs.insert(in.pc);
    REQUIRE(pcs.size() == 1);  // one loop body
  }
}

TEST_CASE("stencil3d defaults: hotspot3D's 512 x 512 x 8 in 64 x 4 CTAs, lanes along x") {
  Stencil3dWorkload w(Stencil3dWorkload::Params{});
  REQUIRE(w.address_space().bytes() == 3ull * 4 * 512 * 512 * 8);
  auto k = w.next_kernel();
  REQUIRE(k->num_ctas() == 8 * 128);
  REQUIRE(k->threads_per_cta() == 256);
  // Warp 1 of CTA 0: threads (32..63, 0); CTA 1 starts at x = 64.
  const Stream s = drain(*k->warp(0, 1));
  const Stream c = on_array(w.address_space(), s, "temp0", WarpInstr::Op::Load);
  for (unsigned l = 0; l < kWarpSize; ++l) REQUIRE(element(w.address_space(), "temp0", c.front(), l) == 32 + l);
  REQUIRE(element(w.address_space(), "temp0", on_array(w.address_space(), drain(*k->warp(1, 0)), "temp0",
                                                       WarpInstr::Op::Load).front(), 0) == 64);
  REQUIRE(w.next_kernel() != nullptr);
  REQUIRE(w.next_kernel() == nullptr);  // 2 steps
  Stencil3dWorkload::Params p;
  p.block_x = 64, p.block_y = 32;
  REQUIRE_THROWS_WITH(Stencil3dWorkload(p), Contains("exceeds 1024 threads per CTA"));
}
