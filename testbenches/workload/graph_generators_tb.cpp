// Graph generators and the seeded random source: sizes, degrees, determinism.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "workload/graph_generators.h"
#include "workload/seeded_rng.h"

using namespace gpusc;
using Catch::Matchers::Contains;

TEST_CASE("SeededRng: below() stays in range and is close to uniform, same seed same sequence") {
  SeededRng r(42), r2(42), r3(43);
  std::vector<unsigned> count(10, 0);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t x = r.below(10);
    REQUIRE(x < 10);
    ++count[x];
  }
  for (unsigned c : count) REQUIRE((c > 9500 && c < 10500));  // 10000 expected, sd ~95
  bool differs = false;
  for (int i = 0; i < 8; ++i) {
    const uint64_t a = r2.next();
    differs |= a != r3.next();
  }
  REQUIRE(differs);
  SeededRng a(7), b(7);
  for (int i = 0; i < 100; ++i) REQUIRE(a.uniform() == b.uniform());
  for (int i = 0; i < 1000; ++i) {
    const double u = a.uniform();
    REQUIRE((u >= 0.0 && u < 1.0));
  }
}

TEST_CASE("R-MAT: exact arc count, ids in range, skewed degrees") {
  RmatOptions o;
  o.scale = 10;
  o.edge_factor = 8;
  const CsrGraph g = rmat_graph(o, 1);
  REQUIRE(g.rows == 1024);
  REQUIRE(g.cols == 1024);
  REQUIRE(g.nnz() == 8192);  // raw output keeps duplicates and self loops
  REQUIRE_NOTHROW(g.validate("rmat"));
  uint32_t max_deg = 0;
  for (uint32_t v = 0; v < g.rows; ++v) max_deg = std::max(max_deg, g.degree(v));
  REQUIRE(max_deg > 8 * 8);  // a hub far above the average degree 8 (a = 0.57)
  // Vertex 0 is the hub with a > b, c > d and no permutation: more out-arcs than the average.
  REQUIRE(g.degree(0) > 8 * 8);
}

TEST_CASE("R-MAT with a single quadrant puts every arc in that corner") {
  RmatOptions o;
  o.scale = 4;
  o.edge_factor = 2;
  o.a = 0, o.b = 1, o.c = 0, o.d = 0;  // always top right: u = 0, v = n - 1
  const CsrGraph g = rmat_graph(o, 5);
  REQUIRE(g.degree(0) == 32);
  for (uint32_t e = 0; e < g.nnz(); ++e) REQUIRE(g.col_idx[e] == 15);
  o.a = 0, o.b = 0, o.c = 0, o.d = 1;  // always bottom right: self loops on n - 1
  o.keep_self_loops = false;
  REQUIRE(rmat_graph(o, 5).nnz() == 0);
  o.a = 0.5, o.b = 0.5, o.c = 0.5, o.d = 0;
  REQUIRE_THROWS_WITH(rmat_graph(o, 5), Contains("sum to 1"));
}

TEST_CASE("R-MAT is deterministic under a seed and differs across seeds") {
  RmatOptions o;
  o.scale = 8;
  const CsrGraph a = rmat_graph(o, 123), b = rmat_graph(o, 123), c = rmat_graph(o, 124);
  REQUIRE(a.row_ptr == b.row_ptr);
  REQUIRE(a.col_idx == b.col_idx);
  REQUIRE(a.col_idx != c.col_idx);
}

TEST_CASE("R-MAT options: dedup, self loops, symmetrize") {
  RmatOptions o;
  o.scale = 8;
  o.edge_factor = 16;
  const CsrGraph raw = rmat_graph(o, 9);
  o.dedup = true;
  o.keep_self_loops = false;
  const CsrGraph clean = rmat_graph(o, 9);
  REQUIRE(clean.nnz() < raw.nnz());  // R-MAT repeats arcs to the hub
  for (uint32_t v = 0; v < clean.rows; ++v)
    for (uint32_t e = clean.row_ptr[v]; e < clean.row_ptr[v + 1]; ++e) {
      REQUIRE(clean.col_idx[e] != v);
      if (e > clean.row_ptr[v]) REQUIRE(clean.col_idx[e] > clean.col_idx[e - 1]);
    }
  o.symmetrize = true;
  const CsrGraph sym = rmat_graph(o, 9);
  std::set<std::pair<uint32_t, uint32_t>> arcs;
  for (uint32_t v = 0; v < sym.rows; ++v)
    for (uint32_t e = sym.row_ptr[v]; e < sym.row_ptr[v + 1]; ++e) arcs.insert({v, sym.col_idx[e]});
  for (const auto& a : arcs) REQUIRE(arcs.count({a.second, a.first}) == 1);
  REQUIRE(arcs.size() == sym.nnz());
}

TEST_CASE("2-D grid: corner, edge and interior degrees and the arc count") {
  const unsigned R = 5, C = 7;
  const CsrGraph g = grid2d_graph(R, C);
  REQUIRE(g.rows == R * C);
  REQUIRE(g.nnz() == 2 * (R * (C - 1) + C * (R - 1)));
  REQUIRE_NOTHROW(g.validate("grid"));
  for (unsigned r = 0; r < R; ++r)
    for (unsigned c = 0; c < C; ++c) {
      const unsigned border = (r == 0) + (r == R - 1) + (c == 0) + (c == C - 1);
      REQUIRE(g.degree(r * C + c) == 4 - border);
    }
  // Interior vertex (2, 3): N, W, E, S.
  const uint32_t v = 2 * C + 3;
  REQUIRE(std::vector<uint32_t>(g.col_idx.begin() + g.row_ptr[v], g.col_idx.begin() + g.row_ptr[v + 1]) ==
          std::vector<uint32_t>{v - C, v - 1, v + 1, v + C});
}

TEST_CASE("banded matrix holds exactly the entries within the band") {
  const unsigned n = 20, w = 3;
  const CsrGraph g = banded_matrix(n, w, 1);
  REQUIRE(g.nnz() == n * (2 * w + 1) - w * (w + 1));
  REQUIRE(g.values.size() == g.nnz());
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<uint32_t> want;
    for (uint32_t j = 0; j < n; ++j)
      if ((i > j ? i - j : j - i) <= w) want.push_back(j);
    REQUIRE(std::vector<uint32_t>(g.col_idx.begin() + g.row_ptr[i], g.col_idx.begin() + g.row_ptr[i + 1]) == want);
  }
  for (float x : g.values) REQUIRE((x >= -1.f && x < 1.f));
}

TEST_CASE("uniform random matrix: exactly k distinct sorted columns per row, seeded") {
  const CsrGraph g = uniform_random_matrix(100, 50, 7, 3);
  REQUIRE(g.nnz() == 700);
  REQUIRE_NOTHROW(g.validate("uniform"));
  std::vector<unsigned> col_hits(50, 0);
  for (uint32_t i = 0; i < g.rows; ++i) {
    REQUIRE(g.degree(i) == 7);
    for (uint32_t e = g.row_ptr[i] + 1; e < g.row_ptr[i + 1]; ++e) REQUIRE(g.col_idx[e] > g.col_idx[e - 1]);
    for (uint32_t e = g.row_ptr[i]; e < g.row_ptr[i + 1]; ++e) ++col_hits[g.col_idx[e]];
  }
  for (unsigned h : col_hits) REQUIRE(h > 0);  // 14 expected per column; all columns reachable
  REQUIRE(uniform_random_matrix(100, 50, 7, 3).col_idx == g.col_idx);
  REQUIRE(uniform_random_matrix(100, 50, 7, 4).col_idx != g.col_idx);
  REQUIRE(uniform_random_matrix(4, 5, 5, 1).nnz() == 20);  // full rows
  REQUIRE_THROWS_WITH(uniform_random_matrix(4, 5, 6, 1), Contains("exceeds the 5 columns"));
}
