// ContiguousSplit: the uneven-split rule (the first n mod g groups one larger), group_of()
// agreeing with begin()/end() for every item, and 0 groups an error.
#include <catch2/catch.hpp>

#include "common/contiguous_split.h"

using namespace gpusc;

TEST_CASE("ContiguousSplit: 10 over 4 and 7 over 3, first groups one larger", "[split]") {
  const ContiguousSplit a(10, 4);
  CHECK(std::vector<unsigned>{a.begin(0), a.begin(1), a.begin(2), a.begin(3), a.end(3)} ==
        std::vector<unsigned>{0, 3, 6, 8, 10});
  const ContiguousSplit b(7, 3);
  CHECK(std::vector<unsigned>{b.size(0), b.size(1), b.size(2)} == std::vector<unsigned>{3, 2, 2});
  const ContiguousSplit c(2, 4);  // fewer items than groups: the last groups are empty
  CHECK(std::vector<unsigned>{c.size(0), c.size(1), c.size(2), c.size(3)} == std::vector<unsigned>{1, 1, 0, 0});
}

TEST_CASE("ContiguousSplit: group_of agrees with the ranges for every split up to 40 x 12", "[split]") {
  for (unsigned n = 0; n <= 40; ++n)
    for (unsigned g = 1; g <= 12; ++g) {
      const ContiguousSplit s(n, g);
      unsigned total = 0;
      for (unsigned k = 0; k < g; ++k) {
        total += s.size(k);
        if (k) REQUIRE(s.begin(k) == s.end(k - 1));
        for (unsigned i = s.begin(k); i < s.end(k); ++i) REQUIRE(s.group_of(i) == k);
        REQUIRE(s.size(k) + 1 >= s.size(0));  // sizes differ by at most one, larger first
      }
      REQUIRE(total == n);
    }
}

TEST_CASE("ContiguousSplit: 0 groups is an error", "[split][config]") {
  REQUIRE_THROWS_WITH(ContiguousSplit(10, 0), Catch::Contains("cannot split 10 items into 0 groups"));
}
