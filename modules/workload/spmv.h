// SpMV: y = A x for a CSR matrix, the CSR-scalar kernel (one thread per row) of Bell & Garland
// (SC'09) and SHOC's spmv_csr_scalar; Parboil's spmv computes the same product in JDS form.
// Access pattern as the original: thread r loads row_ptr[r] and row_ptr[r+1], then per
// nonzero e of its row col_idx[e], vals[e] and x[col_idx[e]] (a gather), and stores y[r].
// Lanes of a warp walk rows of different lengths in lock step: iteration j is executed by the
// lanes whose row has more than j entries (divergence as on the GPU), so the loads of one
// instruction are 4*row-length bytes apart (poorly coalesced), as in the real kernel.
// Choices: 4-byte indices and floats; a pattern matrix still has a vals array (all ones).
// Values (kernel.h): row_ptr, col_idx and vals are the matrix's CSR arrays, x[i] = x_value(i)
// (a hashed float in [0, 1), as SHOC fills x with random values), y starts at 0; the store writes
// y[r] = sum of vals[e] * x[col_idx[e]] in float, in the row's order (the kernel's own result).
// Default input: a uniform random 131072 x 131072 matrix with 8 entries per row (1M nonzeros):
// footprint 9.5 MiB, x alone 512 KiB (the whole L2), ~190k warp instructions. size=small: 16384
// x 16384, 16 per row (2.2 MiB, ~45k instructions).
#pragma once
#include <memory>

#include "workload/graph_input.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class SpmvWorkload : public SequenceWorkload {
 public:
  struct Params : GraphInputParams {
    unsigned threads_per_cta = 256;  // CTA size [threads]
    Params() {
      generator = "uniform";
      rows = 131072;
      nnz_per_row = 8;
    }
    // size=small (tests, demos): uniform random 16384 x 16384, 16 entries per row.
    static Params small() {
      Params p;
      p.generator = "uniform";
      p.rows = 16384;
      p.nnz_per_row = 16;
      return p;
    }
    template <class F> static void describe(F&& f) {
      GraphInputParams::describe(f);
      using S = Params;
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };

  SpmvWorkload(const Params& p, std::shared_ptr<const CsrGraph> matrix);
  bool has_values() const override { return true; }
  static float x_value(uint64_t i);  // x[i]
  struct Data;  // what the streams share (defined in the .cpp)

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
