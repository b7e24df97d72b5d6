// Synthetic graphs and sparse matrices for the workload models, deterministic under a seed
// (SeededRng: std::mt19937_64 with hand-written range reduction).
//   * R-MAT (Chakrabarti, Zhan, Faloutsos, SDM 2004; the Graph500 generator's core): 2^scale
//     vertices, edge_factor * 2^scale arcs, each placed by `scale` recursive quadrant choices
//     with probabilities a (top left), b (top right), c (bottom left), d (bottom right).
//     Choices: no per-level noise and no vertex permutation (vertex 0 is the hub); raw output
//     keeps duplicate arcs and self loops, options drop them or add the reverse arcs.
//   * 2-D grid: rows x cols vertices, id = r * cols + c, arcs to the 4 neighbours (N, W, E, S).
//   * banded matrix: n x n, entry (i, j) for every |i - j| <= half_bandwidth.
//   * uniform random sparse: n x cols, exactly nnz_per_row distinct uniformly drawn columns
//     per row.
// Matrices carry values uniform in [-1, 1); graphs are patterns.
#pragma once
#include <cstdint>

#include "workload/csr_graph.h"

namespace gpusc {

struct RmatOptions {
  unsigned scale = 12;        // log2 of the vertex count
  unsigned edge_factor = 8;   // arcs per vertex generated
  double a = 0.57, b = 0.19, c = 0.19, d = 0.05;  // quadrant probabilities, sum 1
  bool symmetrize = false;    // add the reverse of every arc (then duplicates are removed)
  bool dedup = false;         // remove duplicate arcs
  bool keep_self_loops = true;
};

CsrGraph rmat_graph(const RmatOptions& opt, uint64_t seed);
CsrGraph grid2d_graph(unsigned rows, unsigned cols);
CsrGraph banded_matrix(unsigned n, unsigned half_bandwidth, uint64_t seed);
CsrGraph uniform_random_matrix(unsigned rows, unsigned cols, unsigned nnz_per_row, uint64_t seed);

}  // namespace gpusc
