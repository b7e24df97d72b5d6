// NaiveMatmul: the matrix-multiply kernel PolyBench/GPU's GEMM, 2MM and 3MM are made of, one
// thread per output element and no shared-memory tiling:
//   out[i][j] = init + sum_k (alpha *) a[i][k] * b[k][j]
// with 2-D CTAs of block_x x block_y threads (PolyBench/GPU: 32 x 8), j = blockIdx.x *
// blockDim.x + threadIdx.x (columns along x, so along the lanes) and i = blockIdx.y *
// blockDim.y + threadIdx.y; threads with i >= rows or j >= cols skip the body.
// Access pattern: at step k a warp (one row i, 32 consecutive columns j) loads a[i][k] (the
// same address on every lane: a broadcast) and b[k][j..j+31] (a coalesced row segment). Every
// CTA of a block row reads the same rows of a, every CTA of a block column the same columns of
// b, straight from global memory: the inter-core locality of paper 000's P-GEMM, P-2MM and
// P-3MM (the tiled kernel, gemm.h, reads each panel once per CTA through shared memory).
// Init: Zero (out = 0 first: 2MM kernel 1, 3MM) or Beta (out *= beta first: one load of out).
// Choices: the running value lives in a register and out is stored once at the end (as
// dense_matvec.h); with accumulate_in_memory the store happens every step, as nvcc has to
// compile PolyBench's `C[i*NJ+j] += ...` when it cannot prove that C does not alias A or B
// (the value itself stays in a register: a store per step, no reload). alpha * a * b is an FMUL
// and an FFMA (floating point does not let the compiler hoist alpha out of the sum).
// Addresses do not depend on values. Values (kernel.h): with `values` set the warps compute the
// running value of each output element as the GPU does, from a_at / b_at (and out_at, the
// output's initial contents, for Init::Beta): acc = beta * out (or 0), then per k
// acc = fma(alpha * a, b, acc) (FMUL, FFMA; without alpha fma(a, b, acc)), and every store
// carries acc. naive_matmul_result() is the same computation on the host (a later launch that
// reads this output takes its contents from it).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/params.h"
#include "workload/kernel.h"

namespace gpusc {

// Launch shape and code-generation choices shared by polybench-gemm, 2mm and 3mm.
struct NaiveMatmulOptions {
  unsigned block_x = 32;              // CTA width = columns per CTA [threads]
  unsigned block_y = 8;               // CTA height = rows per CTA [threads]
  bool accumulate_in_memory = false;  // store out every step (no-restrict codegen) instead of once
  template <class F> static void describe(F&& f) {
    using S = NaiveMatmulOptions;
    GPUSC_PARAM_R(block_x, 1, 1024, "CTA width = output columns per CTA [threads]");
    GPUSC_PARAM_R(block_y, 1, 1024, "CTA height = output rows per CTA [threads]");
    GPUSC_PARAM(accumulate_in_memory, "store the output element every k step (PolyBench's source without restrict) "
                                      "instead of once at the end");
  }
};

struct NaiveMatmulSpec {
  std::string name;                      // kernel name, e.g. "2mm.kernel1"
  unsigned rows = 0, cols = 0, inner = 0;  // out is rows x cols, a rows x inner, b inner x cols
  enum class Init { Zero, Beta } init = Init::Zero;
  bool alpha = false;                    // multiply every product by alpha (an extra FMUL)
  NaiveMatmulOptions opt;
  uint64_t a = 0, b = 0, out = 0;        // array bases (row-major floats)
  // Values: element e of a (rows x inner), b (inner x cols) and out's initial contents (Beta).
  bool values = false;
  std::function<float(uint64_t)> a_at, b_at, out_at;
  float alpha_value = 1.0f, beta_value = 1.0f;
};

std::unique_ptr<Kernel> make_naive_matmul_kernel(const NaiveMatmulSpec& spec);
// The output the kernel stores (rows x cols, row-major), computed as its threads do; needs
// a_at, b_at (and out_at for Init::Beta).
std::vector<float> naive_matmul_result(const NaiveMatmulSpec& spec);

// PolyBench's init_array form for the naive products' inputs: element (i, j) of an array with
// `cols` columns is (i * (j + shift)) / n, in float.
std::function<float(uint64_t)> polybench_init(uint64_t cols, unsigned shift, unsigned n);
// alpha and beta of PolyBench/GPU's gemm.cu, which the gemm, 2mm and 3mm models use.
constexpr float kPolybenchAlpha = 32412.0f, kPolybenchBeta = 2123.0f;

}  // namespace gpusc
