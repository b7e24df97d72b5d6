// Gemm: C = A B (A m x k, B k x n, row-major floats) with shared-memory tiling, the kernel of
// the CUDA SDK matrixMul sample and Parboil's sgemm family (PolyBench/GPU's GEMM computes the
// same product without tiling, and adds beta * C).
// Access pattern: a CTA of tile x tile threads computes one tile x tile block of C. For each of
// the ceil(k / tile) k-tiles, thread (tx, ty) loads A[row][kt*tile + tx] and
// B[kt*tile + ty][col] once (rows of the tile: coalesced), so every CTA reads its A row-panel
// and B column-panel exactly once; then tile steps of two shared-memory loads and one FFMA
// follow, between two barriers. Finally C[row][col] is stored once.
// Choices: shared-memory loads and stores and __syncthreads are Compute instructions (no
// global traffic; barriers are not otherwise represented in the stream); out-of-range
// elements of edge tiles are not loaded (the shared tile is zero-filled, as the bounds-checked
// variant of matrixMul does) and not stored. Addresses do not depend on values.
// Default: 640 x 640 x 640, 16 x 16 tiles: footprint 4.7 MiB (9.4 x a 512 KB L2), 1600 CTAs,
// ~28M warp instructions. The smallest square size whose footprint passes 8 x the L2 in steps of
// 128 (PolyBench/GPU's 512^3 is 3 MiB; 1024^3 takes ~8x longer to simulate than 512^3).
// size=small: 128 x 128 x 128 (192 KiB, ~230k instructions).
// Values (kernel.h): A and B hold hashed floats in [0, 1) (a_value, b_value: the random
// matrices of the CUDA samples' matrixMul), C starts at 0; the store writes C[row][col] = the
// float sum of A[row][i] * B[i][col] for i = 0 .. k-1 in order (the kernel's own result).
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class GemmWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned m = 640;    // rows of A and C
    unsigned n = 640;    // columns of B and C
    unsigned k = 640;    // columns of A = rows of B
    unsigned tile = 16;  // tile side = CTA side [threads]
    // size=small (tests, demos): 128 x 128 x 128.
    static Params small() {
      Params p;
      p.m = p.n = p.k = 128;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(m, 1, 1 << 16, "rows of A and C");
      GPUSC_PARAM_R(n, 1, 1 << 16, "columns of B and C");
      GPUSC_PARAM_R(k, 1, 1 << 16, "columns of A = rows of B");
      GPUSC_PARAM_R(tile, 1, 32, "tile side = CTA side [threads]; tile * tile threads per CTA");
    }
  };

  explicit GemmWorkload(const Params& p);
  bool has_values() const override { return true; }
  static float a_value(uint64_t i) { return AddressSpace::hashed_unit(0x6e1a, i); }
  static float b_value(uint64_t i) { return AddressSpace::hashed_unit(0x6e1b, i); }
  struct Data;  // what the streams share (defined in the .cpp)

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
