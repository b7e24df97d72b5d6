// Polybench2mm ("2mm"): D = alpha * A * B * C + beta * D, PolyBench/GPU's 2MM (paper 000's
// P-2MM), two launches as in the original:
//   kernel1: tmp[i][j] = sum_k alpha * A[i][k] * B[k][j]   (tmp = 0 first; ni x nj, over nk)
//   kernel2: D[i][l] = beta * D[i][l] + sum_j tmp[i][j] * C[j][l]   (ni x nl, over nj)
// One thread per output element, 32 x 8 CTAs, no shared-memory tiling: each thread walks a row
// of the left matrix (broadcast loads) and a column of the right one (coalesced row segments);
// kernel 2 reads tmp, which kernel 1 wrote. See naive_matmul.h for the mapping and choices.
// Default: ni = nj = nk = nl = 512 (PolyBench/GPU's 3MM size; its 2MM uses 2048, 64 times the
// work): footprint 5 MiB (10 x a 512 KB L2), 1024 CTAs per launch, ~38M warp instructions.
// size=small: 96 everywhere (180 KiB, 36 CTAs per launch, ~250k instructions).
// Values (kernel.h): PolyBench/GPU 2mm's init_array, A[i][k] = i k / ni, B[k][j] = k (j + 1) / nj,
// C[j][l] = j (l + 3) / nl, D[i][l] = i (l + 2) / nk (floats), tmp 0; alpha and beta of its gemm
// (32412, 2123: the choice, since this model keeps alpha and beta); the stores carry what the
// threads compute (naive_matmul.h), kernel 2 from kernel 1's tmp (host-computed).
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"
#include "workload/naive_matmul.h"

namespace gpusc {

class Polybench2mmWorkload : public SequenceWorkload {
 public:
  struct Params : NaiveMatmulOptions {
    unsigned ni = 512;  // rows of A, tmp and D
    unsigned nj = 512;  // columns of B and tmp = rows of C
    unsigned nk = 512;  // columns of A = rows of B
    unsigned nl = 512;  // columns of C and D
    // size=small (tests, demos): 96 everywhere.
    static Params small() {
      Params p;
      p.ni = p.nj = p.nk = p.nl = 96;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(ni, 1, 1 << 16, "rows of A, tmp and D");
      GPUSC_PARAM_R(nj, 1, 1 << 16, "columns of B and tmp = rows of C");
      GPUSC_PARAM_R(nk, 1, 1 << 16, "columns of A = rows of B");
      GPUSC_PARAM_R(nl, 1, 1 << 16, "columns of C and D");
      NaiveMatmulOptions::describe(f);
    }
  };

  explicit Polybench2mmWorkload(const Params& p);
  bool has_values() const override { return true; }

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  Params p_;
  uint64_t a_ = 0, b_ = 0, tmp_ = 0, c_ = 0, d_ = 0;
  std::function<float(uint64_t)> a_at_, b_at_, c_at_, d_at_;  // initial contents
  std::shared_ptr<const std::vector<float>> tmp_val_;         // kernel 1's result (values on)
};

}  // namespace gpusc
