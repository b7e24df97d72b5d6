// Conv2d: 2-D convolution of an H x W float image with a K x K filter, one thread per output
// pixel: PolyBench/GPU 2DCONV (there K = 3 with the coefficients as literals) generalised to
// K x K, the filter held in __constant__ memory as in the CUDA SDK convolution samples.
// Access pattern: thread (x, y) of an interior pixel loads the K*K input pixels
// in[(y + dy - r) * W + x + dx - r] (r = K / 2) row by row and stores out[y * W + x]; lanes
// run along x, so each load instruction reads 32 consecutive floats (coalesced) and
// neighbouring threads reuse each other's pixels (cache locality). The filter coefficients are
// FFMA constant-bank operands: no global traffic and no instruction of their own.
// Choices: like PolyBench, border pixels (closer than r to an edge) are not computed; 2-D CTAs
// of block_x x block_y threads (PolyBench uses 32 x 8). Addresses do not depend on pixel
// values, so no image data is generated.
// Default: 2048 x 2048 image (PolyBench/GPU uses 4096 x 4096), 3 x 3 filter: footprint 32 MiB,
// ~2.9M warp instructions. size=small: 256 x 256 (512 KiB, ~45k instructions).
// Values (kernel.h): in[i] = a whole number 0..15 as a float (the CUDA samples'
// convolutionSeparable fills its image with rand() % 16), out starts at 0; the filter is a box
// filter (every coefficient 1 / filter^2, in registers, not in memory), and the store writes the
// float sum of the coefficient times the input over the taps in the kernel's order.
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class Conv2dWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned width = 2048;   // image width [pixels]
    unsigned height = 2048;  // image height [pixels]
    unsigned filter = 3;    // filter size K (odd) [taps per side]
    unsigned block_x = 32;  // CTA width [threads]
    unsigned block_y = 8;   // CTA height [threads]
    // size=small (tests, demos): 256 x 256.
    static Params small() {
      Params p;
      p.width = p.height = 256;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(width, 1, 1 << 16, "image width [pixels]");
      GPUSC_PARAM_R(height, 1, 1 << 16, "image height [pixels]");
      GPUSC_PARAM_R(filter, 1, 31, "filter size K, odd [taps per side]");
      GPUSC_PARAM_R(block_x, 1, 1024, "CTA width [threads]");
      GPUSC_PARAM_R(block_y, 1, 1024, "CTA height [threads]");
    }
  };

  explicit Conv2dWorkload(const Params& p);
  bool has_values() const override { return true; }
  static float in_value(uint64_t i) { return static_cast<float>(static_cast<unsigned>(AddressSpace::hashed_unit(0xc0, i) * 16.0f)); }
  struct Data;  // what the streams share (defined in the .cpp)

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
