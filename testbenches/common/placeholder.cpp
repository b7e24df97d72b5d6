#include <catch2/catch.hpp>
#include "common/clock_domain.h"
TEST_CASE("build smoke") { REQUIRE(true); }
