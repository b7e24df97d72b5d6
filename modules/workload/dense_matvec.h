// DenseMatvec: the dense matrix-vector kernel PolyBench/GPU's ATAX and BICG are made of, one
// thread per output element, a loop over the reduction dimension.
//   * by_row:    out[i] = sum_j A[i][j] * vec[j]  (thread per row of A: at each step the lanes
//                load A elements `cols` floats apart, uncoalesced; vec[j] is one address for all
//                lanes, a broadcast)
//   * by_column: out[j] = sum_i A[i][j] * vec[i]  (thread per column: the lanes load a row
//                segment of A, coalesced; vec[i] broadcast)
// A is rows x cols, row-major floats; the thread stores out[t] once after its loop.
// Choice: the running sum lives in a register (the PolyBench/GPU source accumulates into the
// global output inside the loop; with restrict-qualified pointers nvcc keeps it in a register).
#pragma once
#include "common/params.h"
#include <cstdint>
#include <functional>
#include <vector>
#include <memory>
#include <string>

#include "workload/kernel.h"

namespace gpusc {

// Shape of the nx x ny matrix A shared by the PolyBench matrix-vector workloads (ATAX, BICG).
// Default: PolyBench 4.2's LARGE_DATASET for both (M = 1900, N = 2100): A is 15.2 MiB.
struct MatrixShapeParams {
  unsigned nx = 1900;              // rows of A
  unsigned ny = 2100;              // columns of A
  unsigned threads_per_cta = 256;  // CTA size [threads]
  // size=small (tests, demos): 1024 x 1024.
  static MatrixShapeParams small() {
    MatrixShapeParams p;
    p.nx = p.ny = 1024;
    return p;
  }
  template <class F> static void describe(F&& f) {
    using S = MatrixShapeParams;
    GPUSC_PARAM_R(nx, 1, 1 << 16, "rows of A");
    GPUSC_PARAM_R(ny, 1, 1 << 16, "columns of A");
    GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
  }
};

struct DenseMatvecSpec {
  std::string name;           // kernel name, e.g. "atax.kernel1"
  unsigned rows = 0, cols = 0;  // shape of A
  bool by_column = false;     // false: thread per row; true: thread per column
  unsigned threads_per_cta = 256;
  uint64_t a = 0, vec = 0, out = 0;  // array bases
  // Values (kernel.h): the output the thread stores, out[t] (host-computed), or null: no store data.
  std::shared_ptr<const std::vector<float>> result;
};

// The output of a DenseMatvecSpec as its threads compute it (float sums in loop order), for A and
// vec given as element functions.
std::vector<float> dense_matvec_result(unsigned rows, unsigned cols, bool by_column,
                                       const std::function<float(uint64_t)>& a,
                                       const std::function<float(uint64_t)>& vec);

std::unique_ptr<Kernel> make_dense_matvec_kernel(const DenseMatvecSpec& spec);

}  // namespace gpusc
