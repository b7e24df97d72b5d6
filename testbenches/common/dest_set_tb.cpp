// DestSet: a random sequence of operations agrees with std::set at every step (property test).
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <vector>

#include "common/dest_set.h"

using gpusc::DestSet;

namespace {

void check_equal(const DestSet& d, const std::set<unsigned>& ref) {
  REQUIRE(d.count() == ref.size());
  REQUIRE(d.empty() == ref.empty());
  REQUIRE(d.single_member() == (ref.size() == 1));
  if (!ref.empty()) REQUIRE(d.first() == *ref.begin());
  std::vector<unsigned> seen;
  d.for_each([&](unsigned n) { seen.push_back(n); });
  REQUIRE(seen == std::vector<unsigned>(ref.begin(), ref.end()));  // increasing, each once
}

}  // namespace

TEST_CASE("DestSet: random add remove and union agree with std::set") {
  uint32_t rng = 987654321;
  auto next = [&] { rng = rng * 1664525u + 1013904223u; return rng >> 8; };
  DestSet d, other;
  std::set<unsigned> ref, ref_other;
  for (int i = 0; i < 20000; ++i) {
    // Small sets most of the time, so single_member() and empty() see both answers often.
    const unsigned n = next() % 8 == 0 ? next() % DestSet::kMaxNodes : (next() % 8) * 64 + next() % 3;
    switch (next() % 6) {
      case 0: case 1: d.add(n); ref.insert(n); break;
      case 2: case 3: d.remove(n); ref.erase(n); break;
      case 4: other.add(n); ref_other.insert(n); break;
      case 5:
        if (next() % 8 == 0) {
          d |= other;
          ref.insert(ref_other.begin(), ref_other.end());
        } else if (next() % 8 == 0) {
          d.clear();
          ref.clear();
        }
        break;
    }
    REQUIRE(d.contains(n) == (ref.count(n) == 1));
    check_equal(d, ref);
  }
}

TEST_CASE("DestSet: boundaries of the 64-bit words and equality") {
  DestSet d;
  for (unsigned n : {0u, 63u, 64u, 127u, 128u, 191u, 192u, 255u}) d.add(n);
  CHECK(d.count() == 8);
  CHECK(d.first() == 0);
  d.remove(0);
  CHECK(d.first() == 63);
  CHECK(DestSet::single(255).first() == 255);
  CHECK(DestSet::single(255).single_member());
  DestSet two = DestSet::single(64);
  two.add(192);  // one bit in each of two words: not a single member
  CHECK_FALSE(two.single_member());
  CHECK(two == two);
  CHECK(two != DestSet::single(64));
}
