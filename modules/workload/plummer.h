// Plummer model: the seeded particle set of the Barnes-Hut workload, generated as Lonestar BH's
// main() does (after Aarseth, Henon and Wielen 1974): radius r = 1 / sqrt((0.999 u)^(-2/3) - 1)
// with u uniform, a direction uniform on the sphere (rejection sampling in the unit cube), the
// position scaled by 3 pi / 16; every body has mass 1 / n. Velocities are not generated: the
// force phase does not read their values.
// Choice: SeededRng replaces drand48, so the set is the same on every platform except where
// std::pow rounds differently (glibc's pow is correctly rounded).
#pragma once
#include <cstdint>
#include <vector>

namespace gpusc {

struct Bodies {
  std::vector<float> x, y, z, mass;  // one entry per body
  uint32_t size() const { return static_cast<uint32_t>(x.size()); }
};

Bodies plummer_bodies(uint32_t n, uint64_t seed);

}  // namespace gpusc
