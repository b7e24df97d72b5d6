// Histogram: a histogram of 8-bit values with global atomics, one thread per input element:
// the straightforward global-atomic histogram that the CUDA SDK histogram sample and Parboil's
// histo improve on with per-block sub-histograms.
// Access pattern per thread i: load input[i] (one byte: a warp reads 32 consecutive bytes)
// and atomically add 1 to bins[input[i] * bins / 256] (4-byte counters). Skewed data makes
// many lanes of a warp hit the same counter: the atomic contention the original studies.
// Choices: generated input is "normal" (mean 128, standard deviation 32, clamped to 0..255,
// like the pixel values of a natural image) or "uniform"; bin = value * bins / 256, so with
// fewer than 256 bins each bin covers equally many values.
// Default: 2^23 elements (8 MiB of input, as the CUDA SDK sample's 64 MiB scaled to the
// simulator), 256 bins: footprint 8 MiB, ~1.3M warp instructions. size=small: 131072 elements
// (128 KiB, ~20k instructions).
// Values (kernel.h): input holds the input bytes, bins start at 0. The kernel has no plain
// stores: its atomicAdds are not applied to the memory image (the L2 model does no arithmetic),
// so bins keep 0 in memory; the input, which is what the kernel reads, is exact.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class HistogramWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned elements = 1u << 23;          // input values [count]
    unsigned bins = 256;                   // histogram bins [count]
    std::string distribution = "normal";   // generated input values
    unsigned threads_per_cta = 256;        // CTA size [threads]
    // size=small (tests, demos): 131072 elements.
    static Params small() {
      Params p;
      p.elements = 131072;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(elements, 1, 1u << 30, "input values [count]");
      GPUSC_PARAM_R(bins, 1, 256, "histogram bins [count]");
      GPUSC_PARAM_C(distribution, "normal|uniform", "generated input: normal (mean 128, sd 32) or uniform bytes");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };

  bool has_values() const override { return true; }
  HistogramWorkload(const Params& p, uint64_t seed);            // generated input
  HistogramWorkload(const Params& p, std::vector<uint8_t> input);  // given input (elements ignored)
  struct Data;  // what the streams share (defined in the .cpp)

  const std::vector<uint8_t>& input() const;
  unsigned bin_of(uint8_t value) const { return value * p_.bins / 256u; }

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  void init(std::vector<uint8_t> input);

  Params p_;
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
