// CsrGraph: construction from coordinates, transforms, validation.
#include <catch2/catch.hpp>

#include "workload/csr_graph.h"

using namespace gpusc;
using Catch::Matchers::Contains;

namespace {
std::vector<uint32_t> row(const CsrGraph& g, uint32_t r) {
  return std::vector<uint32_t>(g.col_idx.begin() + g.row_ptr[r], g.col_idx.begin() + g.row_ptr[r + 1]);
}
using V = std::vector<uint32_t>;
}  // namespace

TEST_CASE("CsrGraph::from_coo sorts each row by column and keeps or drops duplicates") {
  std::vector<CooEntry> e = {{2, 1, 5.f}, {0, 3, 1.f}, {0, 1, 2.f}, {2, 1, 6.f}, {1, 0, 3.f}};
  const CsrGraph g = CsrGraph::from_coo(4, 4, e, true);
  REQUIRE(g.rows == 4);
  REQUIRE(g.nnz() == 5);
  REQUIRE(g.row_ptr == V{0, 2, 3, 5, 5});
  REQUIRE(row(g, 0) == V{1, 3});
  REQUIRE(row(g, 2) == V{1, 1});
  REQUIRE(g.values == std::vector<float>{2.f, 1.f, 3.f, 5.f, 6.f});  // duplicates in input order
  const CsrGraph d = CsrGraph::from_coo(4, 4, e, true, /*dedup=*/true);
  REQUIRE(d.nnz() == 4);
  REQUIRE(row(d, 2) == V{1});
  REQUIRE(d.values[3] == 5.f);  // row 2 keeps the first of its duplicates
  REQUIRE_NOTHROW(g.validate("g"));
  REQUIRE_THROWS_WITH(CsrGraph::from_coo(2, 2, {{0, 2, 1.f}}, false), Contains("outside a 2 x 2"));
}

TEST_CASE("CsrGraph transposed, symmetrized and without_self_loops") {
  // 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 2 (self loop), 3 -> 0
  const CsrGraph g = CsrGraph::from_coo(4, 4, {{0, 1}, {0, 2}, {1, 2}, {2, 2}, {3, 0}}, false);
  const CsrGraph t = g.transposed();
  REQUIRE(row(t, 0) == V{3});
  REQUIRE(row(t, 1) == V{0});
  REQUIRE(row(t, 2) == V{0, 1, 2});
  REQUIRE(row(t, 3).empty());
  const CsrGraph s = g.symmetrized();
  REQUIRE(row(s, 0) == V{1, 2, 3});
  REQUIRE(row(s, 1) == V{0, 2});
  REQUIRE(row(s, 2) == V{0, 1, 2});
  REQUIRE(row(s, 3) == V{0});
  REQUIRE(s.nnz() == 9);
  const CsrGraph n = g.without_self_loops();
  REQUIRE(n.nnz() == 4);
  REQUIRE(row(n, 2).empty());
  REQUIRE_THROWS_WITH(CsrGraph::from_coo(2, 3, {}, false).symmetrized(), Contains("non-square"));
}

TEST_CASE("CsrGraph::validate names the first broken invariant") {
  CsrGraph g = CsrGraph::from_coo(3, 3, {{0, 1}, {1, 2}, {2, 0}}, false);
  REQUIRE_NOTHROW(g.validate("g"));
  CsrGraph bad = g;
  bad.col_idx[1] = 7;
  REQUIRE_THROWS_WITH(bad.validate("my graph"), Contains("my graph") && Contains("column 7"));
  bad = g;
  bad.row_ptr = {0, 2, 1, 3};
  REQUIRE_THROWS_WITH(bad.validate("g"), Contains("row_ptr decreases at row 1"));
  bad = g;
  bad.row_ptr.pop_back();
  REQUIRE_THROWS_WITH(bad.validate("g"), Contains("expected rows + 1"));
  bad = g;
  bad.values = {1.f};
  REQUIRE_THROWS_WITH(bad.validate("g"), Contains("values has 1 entries"));
}
