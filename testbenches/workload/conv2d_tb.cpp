// Conv2d: K x K window loads around every interior pixel, one store per interior pixel, no
// traffic for the filter (constant memory), coalesced rows.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "workload/conv2d.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
void check_conv(unsigned W, unsigned H, unsigned K, unsigned bx, unsigned by) {
  INFO(W << "x" << H << " K=" << K);
  Conv2dWorkload::Params p;
  p.width = W, p.height = H, p.filter = K, p.block_x = bx, p.block_y = by;
  Conv2dWorkload w(p);
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == 1);
  const auto warps = drain_kernel(*kernels[0]);
  check_invariants(w.address_space(), *kernels[0], warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.loaded() == std::set<std::string>{"in"});  // no filter array: constant memory
  REQUIRE(c.stored() == std::set<std::string>{"out"});
  const int r = int(K / 2);
  for (int y = 0; y < int(H); ++y)
    for (int x = 0; x < int(W); ++x) {
      const bool interior = x >= r && x < int(W) - r && y >= r && y < int(H) - r;
      REQUIRE(c.store("out", uint64_t(y) * W + x) == unsigned(interior));
      unsigned windows = 0;  // interior outputs whose window covers (x, y)
      for (int oy = r; oy < int(H) - r; ++oy)
        for (int ox = r; ox < int(W) - r; ++ox) windows += std::abs(ox - x) <= r && std::abs(oy - y) <= r;
      REQUIRE(c.load("in", uint64_t(y) * W + x) == windows);
    }
}
}  // namespace

TEST_CASE("conv2d: every interior pixel reads its K x K window once and writes once") {
  check_conv(6, 5, 3, 32, 8);
  check_conv(9, 8, 5, 4, 4);
  check_conv(40, 3, 3, 16, 2);
}

TEST_CASE("conv2d: a warp's loads are coalesced rows of the image") {
  Conv2dWorkload::Params p;
  p.width = 66;  // CTA columns 0..31, 32..63, 64..65: the middle one is all interior
  p.height = 64;
  Conv2dWorkload w(p);
  const auto s = drain(*w.next_kernel()->warp(4, 2));  // CTA (1, 1), row 10, x = 32..63
  unsigned loads = 0;
  for (const auto& i : s) {
    if (i.op != WarpInstr::Op::Load) continue;
    ++loads;
    REQUIRE(i.active_mask == kAllLanes);
    for (unsigned l = 1; l < 32; ++l) REQUIRE(i.addr[l] == i.addr[l - 1] + 4);
  }
  REQUIRE(loads == 9);
  REQUIRE_THROWS_WITH(Conv2dWorkload([] { Conv2dWorkload::Params q; q.filter = 4; return q; }()),
                      Catch::Matchers::Contains("conv2d.filter = 4 must be odd"));
}
