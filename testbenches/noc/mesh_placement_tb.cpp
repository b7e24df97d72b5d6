// Memory-controller placement on a mesh: the four styles of paper 001 §5.4 put the MCs on the
// rows / columns / diamond they describe, spread evenly, all distinct; impossible requests are
// clear errors.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <set>
#include <vector>

#include "noc/mesh_placement.h"

using gpusc::noc::mc_placement;

namespace {
constexpr unsigned K = 8, M = 8;
unsigned X(unsigned n) { return n % K; }
unsigned Y(unsigned n) { return n / K; }

void check_distinct_in_mesh(const std::vector<unsigned>& v, unsigned count) {
  REQUIRE(v.size() == count);
  CHECK(std::set<unsigned>(v.begin(), v.end()).size() == count);
  for (unsigned n : v) CHECK(n < K * M);
}
}  // namespace

TEST_CASE("MC placement: bottom puts 8 MCs on row 0 with one per column", "[mesh_placement]") {
  // Spread 8 over 8 columns: position (2i+1)*8/16 = i, so columns 0..7 of row 0 = nodes 0..7.
  const auto v = mc_placement(K, M, 8, "bottom");
  check_distinct_in_mesh(v, 8);
  for (unsigned n : v) CHECK(Y(n) == 0);
  CHECK(v == std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7});
  // 4 MCs on the bottom row: (2i+1)*8/8 = 1, 3, 5, 7.
  CHECK(mc_placement(K, M, 4, "bottom") == std::vector<unsigned>{1, 3, 5, 7});
}

TEST_CASE("MC placement: top-bottom splits 8 MCs 4 + 4 over rows 0 and 7", "[mesh_placement]") {
  // Four per row, spread over 8 columns: x = (2i+1)*8/8 = 1, 3, 5, 7; row 7 starts at node 56.
  const auto v = mc_placement(K, M, 8, "top-bottom");
  check_distinct_in_mesh(v, 8);
  unsigned bottom = 0, top = 0;
  for (unsigned n : v) {
    CHECK((Y(n) == 0 || Y(n) == M - 1));
    bottom += Y(n) == 0;
    top += Y(n) == M - 1;
  }
  CHECK(bottom == 4);
  CHECK(top == 4);
  CHECK(v == std::vector<unsigned>{1, 3, 5, 7, 57, 59, 61, 63});
  // An odd count puts the extra MC at the bottom.
  const auto odd = mc_placement(K, M, 5, "top-bottom");
  unsigned odd_bottom = 0;
  for (unsigned n : odd) odd_bottom += Y(n) == 0;
  CHECK(odd_bottom == 3);
}

TEST_CASE("MC placement: edge splits 8 MCs 4 + 4 over columns 0 and 7", "[mesh_placement]") {
  // Four per column, spread over 8 rows: y = 1, 3, 5, 7; left nodes y*8, right nodes y*8 + 7.
  const auto v = mc_placement(K, M, 8, "edge");
  check_distinct_in_mesh(v, 8);
  unsigned left = 0, right = 0;
  for (unsigned n : v) {
    CHECK((X(n) == 0 || X(n) == K - 1));
    left += X(n) == 0;
    right += X(n) == K - 1;
  }
  CHECK(left == 4);
  CHECK(right == 4);
  CHECK(v == std::vector<unsigned>{8, 15, 24, 31, 40, 47, 56, 63});
}

TEST_CASE("MC placement: diamond puts 8 MCs evenly on |x-4| + |y-4| = 3", "[mesh_placement]") {
  // r = min(8, 8)/2 - 1 = 3 around the centre (4, 4): the ring has 4r = 12 points, all inside
  // the 8x8 mesh. Eight spread evenly over twelve take two per side of the diamond, so the set
  // is unchanged by a quarter turn about the centre, (x, y) -> (8 - y, x).
  const auto v = mc_placement(K, M, 8, "diamond");
  check_distinct_in_mesh(v, 8);
  std::set<unsigned> s(v.begin(), v.end());
  unsigned side[4] = {0, 0, 0, 0};
  for (unsigned n : v) {
    const int dx = static_cast<int>(X(n)) - 4, dy = static_cast<int>(Y(n)) - 4;
    CHECK(std::abs(dx) + std::abs(dy) == 3);
    CHECK(s.count(X(n) * K + (8 - Y(n))) == 1);  // rotated point (8 - y, x) is node x*8 + (8 - y)
    // Sides, counter-clockwise from the bottom vertex (vertices belong to the side they start).
    const unsigned q = dx >= 0 && dy < 0 ? 0 : dx > 0 && dy >= 0 ? 1 : dx <= 0 && dy > 0 ? 2 : 3;
    ++side[q];
  }
  for (unsigned q = 0; q < 4; ++q) CHECK(side[q] == 2);
}

TEST_CASE("MC placement: impossible or unknown placements are clear errors", "[mesh_placement][config]") {
  REQUIRE_THROWS_WITH(mc_placement(K, M, 9, "bottom"), Catch::Contains("bottom placement puts 9 MCs on a row of 8"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 17, "top-bottom"), Catch::Contains("does not fit a 8x8 mesh"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 17, "edge"), Catch::Contains("does not fit a 8x8 mesh"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 13, "diamond"), Catch::Contains("diamond placement has 12 places"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 4, "corners"), Catch::Contains("unknown MC placement 'corners'"));
  CHECK(mc_placement(K, M, 0, "bottom").empty());
}
