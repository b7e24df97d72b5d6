// AddressSpace: aligned, disjoint bases; address -> array lookup; errors.
#include <catch2/catch.hpp>

#include "workload/address_space.h"

using namespace gpusc;
using Catch::Matchers::Contains;

TEST_CASE("AddressSpace gives 256-byte aligned disjoint arrays and finds them by address") {
  AddressSpace s;
  const uint64_t a = s.allocate("a", 10);
  const uint64_t b = s.allocate("b", 256);
  const uint64_t c = s.allocate("c", 0);
  const uint64_t d = s.allocate("d", 1000);
  for (uint64_t base : {a, b, c, d}) REQUIRE(base % 256 == 0);
  REQUIRE(a >= AddressSpace::kFirstBase);
  // Disjoint and in order, every array with its own base.
  REQUIRE(b >= a + 10);
  REQUIRE(c >= b + 256);
  REQUIRE(d > c);
  REQUIRE(s.end() >= d + 1000);

  REQUIRE(s.find(a)->name == "a");
  REQUIRE(s.find(a + 9)->name == "a");
  REQUIRE(s.find(a + 10) == nullptr);  // padding after a
  REQUIRE(s.find(b + 255)->name == "b");
  REQUIRE(s.find(c) == nullptr);       // zero-byte array holds no address
  REQUIRE(s.find(d + 999)->name == "d");
  REQUIRE(s.find(d + 1000) == nullptr);
  REQUIRE(s.find(a - 1) == nullptr);
  REQUIRE(s.base("d") == d);
  REQUIRE(s.array("b").bytes == 256);
  REQUIRE(s.arrays().size() == 4);
  REQUIRE(s.bytes() == 10 + 256 + 0 + 1000);  // the footprint counts no padding
  REQUIRE(AddressSpace().bytes() == 0);
}

TEST_CASE("AddressSpace rejects a duplicate name and reports unknown names with the known ones") {
  AddressSpace s;
  s.allocate("x", 4);
  s.allocate("y", 4);
  REQUIRE_THROWS_WITH(s.allocate("x", 8), Contains("'x' is allocated twice"));
  REQUIRE_THROWS_WITH(s.array("z"), Contains("no array named 'z'") && Contains("x, y"));
  REQUIRE_THROWS_WITH(AddressSpace(100), Contains("not a multiple of 256"));
}

TEST_CASE("AddressSpace: allocate_at places an array at a given base, past the end and aligned", "[address_space]") {
  AddressSpace s(0);
  s.allocate_at("a", 0x10000, 100);
  CHECK(s.base("a") == 0x10000u);
  CHECK(s.end() == 0x10100u);  // 100 bytes rounded up to 256
  CHECK(s.allocate("b", 8) == 0x10100u);  // the bump allocator continues after it
  CHECK_THROWS_WITH(s.allocate_at("c", 0x10000, 8), Catch::Contains("at or past 0x10200"));
  CHECK_THROWS_WITH(s.allocate_at("c", 0x20010, 8), Catch::Contains("multiple of 256"));
  CHECK(s.find(0x10063) == &s.array("a"));
  CHECK(s.find(0x10064) == nullptr);
}
