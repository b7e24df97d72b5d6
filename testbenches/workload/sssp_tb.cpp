// SSSP (Bellman-Ford rounds): distances equal Dijkstra's, launches = 1 + the most arcs a
// shortest path needs, every launch's accesses follow from an independent per-round recurrence,
// one warp's instruction sequence on a hand-made graph, weights, and the relaunch stopping.
#include <catch2/catch.hpp>

#include <algorithm>
#include <queue>
#include <tuple>

#include "workload/graph_generators.h"
#include "workload/sssp.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Matchers::Contains;

namespace {
constexpr uint32_t kInf = UINT32_MAX;

struct Reference {
  std::vector<uint64_t> dist;   // shortest distance (kInf: unreachable)
  std::vector<uint32_t> hops;   // fewest arcs among the shortest paths
};

// Independent reference: Dijkstra on (distance, arcs) pairs, lexicographic.
Reference dijkstra(const CsrGraph& g, const std::vector<uint32_t>& w, uint32_t s) {
  Reference r{std::vector<uint64_t>(g.rows, kInf), std::vector<uint32_t>(g.rows, kInf)};
  using Item = std::tuple<uint64_t, uint32_t, uint32_t>;  // distance, hops, vertex
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
  r.dist[s] = 0;
  r.hops[s] = 0;
  q.push({0, 0, s});
  while (!q.empty()) {
    const auto [d, h, v] = q.top();
    q.pop();
    if (d != r.dist[v] || h != r.hops[v]) continue;
    for (uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
      const uint32_t u = g.col_idx[e];
      const uint64_t nd = d + w[e];
      if (nd < r.dist[u] || (nd == r.dist[u] && h + 1 < r.hops[u])) {
        r.dist[u] = nd;
        r.hops[u] = h + 1;
        q.push({nd, h + 1, u});
      }
    }
  }
  return r;
}

// D[k][v]: the shortest distance over paths of at most k arcs (plain dynamic programming over
// every arc, no frontier), k = 0 .. rounds.
std::vector<std::vector<uint64_t>> at_most_k_arcs(const CsrGraph& g, const std::vector<uint32_t>& w, uint32_t s,
                                                  unsigned rounds) {
  std::vector<std::vector<uint64_t>> d(rounds + 1, std::vector<uint64_t>(g.rows, kInf));
  d[0][s] = 0;
  for (unsigned k = 1; k <= rounds; ++k) {
    d[k] = d[k - 1];
    for (uint32_t v = 0; v < g.rows; ++v)
      if (d[k - 1][v] != kInf)
        for (uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
          d[k][g.col_idx[e]] = std::min(d[k][g.col_idx[e]], d[k - 1][v] + w[e]);
  }
  return d;
}

uint64_t total(const AccessCount& c, const std::map<std::string, std::map<uint64_t, unsigned>> AccessCount::*m,
               const std::string& a) {
  uint64_t t = 0;
  auto it = (c.*m).find(a);
  if (it != (c.*m).end())
    for (const auto& kv : it->second) t += kv.second;
  return t;
}

// Runs every launch of an SSSP and checks it against Dijkstra and the per-round recurrence.
void check_sssp(std::shared_ptr<const CsrGraph> g, SsspWorkload::Params p) {
  SsspWorkload w(p, g);
  const uint32_t s = p.source;
  const auto& wt = w.weights();
  const Reference ref = dijkstra(*g, wt, s);
  uint32_t max_hops = 0;
  for (uint32_t h : ref.hops)
    if (h != kInf) max_hops = std::max(max_hops, h);
  const AddressSpace& space = w.address_space();
  auto kernels = all_kernels(w);
  // Round r lowers exactly the distances whose best path of <= r + 1 arcs beats the one of <= r.
  REQUIRE(kernels.size() == max_hops + 1);
  REQUIRE(w.rounds() == kernels.size());
  REQUIRE(w.next_kernel() == nullptr);  // the relaunch stopped, and stays stopped
  const auto D = at_most_k_arcs(*g, wt, s, max_hops + 1);
  REQUIRE(D[max_hops + 1] == D[max_hops]);  // nothing left to lower: converged
  for (uint32_t r = 0; r < kernels.size(); ++r) {
    INFO("launch " << r);
    const Kernel& k = *kernels[r];
    REQUIRE(k.name() == "sssp.round" + std::to_string(r));
    REQUIRE(k.threads_per_cta() == p.threads_per_cta);
    const auto warps = drain_kernel(k);
    check_invariants(space, k, warps);
    const AccessCount c = count_accesses(space, warps);
    const std::string in = r % 2 ? "flag1" : "flag0", out = r % 2 ? "flag0" : "flag1";
    const std::vector<uint64_t>& start = D[r];  // distances when launch r starts (D[0]: source only)
    auto frontier = [&](uint32_t v) { return r == 0 ? v == s : D[r][v] < D[r - 1][v]; };
    std::vector<unsigned> arcs_in(g->rows, 0), better_in(g->rows, 0);
    for (uint32_t v = 0; v < g->rows; ++v)
      if (frontier(v))
        for (uint32_t e = g->row_ptr[v]; e < g->row_ptr[v + 1]; ++e) {
          ++arcs_in[g->col_idx[e]];
          better_in[g->col_idx[e]] += start[v] + wt[e] < start[g->col_idx[e]];
        }
    for (uint32_t v = 0; v < g->rows; ++v) {
      INFO("vertex " << v);
      const bool f = frontier(v);
      REQUIRE(c.load(in, v) == 1);  // every vertex tests its flag once
      REQUIRE(c.store(in, v) == unsigned(f));  // and a frontier vertex clears it
      REQUIRE(c.load("row_ptr", v) == unsigned(f) + unsigned(v > 0 && frontier(v - 1)));
      for (uint32_t e = g->row_ptr[v]; e < g->row_ptr[v + 1]; ++e) {
        REQUIRE(c.load("col_idx", e) == unsigned(f));
        REQUIRE(c.load("weight", e) == unsigned(f));
      }
      REQUIRE(c.load("dist", v) == unsigned(f) + arcs_in[v]);
      REQUIRE(c.atom("dist", v) == better_in[v]);
      REQUIRE(c.store(out, v) == better_in[v]);
      REQUIRE(c.load(out, v) == 0);
      // The next round's frontier: the vertices that got an atomic.
      REQUIRE((better_in[v] > 0) == (D[r + 1][v] < D[r][v]));
    }
    REQUIRE(c.atomic() == (total(c, &AccessCount::atomics, "dist") ? std::set<std::string>{"dist"}
                                                                    : std::set<std::string>{}));
    REQUIRE(c.store("changed", 0) == total(c, &AccessCount::atomics, "dist"));
    if (r == max_hops) REQUIRE(total(c, &AccessCount::atomics, "dist") == 0);  // the last round lowers nothing
    else REQUIRE(total(c, &AccessCount::atomics, "dist") > 0);
  }
  for (uint32_t v = 0; v < g->rows; ++v) REQUIRE(uint64_t(w.distances()[v]) == ref.dist[v]);
}

// Directed, weights from values: 0->1 (10), 0->2 (1), 2->3 (1), 3->1 (-1.2: weight 1), 1->4 (2.2:
// 2), 3->4 (9), 4->5 (0.4: weight 1), 6->0 (3; 6 is unreachable from 0). Shortest distances from
// 0: 0, 3, 1, 2, 5, 6 over 0-2-3-1-4-5 (5 arcs), while BFS reaches every vertex within 3 levels.
std::shared_ptr<const CsrGraph> weighted_graph() {
  std::vector<CooEntry> e = {{0, 1, 10}, {0, 2, 1}, {2, 3, 1}, {3, 1, -1.2f}, {1, 4, 2.2f},
                             {3, 4, 9},  {4, 5, 0.4f}, {6, 0, 3}};
  return std::make_shared<const CsrGraph>(CsrGraph::from_coo(7, 7, e, true));
}

SsspWorkload::Params values_params(unsigned threads_per_cta = 32) {
  SsspWorkload::Params p;
  p.weights = "values";
  p.threads_per_cta = threads_per_cta;
  return p;
}

}  // namespace

TEST_CASE("sssp on a hand-made weighted graph: Dijkstra's distances, 6 launches where BFS needs 4") {
  auto g = weighted_graph();
  SsspWorkload w(values_params(), g);
  REQUIRE(w.weights() == std::vector<uint32_t>{10, 1, 2, 1, 1, 9, 1, 3});  // CSR order, max(1, round(|v|))
  const Reference ref = dijkstra(*g, w.weights(), 0);
  REQUIRE(ref.dist == std::vector<uint64_t>{0, 3, 1, 2, 5, 6, kInf});  // by hand
  REQUIRE(ref.hops == std::vector<uint32_t>{0, 3, 1, 2, 4, 5, kInf});
  check_sssp(g, values_params());
  check_sssp(g, values_params(64));
  SsspWorkload::Params from3 = values_params();
  from3.source = 3;  // 3 -> 1 -> 4 -> 5 and 3 -> 4: 4 rounds that lower something, then 1 that does not
  SsspWorkload w3(from3, g);
  REQUIRE(all_kernels(w3).size() == 4);
  REQUIRE(w3.distances() == std::vector<uint32_t>{kInf, 1, kInf, 0, 3, 4, kInf});
}

TEST_CASE("sssp: one warp's accesses per thread, in program order, on the hand-made graph") {
  auto g = weighted_graph();
  SsspWorkload w(values_params(), g);
  const AddressSpace& sp = w.address_space();
  using Op = WarpInstr::Op;
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == 6);
  REQUIRE(kernels[0]->num_ctas() == 1);
  REQUIRE(kernels[0]->warps_per_cta() == 1);
  // Launch 0: only the source (lane 0) is in the frontier; its arcs go to 1 (10) and 2 (1).
  const Stream s0 = drain(*kernels[0]->warp(0, 0));
  REQUIRE(lane_accesses(sp, s0, 0) == std::vector<LaneAccess>{
      {Op::Load, "flag0", 0}, {Op::Store, "flag0", 0}, {Op::Load, "dist", 0}, {Op::Load, "row_ptr", 0},
      {Op::Load, "row_ptr", 1},
      {Op::Load, "col_idx", 0}, {Op::Load, "weight", 0}, {Op::Load, "dist", 1}, {Op::Atomic, "dist", 1},
      {Op::Store, "flag1", 1}, {Op::Store, "changed", 0},
      {Op::Load, "col_idx", 1}, {Op::Load, "weight", 1}, {Op::Load, "dist", 2}, {Op::Atomic, "dist", 2},
      {Op::Store, "flag1", 2}, {Op::Store, "changed", 0}});
  REQUIRE(lane_accesses(sp, s0, 3) == std::vector<LaneAccess>{{Op::Load, "flag0", 3}});  // not in the frontier
  REQUIRE(s0.front().op == Op::Compute);  // thread id
  REQUIRE(s0[2].op == Op::Load);
  REQUIRE(s0[2].active_mask == 0x7fu);  // the 7 vertices test their flag; lanes 7..31 have none
  // Launch 2: frontier {3, 4} (distances 2 and 12 at its start). 3 -> 1 (2 + 1 < 10) and
  // 3 -> 4 (2 + 9 < 12) improve, 4 -> 5 (12 + 1 < inf) too: every arc gets its atomic.
  const Stream s2 = drain(*kernels[2]->warp(0, 0));
  REQUIRE(lane_accesses(sp, s2, 3) == std::vector<LaneAccess>{
      {Op::Load, "flag0", 3}, {Op::Store, "flag0", 3}, {Op::Load, "dist", 3}, {Op::Load, "row_ptr", 3},
      {Op::Load, "row_ptr", 4},
      {Op::Load, "col_idx", 4}, {Op::Load, "weight", 4}, {Op::Load, "dist", 1}, {Op::Atomic, "dist", 1},
      {Op::Store, "flag1", 1}, {Op::Store, "changed", 0},
      {Op::Load, "col_idx", 5}, {Op::Load, "weight", 5}, {Op::Load, "dist", 4}, {Op::Atomic, "dist", 4},
      {Op::Store, "flag1", 4}, {Op::Store, "changed", 0}});
  REQUIRE(lane_accesses(sp, s2, 4) == std::vector<LaneAccess>{
      {Op::Load, "flag0", 4}, {Op::Store, "flag0", 4}, {Op::Load, "dist", 4}, {Op::Load, "row_ptr", 4},
      {Op::Load, "row_ptr", 5},
      {Op::Load, "col_idx", 6}, {Op::Load, "weight", 6}, {Op::Load, "dist", 5}, {Op::Atomic, "dist", 5},
      {Op::Store, "flag1", 5}, {Op::Store, "changed", 0}});
  // Lanes walk their arcs in lock step: the second arc's loads run on lane 3 alone.
  const Stream cols = on_array(sp, s2, "col_idx", Op::Load);
  REQUIRE(cols.size() == 2);
  REQUIRE(cols[0].active_mask == ((1u << 3) | (1u << 4)));
  REQUIRE(cols[1].active_mask == (1u << 3));
  // Launch 3: frontier {1, 4, 5}; 1 -> 4 (3 + 2 < 11) and 4 -> 5 (11 + 1 < 13) improve; 5 has no arcs.
  const Stream s3 = drain(*kernels[3]->warp(0, 0));
  REQUIRE(on_array(sp, s3, "row_ptr", Op::Load).front().active_mask == ((1u << 1) | (1u << 4) | (1u << 5)));
  REQUIRE(on_array(sp, s3, "col_idx", Op::Load).front().active_mask == ((1u << 1) | (1u << 4)));
  REQUIRE(on_array(sp, s3, "dist", Op::Atomic).front().active_mask == ((1u << 1) | (1u << 4)));
  // Launch 5: frontier {5}, no arcs: the round that lowers nothing, and the last one.
  const AccessCount last = count_accesses(sp, *kernels[5]);
  REQUIRE(last.atomic().empty());
  REQUIRE(last.stored() == std::set<std::string>{"flag1"});  // vertex 5 clears its own flag only
  REQUIRE(last.store("flag1", 5) == 1);
  REQUIRE(w.next_kernel() == nullptr);
}

TEST_CASE("sssp on R-MAT and grid graphs with hashed weights matches Dijkstra launch by launch") {
  RmatOptions o;
  o.scale = 9;
  o.edge_factor = 4;
  o.symmetrize = true;
  o.dedup = true;
  SsspWorkload::Params p;
  p.threads_per_cta = 128;
  check_sssp(std::make_shared<const CsrGraph>(rmat_graph(o, 11)), p);
  p.max_weight = 3;
  p.threads_per_cta = 40;  // partial warps
  check_sssp(std::make_shared<const CsrGraph>(rmat_graph(o, 12)), p);
  SsspWorkload::Params q;
  q.source = 17;
  q.threads_per_cta = 64;
  check_sssp(std::make_shared<const CsrGraph>(grid2d_graph(6, 9)), q);
}

TEST_CASE("sssp hashed weights: symmetric, in 1..max_weight, every value used, auto ignores generated values") {
  auto g = std::make_shared<const CsrGraph>(uniform_random_matrix(256, 256, 6, 3).symmetrized());
  REQUIRE(g->has_values());  // the generator's SpMV values in [-1, 1): not weights
  SsspWorkload::Params p;
  p.max_weight = 4;
  SsspWorkload w(p, g);  // auto without an input file: hashed
  std::vector<unsigned> seen(5, 0);
  for (uint32_t v = 0; v < g->rows; ++v)
    for (uint32_t e = g->row_ptr[v]; e < g->row_ptr[v + 1]; ++e) {
      const uint32_t u = g->col_idx[e], wt = w.weights()[e];
      REQUIRE(wt >= 1);
      REQUIRE(wt <= 4);
      ++seen[wt];
      const auto back = std::lower_bound(g->col_idx.begin() + g->row_ptr[u], g->col_idx.begin() + g->row_ptr[u + 1], v);
      REQUIRE(*back == v);
      REQUIRE(w.weights()[back - g->col_idx.begin()] == wt);
    }
  for (unsigned k = 1; k <= 4; ++k) REQUIRE(seen[k] > g->nnz() / 8);
  // The default range: 1 .. 64.
  SsspWorkload d(SsspWorkload::Params{}, g);
  REQUIRE(*std::max_element(d.weights().begin(), d.weights().end()) == 64);
  REQUIRE(*std::min_element(d.weights().begin(), d.weights().end()) == 1);
  // weights = values on a graph without values is an error naming the key.
  auto pattern = std::make_shared<const CsrGraph>(grid2d_graph(2, 2));
  REQUIRE_THROWS_WITH(SsspWorkload(values_params(), pattern), Contains("sssp.weights = values"));
}

TEST_CASE("sssp rejects a bad source, a non-square matrix and distances past 32 bits") {
  auto g = std::make_shared<const CsrGraph>(grid2d_graph(2, 2));
  SsspWorkload::Params p;
  p.source = 4;
  REQUIRE_THROWS_WITH(SsspWorkload(p, g), Contains("sssp.source = 4 is out of range [0, 4)"));
  auto r = std::make_shared<const CsrGraph>(CsrGraph::from_coo(2, 3, {}, false));
  REQUIRE_THROWS_WITH(SsspWorkload(SsspWorkload::Params{}, r), Contains("must be square"));
  p.source_from = "farthest";
  REQUIRE_THROWS_WITH(SsspWorkload(p, g), Contains("source_from"));
  // 0 -> 1 -> 2 with weights 3e9 each: the distance of 2 does not fit 32 bits.
  std::vector<CooEntry> e = {{0, 1, 3e9f}, {1, 2, 3e9f}};
  auto far = std::make_shared<const CsrGraph>(CsrGraph::from_coo(3, 3, e, true));
  SsspWorkload w(values_params(), far);
  REQUIRE(w.next_kernel() != nullptr);
  REQUIRE_THROWS_WITH(w.next_kernel(), Contains("distance of vertex 2 exceeds"));
}

TEST_CASE("sssp source_from max-degree starts at the vertex with the most arcs") {
  // Out-degrees 2, 1, 1, 2, 1, 0, 1: vertices 0 and 3 tie at 2 arcs, so the search starts at 0.
  auto g = weighted_graph();
  SsspWorkload::Params p = values_params();
  p.source_from = "max-degree";
  p.source = 6;  // ignored under max-degree
  SsspWorkload w(p, g);
  REQUIRE(all_kernels(w).size() == 6);
  REQUIRE(w.distances()[5] == 6);
}
