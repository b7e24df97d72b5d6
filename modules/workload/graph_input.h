// GraphInputParams: where a graph or sparse-matrix kernel (BFS, SSSP, PageRank, SpMV) gets its
// input: a file ("input": "*.mtx" = Matrix Market, "*.txt" / "*.el" / "*.edges" / "*.edgelist"
// = SNAP edge list) or, when "input" is empty, one of the generators. The kernels' Params
// derive from it, so these keys sit next to each kernel's own keys; GraphSearchParams adds a
// search's source and CTA size (BFS, SSSP).
// Choices: R-MAT output is always deduplicated here (repeated arcs only repeat work);
// `symmetrize` and `keep_self_loops` apply to every source, after reading or generating.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "common/params.h"
#include "workload/csr_graph.h"

namespace gpusc {

struct GraphInputParams {
  std::string input = "";           // input file; empty = generate
  std::string generator = "rmat";   // generator used when input is empty
  bool symmetrize = false;          // make the graph undirected (union with the reverse arcs)
  bool keep_self_loops = true;      // keep (v, v) entries
  unsigned scale = 12;              // rmat: log2 of the vertex count
  unsigned edge_factor = 8;         // rmat: arcs generated per vertex
  double rmat_a = 0.57, rmat_b = 0.19, rmat_c = 0.19, rmat_d = 0.05;  // rmat: quadrant probabilities
  unsigned grid_rows = 64, grid_cols = 64;  // grid: vertices per column / per row
  unsigned rows = 4096;             // banded, uniform: matrix rows (= columns)
  unsigned half_bandwidth = 8;      // banded: entries with |i - j| <= half_bandwidth
  unsigned nnz_per_row = 16;        // uniform: entries per row

  template <class F> static void describe(F&& f) {
    using S = GraphInputParams;
    GPUSC_PARAM(input, "input file: .mtx (Matrix Market) or .txt/.el/.edges/.edgelist (SNAP edge list); empty = generate");
    GPUSC_PARAM_C(generator, "rmat|grid|banded|uniform", "generator used when input is empty");
    GPUSC_PARAM(symmetrize, "add the reverse of every arc (duplicates removed)");
    GPUSC_PARAM(keep_self_loops, "keep (v, v) entries");
    GPUSC_PARAM_R(scale, 1, 26, "rmat: log2 of the vertex count");
    GPUSC_PARAM_R(edge_factor, 1, 64, "rmat: arcs generated per vertex [count]");
    GPUSC_PARAM_R(rmat_a, 0, 1, "rmat: probability of the top-left quadrant");
    GPUSC_PARAM_R(rmat_b, 0, 1, "rmat: probability of the top-right quadrant");
    GPUSC_PARAM_R(rmat_c, 0, 1, "rmat: probability of the bottom-left quadrant");
    GPUSC_PARAM_R(rmat_d, 0, 1, "rmat: probability of the bottom-right quadrant");
    GPUSC_PARAM_R(grid_rows, 1, 1 << 14, "grid: rows of the 2-D grid [vertices]");
    GPUSC_PARAM_R(grid_cols, 1, 1 << 14, "grid: columns of the 2-D grid [vertices]");
    GPUSC_PARAM_R(rows, 1, 1 << 24, "banded, uniform: matrix rows = columns");
    GPUSC_PARAM_R(half_bandwidth, 0, 1 << 20, "banded: half bandwidth [entries]");
    GPUSC_PARAM_R(nnz_per_row, 1, 1 << 16, "uniform: entries per row [count]");
  }
};

// A search from one source vertex (BFS, SSSP): the input graph (bfs's uniform random one by
// default, symmetrized), the source and the CTA size. The kernels' Params derive from it.
struct GraphSearchParams : GraphInputParams {
  unsigned source = 0;                // source vertex (source_from = index)
  std::string source_from = "index";  // index: `source`; max-degree: the vertex with the most arcs
  unsigned threads_per_cta = 256;     // CTA size [threads]
  GraphSearchParams() {
    symmetrize = true;
    generator = "uniform";
    rows = 1u << 18;
    nnz_per_row = 3;
  }
  template <class F> static void describe(F&& f) {
    GraphInputParams::describe(f);
    using S = GraphSearchParams;
    GPUSC_PARAM(source, "source vertex of the search (source_from = index)");
    GPUSC_PARAM_C(source_from, "index|max-degree",
                  "index: the vertex `source`; max-degree: the vertex with the most arcs, the lowest id on a tie "
                  "(paper 004 Table 2 starts its bfs there)");
    GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
  }
};

// Checks that g is a square adjacency matrix and returns the search's source vertex (p.source, or
// the vertex with the most arcs for source_from = max-degree, the lowest id on a tie); errors
// name `who` (e.g. "bfs").
uint32_t search_source(const GraphSearchParams& p, const CsrGraph& g, const std::string& who);

// The graph described by `p` (file or generator, then symmetrize / self-loop filtering).
// `who` names the workload in error messages (e.g. "bfs").
std::shared_ptr<const CsrGraph> load_graph_input(const GraphInputParams& p, uint64_t seed,
                                                 const std::string& who);

}  // namespace gpusc
