// Bicg: the BiCG sub-kernel of PolyBench/GPU BICG, s = A^T r and q = A p, two launches as in
// the original:
//   kernel1: s[j] = sum_i r[i] * A[i][j]  (thread per column j: coalesced A loads, r broadcast)
//   kernel2: q[i] = sum_j A[i][j] * p[j]  (thread per row i: strided A loads, p broadcast)
// See dense_matvec.h for the per-thread access pattern. Addresses do not depend on values.
// Default: nx = 1900, ny = 2100 (PolyBench 4.2 LARGE_DATASET; PolyBench/GPU uses 4096 x 4096),
// 256-thread CTAs: footprint 15.2 MiB, ~1M warp instructions. size=small: 1024 x 1024 (4 MiB,
// ~260k instructions).
// Values (kernel.h): PolyBench 4.2's init_array, p[j] = (j % ny) / ny, r[i] = (i % nx) / nx,
// A[i][j] = (i (j + 1) % nx) / nx; s and q start at 0; each launch stores its output as the host
// computes it (float sums in the thread's loop order).
#pragma once
#include "common/params.h"
#include "workload/dense_matvec.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class BicgWorkload : public SequenceWorkload {
 public:
  using Params = MatrixShapeParams;

  explicit BicgWorkload(const Params& p);
  bool has_values() const override { return true; }

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  Params p_;
  uint64_t a_ = 0, r_ = 0, s_ = 0, p_vec_ = 0, q_ = 0;
  std::function<float(uint64_t)> a_at_, r_at_, p_at_;  // element i of A, r, p
};

}  // namespace gpusc
