// Comd (CoMD Lennard-Jones force over Verlet lists): the host lists hold every pair within the
// cutoff, symmetrically, and nothing past cutoff + skin; an FCC lattice gives its 12 nearest plus
// 6 second neighbours inside CoMD's copper cutoff; each thread reads its own list slot by slot
// (coalesced), gathers exactly its list's positions, and stores its force and energy once.
#include <catch2/catch.hpp>

#include <algorithm>

#include "workload/comd.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
ComdWorkload::Params small4() {
  ComdWorkload::Params p;
  p.nx = p.ny = p.nz = 4;  // 256 atoms, box 21 A: a 3 x 3 x 3 link-cell grid
  p.threads_per_cta = 64;
  return p;
}
}  // namespace

TEST_CASE("comd: lists hold every pair within the cutoff, symmetric, 18 FCC neighbours in range") {
  ComdWorkload w(small4(), 3);
  const uint32_t n = w.atoms();
  REQUIRE(n == 4 * 4 * 4 * 4);
  for (uint32_t i = 0; i < n; ++i) {
    const auto li = w.neighbours(i);
    REQUIRE(std::is_sorted(li.begin(), li.end()));
    unsigned in_range = 0;
    for (uint32_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const bool listed = std::binary_search(li.begin(), li.end(), j);
      if (w.interacts(i, j)) {
        REQUIRE(listed);
        ++in_range;
      }
      if (listed) {  // symmetric
        const auto lj = w.neighbours(j);
        REQUIRE(std::binary_search(lj.begin(), lj.end(), i));
      }
    }
    // jitter 0.02 x 5.256 A cannot move the 18 neighbours at 3.72 and 5.26 A past 5.79 A,
    // nor the third shell (6.44 A) inside it.
    REQUIRE(in_range == 18);
    REQUIRE(li.size() >= 18);
    REQUIRE(li.size() < 18 + 24);  // cutoff + skin = 6.09 A < the third shell minus jitter
  }
}

TEST_CASE("comd: each thread gathers its list's positions and stores force and energy once") {
  ComdWorkload w(small4(), 5);
  auto k = w.next_kernel();
  const auto warps = drain_kernel(*k);
  check_invariants(w.address_space(), *k, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.stored() == std::set<std::string>{"fx", "fy", "fz", "e"});
  const AddressSpace& s = w.address_space();
  uint64_t gathers = 0, expected = 0;
  for (uint32_t i = 0; i < w.atoms(); ++i) {
    REQUIRE(c.store("fx", i) == 1);
    REQUIRE(c.store("e", i) == 1);
    REQUIRE(c.load("count", i) == 1);
    expected += w.neighbours(i).size();
  }
  for (const auto& st : warps)
    for (const auto& ld : on_array(s, st, "list", WarpInstr::Op::Load)) {
      // Slot s of 32 consecutive atoms: consecutive words.
      unsigned prev = 32;
      for (unsigned l = 0; l < 32; ++l)
        if (ld.lane_active(l)) {
          if (prev < 32) REQUIRE(ld.addr[l] - ld.addr[prev] == 4 * (l - prev));
          prev = l;
        }
    }
  // Every list entry is read once and its atom's x gathered once.
  for (const auto& [e, times] : c.loads.at("list")) REQUIRE(times == 1);
  REQUIRE(c.total_loads("list") == expected);
  gathers = c.total_loads("x");
  REQUIRE(gathers == expected + w.atoms());  // the gathers and each thread's own x
}

TEST_CASE("comd: a box narrower than twice cutoff + skin is an error") {
  ComdWorkload::Params p;
  p.nx = 2;
  REQUIRE_THROWS_WITH(ComdWorkload(p, 1), Catch::Contains("twice cutoff + skin"));
}
