// BFS: one launch per level, eccentricity + 1 launches, every reachable vertex expanded once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <queue>

#include "workload/bfs.h"
#include "workload/graph_generators.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
constexpr uint32_t kInf = UINT32_MAX;

// Independent reference: queue-based BFS.
std::vector<uint32_t> reference_levels(const CsrGraph& g, uint32_t s) {
  std::vector<uint32_t> lvl(g.rows, kInf);
  std::queue<uint32_t> q;
  lvl[s] = 0;
  q.push(s);
  while (!q.empty()) {
    const uint32_t v = q.front();
    q.pop();
    for (uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
      if (lvl[g.col_idx[e]] == kInf) {
        lvl[g.col_idx[e]] = lvl[v] + 1;
        q.push(g.col_idx[e]);
      }
  }
  return lvl;
}

// Checks every launch of a BFS from `source` against the reference levels.
void check_bfs(std::shared_ptr<const CsrGraph> g, uint32_t source, unsigned threads_per_cta) {
  const auto ref = reference_levels(*g, source);
  uint32_t ecc = 0;
  for (uint32_t l : ref)
    if (l != kInf) ecc = std::max(ecc, l);
  BfsWorkload::Params p;
  p.source = source;
  p.threads_per_cta = threads_per_cta;
  BfsWorkload w(p, g);
  const AddressSpace& space = w.address_space();
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == ecc + 1);

  std::vector<unsigned> expanded(g->rows, 0);  // row_ptr[v] loads over all launches
  for (uint32_t L = 0; L < kernels.size(); ++L) {
    INFO("launch " << L);
    const Kernel& k = *kernels[L];
    REQUIRE(k.name() == "bfs.level" + std::to_string(L));
    const auto warps = drain_kernel(k);
    check_invariants(space, k, warps);
    const AccessCount c = count_accesses(space, warps);
    REQUIRE(c.atomic().empty());
    for (uint32_t v = 0; v < g->rows; ++v) {
      const bool frontier = ref[v] == L;
      // Frontier test: every vertex reads its own level once, plus once per arc from the frontier.
      unsigned arcs_in_from_frontier = 0;
      for (uint32_t u = 0; u < g->rows; ++u)
        if (ref[u] == L)
          for (uint32_t e = g->row_ptr[u]; e < g->row_ptr[u + 1]; ++e) arcs_in_from_frontier += g->col_idx[e] == v;
      REQUIRE(c.load("level", v) == 1 + arcs_in_from_frontier);
      REQUIRE(c.load("row_ptr", v) == unsigned(frontier) + unsigned(v > 0 && ref[v - 1] == L));
      expanded[v] += c.load("row_ptr", v) - unsigned(v > 0 && ref[v - 1] == L);
      for (uint32_t e = g->row_ptr[v]; e < g->row_ptr[v + 1]; ++e) REQUIRE(c.load("col_idx", e) == unsigned(frontier));
      // Written exactly by the frontier arcs that find v unvisited at the launch's start.
      REQUIRE(c.store("level", v) == (ref[v] == L + 1 ? arcs_in_from_frontier : 0));
    }
    uint64_t level_stores = 0;
    if (c.stores.count("level"))
      for (const auto& kv : c.stores.at("level")) level_stores += kv.second;
    REQUIRE(c.store("changed", 0) == level_stores);
    if (L == ecc) REQUIRE(level_stores == 0);  // the last launch discovers nothing
  }
  for (uint32_t v = 0; v < g->rows; ++v) REQUIRE(expanded[v] == (ref[v] != kInf ? 1u : 0u));
  REQUIRE(w.levels() == ref);
}

// Undirected: 0-1, 0-2, 1-2 (same level), 1-3, 2-3, 3-4 and a separate component 5-6.
std::shared_ptr<const CsrGraph> hand_made_graph() {
  std::vector<CooEntry> e;
  for (auto [u, v] : std::vector<std::pair<uint32_t, uint32_t>>{{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}, {3, 4}, {5, 6}}) {
    e.push_back({u, v});
    e.push_back({v, u});
  }
  return std::make_shared<const CsrGraph>(CsrGraph::from_coo(7, 7, e, false));
}
}  // namespace

TEST_CASE("bfs on a hand-made graph: levels, launches = eccentricity + 1, unreachable untouched") {
  auto g = hand_made_graph();
  const auto ref = reference_levels(*g, 0);
  REQUIRE(ref == std::vector<uint32_t>{0, 1, 1, 2, 3, kInf, kInf});  // by hand
  check_bfs(g, 0, 32);
  check_bfs(g, 4, 64);  // from the other end: eccentricity 3 again, levels 4,3,2,2 -> 0..3
}

TEST_CASE("bfs on a grid from a corner has rows + cols - 1 launches") {
  auto g = std::make_shared<const CsrGraph>(grid2d_graph(5, 7));
  BfsWorkload w(BfsWorkload::Params{}, g);
  REQUIRE(all_kernels(w).size() == 4 + 6 + 1);
  check_bfs(g, 0, 40);   // partial warps
  check_bfs(g, 17, 256);
}

TEST_CASE("bfs on an R-MAT graph expands every reachable vertex exactly once") {
  RmatOptions o;
  o.scale = 9;
  o.edge_factor = 4;
  o.symmetrize = true;
  check_bfs(std::make_shared<const CsrGraph>(rmat_graph(o, 11)), 0, 128);
}

TEST_CASE("bfs rejects a source outside the graph and a non-square matrix") {
  auto g = std::make_shared<const CsrGraph>(grid2d_graph(2, 2));
  BfsWorkload::Params p;
  p.source = 4;
  REQUIRE_THROWS_WITH(BfsWorkload(p, g), Catch::Matchers::Contains("bfs.source = 4 is out of range [0, 4)"));
  auto r = std::make_shared<const CsrGraph>(CsrGraph::from_coo(2, 3, {}, false));
  REQUIRE_THROWS_WITH(BfsWorkload(BfsWorkload::Params{}, r), Catch::Matchers::Contains("must be square"));
}

TEST_CASE("bfs source_from max-degree starts at the vertex with the most arcs and the lowest id on a tie") {
  // Degrees 2, 3, 3, 3, 1, 1, 1: vertices 1, 2 and 3 tie at 3 arcs, so the search starts at 1.
  auto g = hand_made_graph();
  BfsWorkload::Params p;
  p.source_from = "max-degree";
  p.source = 6;  // ignored under max-degree
  BfsWorkload w(p, g);
  REQUIRE(all_kernels(w).size() == 3);  // eccentricity of vertex 1 is 2
  REQUIRE(w.levels() == std::vector<uint32_t>{1, 0, 1, 1, 2, kInf, kInf});
  p.source_from = "degree";
  REQUIRE_THROWS_WITH(BfsWorkload(p, g), Catch::Matchers::Contains("source_from"));
}
