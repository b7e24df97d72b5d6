// Memory-controller placement on a mesh: the four styles of paper 001 §5.4 put the MCs on the
// rows / columns / diamond they describe, spread evenly, all distinct; interleaved spreads them
// over all nodes; impossible requests are clear errors.
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

TEST_CASE("MC placement: gpgpusim is GPGPU-Sim v3's mesh map (28 SMs + 8 MCs on 6x6: nodes 3 7 10 12 23 25 28 32)",
          "[mesh_placement]") {
  // GPGPU-Sim's intersim2 preset for (28 SMs, 8 memory nodes), its default (use_map = 1).
  const auto v = mc_placement(6, 6, 8, "gpgpusim");
  CHECK(v == std::vector<unsigned>{3, 7, 10, 12, 23, 25, 28, 32});
  unsigned row[6] = {}, col[6] = {};
  for (unsigned n : v) ++row[n / 6], ++col[n % 6];
  for (unsigned i = 0; i < 6; ++i) {
    CHECK(row[i] >= 1);  // every row and column has one or two
    CHECK(row[i] <= 2);
    CHECK(col[i] >= 1);
    CHECK(col[i] <= 2);
  }
  CHECK(mc_placement(4, 4, 8, "gpgpusim") == std::vector<unsigned>{1, 3, 4, 6, 9, 11, 12, 14});  // checkerboard
  CHECK(mc_placement(8, 8, 8, "gpgpusim") == std::vector<unsigned>{3, 15, 17, 29, 36, 47, 49, 61});
  REQUIRE_THROWS_WITH(mc_placement(6, 6, 7, "gpgpusim"), Catch::Contains("no map for 7 MCs on a 6x6 mesh"));
  REQUIRE_THROWS_WITH(mc_placement(9, 4, 8, "gpgpusim"), Catch::Contains("no map for 8 MCs on a 9x4 mesh"));
}

TEST_CASE("MC placement: interleaved spreads 64 MCs over a 16 x 20 mesh, one every 5 nodes", "[mesh_placement]") {
  // Paper 003's monolithic 256-SM die: 256 SMs + 64 partitions = 320 nodes. Position
  // (2i+1)*320/128 = 5i + 2 (2.5 rounds down): nodes 2, 7, 12, ..., 317.
  const auto v = gpusc::noc::mc_placement(16, 20, 64, "interleaved");
  REQUIRE(v.size() == 64);
  for (unsigned i = 0; i < 64; ++i) CHECK(v[i] == 5 * i + 2);
  // No row holds more than 4 MCs and no column more than 5 (16 columns, 20 rows): no MC wall.
  std::vector<unsigned> per_row(20), per_col(16);
  for (unsigned n : v) {
    ++per_row[n / 16];
    ++per_col[n % 16];
  }
  for (unsigned r : per_row) CHECK(r <= 4);
  for (unsigned c : per_col) CHECK(c <= 5);
  // 8 MCs on 8x8: every 8th node starting at 4, one per row.
  CHECK(mc_placement(K, M, 8, "interleaved") == std::vector<unsigned>{4, 12, 20, 28, 36, 44, 52, 60});
}

TEST_CASE("MC placement: impossible or unknown placements are clear errors", "[mesh_placement][config]") {
  REQUIRE_THROWS_WITH(mc_placement(K, M, 9, "bottom"), Catch::Contains("bottom placement puts 9 MCs on a row of 8"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 17, "top-bottom"), Catch::Contains("does not fit a 8x8 mesh"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 17, "edge"), Catch::Contains("does not fit a 8x8 mesh"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 13, "diamond"), Catch::Contains("diamond placement has 12 places"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 65, "interleaved"), Catch::Contains("does not fit a 8x8 mesh"));
  REQUIRE_THROWS_WITH(mc_placement(K, M, 4, "corners"), Catch::Contains("unknown MC placement 'corners'"));
  CHECK(mc_placement(K, M, 0, "bottom").empty());
}
