// PageRank (pull): per iteration, in-arcs gather rank and out-degree of their source; ranks
// alternate between rank0 and rank1; the host result matches a reference power iteration.
#include <catch2/catch.hpp>

#include "workload/pagerank.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

TEST_CASE("pagerank: per-iteration accesses and ping-pong rank arrays on a hand-made graph") {
  // 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 0, 3 -> 2. Vertex 3 has no in-arcs.
  auto g = std::make_shared<const CsrGraph>(CsrGraph::from_coo(4, 4, {{0, 1}, {0, 2}, {1, 2}, {2, 0}, {3, 2}}, false));
  const std::vector<unsigned> out_deg = {2, 1, 1, 1};
  const std::vector<std::vector<uint32_t>> in = {{2}, {0}, {0, 1, 3}, {}};  // in-neighbours by hand
  PagerankWorkload::Params p;
  p.iterations = 3;
  p.threads_per_cta = 32;
  PagerankWorkload w(p, g);
  const AddressSpace& space = w.address_space();
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == 3);
  for (unsigned it = 0; it < 3; ++it) {
    INFO("iteration " << it);
    const auto warps = drain_kernel(*kernels[it]);
    check_invariants(space, *kernels[it], warps);
    const AccessCount c = count_accesses(space, warps);
    const std::string src = it % 2 ? "rank1" : "rank0", dst = it % 2 ? "rank0" : "rank1";
    REQUIRE(c.loaded() == std::set<std::string>{"in_row_ptr", "in_col_idx", "out_degree", src});
    REQUIRE(c.stored() == std::set<std::string>{dst});
    for (uint32_t u = 0; u < 4; ++u) {
      REQUIRE(c.load(src, u) == out_deg[u]);  // one gather per out-arc of u
      REQUIRE(c.load("out_degree", u) == out_deg[u]);
      REQUIRE(c.store(dst, u) == 1);
      REQUIRE(c.load("in_row_ptr", u) == 1 + (u > 0));
    }
    REQUIRE(c.load("in_row_ptr", 4) == 1);
    for (uint64_t e = 0; e < 5; ++e) REQUIRE(c.load("in_col_idx", e) == 1);
  }
  // Reference power iteration (double), written out independently.
  std::vector<double> r(4, 0.25);
  for (int it = 0; it < 3; ++it) {
    std::vector<double> n(4);
    for (uint32_t v = 0; v < 4; ++v) {
      double s = 0;
      for (uint32_t u : in[v]) s += r[u] / out_deg[u];
      n[v] = 0.15 / 4 + 0.85 * s;
    }
    r = n;
  }
  for (uint32_t v = 0; v < 4; ++v) REQUIRE(w.ranks()[v] == Approx(r[v]).epsilon(1e-12));
  REQUIRE(w.ranks()[3] == Approx(0.15 / 4));
}
