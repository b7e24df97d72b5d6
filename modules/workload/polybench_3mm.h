// Polybench3mm ("3mm"): G = (A * B) * (C * D), PolyBench/GPU's 3MM (paper 000's P-3MM), three
// launches as in the original:
//   kernel1: E[i][j] = sum_k A[i][k] * B[k][j]   (ni x nj, over nk)
//   kernel2: F[j][l] = sum_m C[j][m] * D[m][l]   (nj x nl, over nm)
//   kernel3: G[i][l] = sum_j E[i][j] * F[j][l]   (ni x nl, over nj; reads what 1 and 2 wrote)
// Every output starts at 0 (no alpha, beta). One thread per output element, 32 x 8 CTAs, no
// shared-memory tiling; see naive_matmul.h for the mapping and the choices.
// Default: ni = nj = nk = nl = nm = 512 (PolyBench/GPU's size): footprint 7 MiB (14 x a 512 KB
// L2), 1024 CTAs per launch, ~50M warp instructions. size=small: 96 everywhere (252 KiB, 36
// CTAs per launch, ~330k instructions).
// Values (kernel.h): PolyBench/GPU 3mm's init_array, A[i][k] = i k / ni, B[k][j] = k (j + 1) / nj,
// C[j][m] = j (m + 3) / nl, D[m][l] = m (l + 2) / nk (floats), E, F, G 0; the stores carry what
// the threads compute (naive_matmul.h), kernel 3 from kernels 1 and 2's E and F (host-computed).
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"
#include "workload/naive_matmul.h"

namespace gpusc {

class Polybench3mmWorkload : public SequenceWorkload {
 public:
  struct Params : NaiveMatmulOptions {
    unsigned ni = 512;  // rows of A, E and G
    unsigned nj = 512;  // columns of B and E = rows of C and F
    unsigned nk = 512;  // columns of A = rows of B
    unsigned nl = 512;  // columns of D, F and G
    unsigned nm = 512;  // columns of C = rows of D
    // size=small (tests, demos): 96 everywhere.
    static Params small() {
      Params p;
      p.ni = p.nj = p.nk = p.nl = p.nm = 96;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(ni, 1, 1 << 16, "rows of A, E and G");
      GPUSC_PARAM_R(nj, 1, 1 << 16, "columns of B and E = rows of C and F");
      GPUSC_PARAM_R(nk, 1, 1 << 16, "columns of A = rows of B");
      GPUSC_PARAM_R(nl, 1, 1 << 16, "columns of D, F and G");
      GPUSC_PARAM_R(nm, 1, 1 << 16, "columns of C = rows of D");
      NaiveMatmulOptions::describe(f);
    }
  };

  explicit Polybench3mmWorkload(const Params& p);
  bool has_values() const override { return true; }

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  Params p_;
  uint64_t a_ = 0, b_ = 0, c_ = 0, d_ = 0, e_ = 0, f_ = 0, g_ = 0;
  std::function<float(uint64_t)> a_at_, b_at_, c_at_, d_at_;  // initial contents of the inputs
  std::shared_ptr<const std::vector<float>> e_val_, f_val_;   // kernels 1 and 2's results (values on)
};

}  // namespace gpusc
