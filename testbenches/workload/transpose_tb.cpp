// Transpose (naive): every element read once and written once to the transposed position;
// reads coalesced, writes strided by the height.
#include <catch2/catch.hpp>

#include "workload/transpose.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

TEST_CASE("transpose: each element read once and written once at (x, y) -> (y, x)") {
  TransposeWorkload::Params p;
  p.width = 5, p.height = 3, p.block_x = 32, p.block_y = 8;  // one CTA, mostly inactive lanes
  TransposeWorkload w(p);
  auto k = w.next_kernel();
  const auto warps = drain_kernel(*k);
  check_invariants(w.address_space(), *k, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.loaded() == std::set<std::string>{"in"});
  REQUIRE(c.stored() == std::set<std::string>{"out"});
  for (uint64_t i = 0; i < 15; ++i) {
    REQUIRE(c.load("in", i) == 1);
    REQUIRE(c.store("out", i) == 1);
  }
  // The lane that loads in[y * W + x] stores out[x * H + y].
  const AddressSpace& s = w.address_space();
  unsigned pairs = 0;
  for (const auto& st : warps) {
    const auto ld = on_array(s, st, "in", WarpInstr::Op::Load), sto = on_array(s, st, "out", WarpInstr::Op::Store);
    REQUIRE(ld.size() == sto.size());
    for (size_t i = 0; i < ld.size(); ++i) {
      REQUIRE(ld[i].active_mask == sto[i].active_mask);
      for (unsigned l = 0; l < 32; ++l)
        if (ld[i].lane_active(l)) {
          const uint64_t in = element(s, "in", ld[i], l), x = in % 5, y = in / 5;
          REQUIRE(element(s, "out", sto[i], l) == x * 3 + y);
          ++pairs;
        }
    }
  }
  REQUIRE(pairs == 15);
}

TEST_CASE("transpose: loads are coalesced, stores are strided by the height") {
  TransposeWorkload::Params p;
  p.width = 64, p.height = 48;
  TransposeWorkload w(p);
  const auto s = drain(*w.next_kernel()->warp(1, 3));
  unsigned mem = 0;
  for (const auto& i : s) {
    if (!i.is_memory()) continue;
    ++mem;
    REQUIRE(i.active_mask == kAllLanes);
    const uint64_t stride = i.op == WarpInstr::Op::Load ? 4 : 4 * 48;
    for (unsigned l = 1; l < 32; ++l) REQUIRE(i.addr[l] - i.addr[l - 1] == stride);
  }
  REQUIRE(mem == 2);
}
