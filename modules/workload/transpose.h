// Transpose: out = in^T for a height x width float matrix, the naive kernel of the CUDA SDK
// transpose sample (transposeNaive), one thread per element.
// Access pattern: thread (x, y) loads in[y * width + x] and stores out[x * height + y]. Lanes
// run along x, so each load reads 32 consecutive floats (coalesced) and each store writes 32
// floats `height` elements apart (one memory transaction per lane): the pattern the SDK's
// shared-memory versions exist to fix.
// Choices: one element per thread (the SDK's naive kernel loops 4 rows per thread with 32 x 8
// CTAs; the addresses are the same, the instruction count differs). Addresses do not depend
// on values.
// Default: 1024 x 1024 (the CUDA SDK sample's size), 32 x 8 CTAs: footprint 8 MiB, ~160k warp
// instructions. size=small: 512 x 512 (2 MiB, ~40k instructions).
// Values (kernel.h): in[i] = a hashed float in [0, 1) (AddressSpace::hashed_unit), out starts at
// 0; the store writes out[x * h + y] = in[y * w + x], the kernel's own result.
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class TransposeWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned width = 1024;   // columns of in = rows of out
    unsigned height = 1024;  // rows of in = columns of out
    unsigned block_x = 32;  // CTA width [threads]
    unsigned block_y = 8;   // CTA height [threads]
    // size=small (tests, demos): 512 x 512.
    static Params small() {
      Params p;
      p.width = p.height = 512;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(width, 1, 1 << 16, "columns of the input matrix");
      GPUSC_PARAM_R(height, 1, 1 << 16, "rows of the input matrix");
      GPUSC_PARAM_R(block_x, 1, 1024, "CTA width [threads]");
      GPUSC_PARAM_R(block_y, 1, 1024, "CTA height [threads]");
    }
  };

  explicit TransposeWorkload(const Params& p);
  bool has_values() const override { return true; }
  static float in_value(uint64_t i) { return AddressSpace::hashed_unit(0x7a5e, i); }
  struct Data;  // what the streams share (defined in the .cpp)

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
