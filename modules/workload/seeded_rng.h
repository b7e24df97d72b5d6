// SeededRng: the one random source of the workload models. std::mt19937_64's output sequence is
// fixed by the standard, but std::uniform_*_distribution are not, so ranges and reals are
// derived here by hand: the same seed gives the same graphs and data on every platform.
#pragma once
#include <cstdint>
#include <random>

namespace gpusc {

class SeededRng {
 public:
  explicit SeededRng(uint64_t seed) : eng_(seed) {}

  uint64_t next() { return eng_(); }
  // Uniform integer in [0, n) for n > 0, by rejection of the biased top of the 64-bit range.
  uint64_t below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;  // largest multiple of n that fits
    uint64_t x;
    do x = eng_(); while (x >= limit);
    return x % n;
  }
  // Uniform real in [0, 1) with 53 random bits (exact, no rounding up to 1).
  double uniform() { return static_cast<double>(eng_() >> 11) * 0x1.0p-53; }
  // Approximately standard normal: Irwin-Hall sum of 12 uniforms minus 6 (no libm calls).
  double normal() {
    double s = 0;
    for (int i = 0; i < 12; ++i) s += uniform();
    return s - 6.0;
  }

 private:
  std::mt19937_64 eng_;
};

}  // namespace gpusc
