// MarsScan (workload/mars_scan.h): Mars's prescanArray over 1000 elements, launched as Mars does
// (a full 512-element block, a separate non-power-of-two last block, the block sums scanned by a
// one-thread launch, then uniformAdd for both), ends with every element's exclusive prefix sum in
// memory; one block of 8 elements needs one launch of 4 threads. Also MarsWorkload's launch replay.
#include <catch2/catch.hpp>

#include <map>

#include "workload/mars_scan.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
// Replays the launches in order; the last value each address was stored (values on).
std::map<uint64_t, uint32_t> replay(const std::vector<MarsLaunch>& launches) {
  std::map<uint64_t, uint32_t> mem;
  for (const MarsLaunch& l : launches) {
    MarsKernel k(l, true);
    for (const Stream& s : drain_kernel(k))
      for (const WarpInstr& in : s)
        if (in.op == WarpInstr::Op::Store)
          for (unsigned ln = 0; ln < kWarpSize; ++ln)
            if (in.lane_active(ln)) mem[in.addr[ln]] = in.data[ln];
  }
  return mem;
}
}  // namespace

TEST_CASE("mars scan: 1000 elements in two blocks, recursive block sums, exclusive prefix sums in memory",
          "[workload][mars-scan]") {
  AddressSpace sp;
  const uint64_t in = sp.allocate("in", 4000), out = sp.allocate("out", 4000);
  std::vector<uint32_t> v(1000);
  for (unsigned i = 0; i < 1000; ++i) v[i] = i % 7;
  std::vector<MarsLaunch> ls;
  const std::vector<uint32_t> r = mars_scan(sp, "s", "k", in, out, v, ls);
  std::vector<std::string> names;
  for (const auto& l : ls) names.push_back(l.name + "/" + std::to_string(l.ctas) + "x" + std::to_string(l.threads));
  CHECK(names == std::vector<std::string>{"k.prescan/1x256", "k.prescan_np2/1x256", "k.l1.prescan/1x1",
                                          "k.uniform_add/1x256", "k.uniform_add_np2/1x256"});
  uint32_t run = 0;
  const auto mem = replay(ls);
  for (unsigned i = 0; i < 1000; ++i) {
    CHECK(r[i] == run);
    CHECK(mem.at(out + 4 * i) == run);
    run += v[i];
  }
  CHECK(mem.count(out + 4000) == 0);  // nothing past the last block's 488 elements
  // Block sums: block 0's total, then scanned in place.
  const uint64_t sums = sp.base("s.sums0");
  CHECK(mem.at(sums) == 0u);
  CHECK(mem.at(sums + 4) == r[512]);
}

TEST_CASE("mars scan: one block is one launch of n / 2 threads; the loads read the input once each",
          "[workload][mars-scan]") {
  AddressSpace sp;
  const uint64_t in = sp.allocate("in", 32);
  std::vector<MarsLaunch> ls;
  const auto r = mars_scan(sp, "s", "k", in, in, {3, 1, 4, 1, 5, 9, 2, 6}, ls);
  CHECK(r == std::vector<uint32_t>{0, 3, 4, 8, 9, 14, 23, 25});
  REQUIRE(ls.size() == 1);
  CHECK(ls[0].threads == 4);
  MarsKernel k(ls[0], false);
  std::map<uint64_t, unsigned> loads;
  for (const Stream& s : drain_kernel(k))
    for (const WarpInstr& in : s)
      if (in.op == WarpInstr::Op::Load)
        for (unsigned l = 0; l < kWarpSize; ++l)
          if (in.lane_active(l)) ++loads[in.addr[l]];
  CHECK(loads.size() == 8);
  for (const auto& [a, n] : loads) CHECK(n == 1u);
}
