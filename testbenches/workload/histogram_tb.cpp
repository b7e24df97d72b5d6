// Histogram: one byte load and one atomic into the right bin per input element.
#include <catch2/catch.hpp>

#include "workload/histogram.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

TEST_CASE("histogram: one atomic per element into bin value * bins / 256") {
  std::vector<uint8_t> in;
  for (unsigned i = 0; i < 70; ++i) in.push_back(static_cast<uint8_t>((i * 37 + 5) % 256));
  in[3] = 0;
  in[4] = 255;
  in[5] = 16;
  HistogramWorkload::Params p;
  p.bins = 16;
  p.threads_per_cta = 64;
  HistogramWorkload w(p, in);
  auto k = w.next_kernel();
  REQUIRE(k->num_ctas() == 2);
  const auto warps = drain_kernel(*k);
  check_invariants(w.address_space(), *k, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.loaded() == std::set<std::string>{"input"});
  REQUIRE(c.atomic() == std::set<std::string>{"bins"});
  REQUIRE(c.stored().empty());
  std::vector<unsigned> ref(16, 0);
  for (uint8_t v : in) ++ref[v / 16];  // 256 values over 16 bins: 16 values per bin
  for (uint64_t b = 0; b < 16; ++b) REQUIRE(c.atom("bins", b) == ref[b]);
  for (uint64_t i = 0; i < in.size(); ++i) REQUIRE(c.load("input", i) == 1);
  // Per lane: the atomic of lane l goes to the bin of the byte lane l loaded.
  const AddressSpace& s = w.address_space();
  for (const auto& st : warps) {
    const auto ld = on_array(s, st, "input", WarpInstr::Op::Load);
    const auto at = on_array(s, st, "bins", WarpInstr::Op::Atomic);
    REQUIRE(ld.size() == at.size());
    for (size_t i = 0; i < ld.size(); ++i) {
      REQUIRE(ld[i].access_bytes == 1);
      REQUIRE(at[i].access_bytes == 4);
      for (unsigned l = 0; l < 32; ++l)
        if (ld[i].lane_active(l)) REQUIRE(element(s, "bins", at[i], l) == in[element(s, "input", ld[i], l)] / 16u);
    }
  }
  REQUIRE(w.next_kernel() == nullptr);
}

TEST_CASE("histogram: generated 'normal' input concentrates in the middle bins") {
  HistogramWorkload::Params p;
  p.elements = 20000;
  p.bins = 8;
  HistogramWorkload w(p, 1);
  std::vector<unsigned> h(8, 0);
  for (uint8_t v : w.input()) ++h[w.bin_of(v)];
  REQUIRE(w.input().size() == 20000);
  REQUIRE(h[3] + h[4] > 10 * (h[0] + h[7]));  // mean 128, sd 32: bins 3, 4 hold ~68%
  p.distribution = "uniform";
  HistogramWorkload u(p, 1);
  std::vector<unsigned> hu(8, 0);
  for (uint8_t v : u.input()) ++hu[u.bin_of(v)];
  for (unsigned b : hu) REQUIRE((b > 2200 && b < 2800));  // 2500 expected
}
