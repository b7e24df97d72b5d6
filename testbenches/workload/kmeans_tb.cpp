// k-means: per launch every point reads its features once per cluster and all centroids, and
// stores its membership; the host iteration converges as worked out by hand.
#include <catch2/catch.hpp>

#include "workload/kmeans.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
// Two well separated blobs, alternating; initial centroids = points 0 and 1.
std::vector<float> two_blobs() { return {0, 0, 10, 10, 0, 1, 10, 11, 1, 0, 11, 10}; }
KmeansWorkload::Params small(bool constant) {
  KmeansWorkload::Params p;
  p.points = 6, p.features = 2, p.clusters = 2, p.threads_per_cta = 32, p.centroids_in_constant = constant;
  p.max_iterations = 8;  // the default runs one launch
  return p;
}
}  // namespace

TEST_CASE("kmeans: memberships and convergence after two launches (worked by hand)") {
  KmeansWorkload w(small(false), two_blobs());
  REQUIRE(w.membership() == std::vector<int32_t>(6, -1));
  auto kernels = all_kernels(w);
  // Launch 0 assigns every point (6 changes); launch 1 changes nothing, so the host stops.
  REQUIRE(kernels.size() == 2);
  REQUIRE(w.membership() == std::vector<int32_t>{0, 1, 0, 1, 0, 1});
  REQUIRE(w.centroids()[0] == Approx(1.0 / 3));
  REQUIRE(w.centroids()[1] == Approx(1.0 / 3));
  REQUIRE(w.centroids()[2] == Approx(31.0 / 3));
  REQUIRE(w.centroids()[3] == Approx(31.0 / 3));

  for (const auto& k : kernels) {
    const auto warps = drain_kernel(*k);
    check_invariants(w.address_space(), *k, warps);
    const AccessCount c = count_accesses(w.address_space(), warps);
    REQUIRE(c.loaded() == std::set<std::string>{"features", "centroids"});
    REQUIRE(c.stored() == std::set<std::string>{"membership"});
    for (uint64_t i = 0; i < 12; ++i) REQUIRE(c.load("features", i) == 2);  // once per cluster
    for (uint64_t i = 0; i < 4; ++i) REQUIRE(c.load("centroids", i) == 6);   // once per point
    for (uint64_t i = 0; i < 6; ++i) REQUIRE(c.store("membership", i) == 1);
    // Feature-major layout: lanes of one feature load read consecutive floats.
    for (const auto& i : on_array(w.address_space(), warps[0], "features", WarpInstr::Op::Load))
      for (unsigned l = 1; l < 6; ++l) REQUIRE(i.addr[l] == i.addr[l - 1] + 4);
  }
}

TEST_CASE("kmeans: centroids in constant memory cause no global loads, max_iterations caps launches") {
  KmeansWorkload w(small(true), two_blobs());
  auto k = w.next_kernel();
  const AccessCount c = count_accesses(w.address_space(), *k);
  REQUIRE(c.loaded() == std::set<std::string>{"features"});
  // 1-D points 0, 1, 2, 10, 11 from centroids 0 and 1 (by hand): launch 0 -> {0}, {1, 2, 10, 11},
  // centroids 0 and 6; launch 1 -> {0, 1, 2}, {10, 11}, centroids 1 and 10.5; launch 2 changes
  // nothing. So 3 launches, or 2 with max_iterations = 2.
  KmeansWorkload::Params p;
  p.points = 5, p.features = 1, p.clusters = 2, p.max_iterations = 8;
  const std::vector<float> line = {0, 1, 2, 10, 11};
  KmeansWorkload full(p, line);
  REQUIRE(all_kernels(full).size() == 3);
  REQUIRE(full.membership() == std::vector<int32_t>{0, 0, 0, 1, 1});
  REQUIRE(full.centroids() == std::vector<float>{1.f, 10.5f});
  p.max_iterations = 2;
  KmeansWorkload capped(p, line);
  REQUIRE(all_kernels(capped).size() == 2);
  REQUIRE_THROWS_WITH(KmeansWorkload(small(false), std::vector<float>(5)),
                      Catch::Matchers::Contains("expected points * features = 12"));
}
