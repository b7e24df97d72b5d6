// Atax: y = A^T (A x), PolyBench/GPU ATAX, two launches as in the original:
//   kernel1: tmp[i] = sum_j A[i][j] * x[j]    (thread per row i: strided A loads, x broadcast)
//   kernel2: y[j]   = sum_i A[i][j] * tmp[i]  (thread per column j: coalesced A loads, tmp broadcast)
// See dense_matvec.h for the per-thread access pattern. Addresses do not depend on values.
// Default: nx = ny = 1024 (PolyBench/GPU uses 4096), 256-thread CTAs (~260k instructions).
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class AtaxWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned nx = 1024;              // rows of A
    unsigned ny = 1024;              // columns of A
    unsigned threads_per_cta = 256;  // CTA size [threads]
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(nx, 1, 1 << 16, "rows of A");
      GPUSC_PARAM_R(ny, 1, 1 << 16, "columns of A");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };

  explicit AtaxWorkload(const Params& p);

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  Params p_;
  uint64_t a_ = 0, x_ = 0, tmp_ = 0, y_ = 0;
};

}  // namespace gpusc
