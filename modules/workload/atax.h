// Atax: y = A^T (A x), PolyBench/GPU ATAX, two launches as in the original:
//   kernel1: tmp[i] = sum_j A[i][j] * x[j]    (thread per row i: strided A loads, x broadcast)
//   kernel2: y[j]   = sum_i A[i][j] * tmp[i]  (thread per column j: coalesced A loads, tmp broadcast)
// See dense_matvec.h for the per-thread access pattern. Addresses do not depend on values.
// Default: nx = 1900, ny = 2100 (PolyBench 4.2 LARGE_DATASET; PolyBench/GPU uses 4096 x 4096),
// 256-thread CTAs: footprint 15.2 MiB, ~1M warp instructions. size=small: 1024 x 1024 (4 MiB,
// ~260k instructions).
// Values (kernel.h): PolyBench 4.2's init_array, x[j] = 1 + j / ny, A[i][j] = ((i + j) % ny) /
// (5 nx); tmp and y start at 0; each launch stores its output as the host computes it (float sums
// in the thread's loop order), kernel2 from kernel1's tmp.
#pragma once
#include "common/params.h"
#include "workload/dense_matvec.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class AtaxWorkload : public SequenceWorkload {
 public:
  using Params = MatrixShapeParams;

  explicit AtaxWorkload(const Params& p);
  bool has_values() const override { return true; }

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  Params p_;
  uint64_t a_ = 0, x_ = 0, tmp_ = 0, y_ = 0;
  std::function<float(uint64_t)> a_at_, x_at_;  // element i of A, x
  std::shared_ptr<const std::vector<float>> tmp_val_;  // kernel1's result (values on)
};

}  // namespace gpusc
