// PolybenchGemm ("polybench-gemm"): C = alpha * A * B + beta * C, PolyBench/GPU's GEMM (paper
// 000's P-GEMM): one thread per element of C, 32 x 8 CTAs, no shared-memory tiling. Each
// thread loads C[i][j] once (C *= beta), then for k = 0..nk-1 loads A[i][k] (broadcast over
// the warp) and B[k][j] (coalesced), FMUL by alpha, FFMA; stores C[i][j]. See naive_matmul.h for
// the mapping and the choices (accumulation in a register unless accumulate_in_memory). The
// tiled CUDA-SDK kernel is `gemm` (gemm.h).
// Default: 640 x 640 x 640 (PolyBench/GPU: 512^3 = 3 MiB, 6 x the L2; 640 is the next step of
// 128 past 8 x): footprint 4.7 MiB (9.4 x a 512 KB L2), 1600 CTAs, ~41M warp instructions.
// size=small: 128^3 (192 KiB, 64 CTAs, ~330k instructions).
// Values (kernel.h): PolyBench/GPU gemm's init_array, A[i][k] = i k / ni, B[k][j] = k j / ni,
// C[i][j] = i j / ni (floats), alpha = 32412, beta = 2123; the store carries C as the threads
// compute it (naive_matmul.h).
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"
#include "workload/naive_matmul.h"

namespace gpusc {

class PolybenchGemmWorkload : public SequenceWorkload {
 public:
  struct Params : NaiveMatmulOptions {
    unsigned ni = 640;  // rows of A and C
    unsigned nj = 640;  // columns of B and C
    unsigned nk = 640;  // columns of A = rows of B
    // size=small (tests, demos): 128^3.
    static Params small() {
      Params p;
      p.ni = p.nj = p.nk = 128;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(ni, 1, 1 << 16, "rows of A and C");
      GPUSC_PARAM_R(nj, 1, 1 << 16, "columns of B and C");
      GPUSC_PARAM_R(nk, 1, 1 << 16, "columns of A = rows of B");
      NaiveMatmulOptions::describe(f);
    }
  };

  explicit PolybenchGemmWorkload(const Params& p);
  bool has_values() const override { return true; }

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  Params p_;
  uint64_t a_ = 0, b_ = 0, c_ = 0;
  std::function<float(uint64_t)> a_at_, b_at_, c_at_;  // initial contents of A, B, C
};

}  // namespace gpusc
