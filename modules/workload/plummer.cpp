#include "workload/plummer.h"

#include <cmath>

#include "workload/seeded_rng.h"

namespace gpusc {

Bodies plummer_bodies(uint32_t n, uint64_t seed) {
  SeededRng rng(seed);
  const double rsc = 3 * 3.14159265358979323846 / 16;
  Bodies b;
  b.x.resize(n), b.y.resize(n), b.z.resize(n), b.mass.assign(n, static_cast<float>(1.0 / n));
  for (uint32_t i = 0; i < n; ++i) {
    const double r = 1.0 / std::sqrt(std::pow(rng.uniform() * 0.999, -2.0 / 3.0) - 1);
    double x, y, z, sq;
    do {
      x = rng.uniform() * 2 - 1;
      y = rng.uniform() * 2 - 1;
      z = rng.uniform() * 2 - 1;
      sq = x * x + y * y + z * z;
    } while (sq > 1.0 || sq == 0.0);
    const double scale = rsc * r / std::sqrt(sq);
    b.x[i] = static_cast<float>(x * scale);
    b.y[i] = static_cast<float>(y * scale);
    b.z[i] = static_cast<float>(z * scale);
  }
  return b;
}

}  // namespace gpusc
