#include "workload/graph_input.h"

#include "common/report.h"
#include "workload/edge_list_reader.h"
#include "workload/graph_generators.h"
#include "workload/matrix_market_reader.h"

namespace gpusc {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

CsrGraph read_input(const GraphInputParams& p, const std::string& who) {
  if (ends_with(p.input, ".mtx")) return read_matrix_market(p.input);
  for (const char* ext : {".txt", ".el", ".edges", ".edgelist"})
    if (ends_with(p.input, ext)) return read_edge_list(p.input);
  error("gpusc.workload", who, ".input = \"", p.input,
        "\": unknown file type; use .mtx (Matrix Market) or .txt, .el, .edges, .edgelist (SNAP edge list)");
}

CsrGraph generate(const GraphInputParams& p, uint64_t seed, const std::string& who) {
  if (p.generator == "rmat") {
    const double sum = p.rmat_a + p.rmat_b + p.rmat_c + p.rmat_d;
    if (sum < 1 - 1e-6 || sum > 1 + 1e-6)
      error("gpusc.workload", who, ".rmat_a + rmat_b + rmat_c + rmat_d = ", sum, "; the four must sum to 1");
    RmatOptions o;
    o.scale = p.scale;
    o.edge_factor = p.edge_factor;
    o.a = p.rmat_a;
    o.b = p.rmat_b;
    o.c = p.rmat_c;
    o.d = p.rmat_d;
    o.dedup = true;
    return rmat_graph(o, seed);
  }
  if (p.generator == "grid") return grid2d_graph(p.grid_rows, p.grid_cols);
  if (p.generator == "banded") return banded_matrix(p.rows, p.half_bandwidth, seed);
  return uniform_random_matrix(p.rows, p.rows, p.nnz_per_row, seed);
}

}  // namespace

std::shared_ptr<const CsrGraph> load_graph_input(const GraphInputParams& p, uint64_t seed,
                                                 const std::string& who) {
  CsrGraph g = p.input.empty() ? generate(p, seed, who) : read_input(p, who);
  if (g.rows == 0 || g.nnz() == 0)
    error("gpusc.workload", who, p.input.empty() ? ": the generated graph" : ".input = \"" + p.input + "\"", " has ",
          g.rows, " vertices and ", g.nnz(), " edges; a kernel needs at least one edge");
  if (!p.keep_self_loops) g = g.without_self_loops();
  if (p.symmetrize) g = g.symmetrized();
  return std::make_shared<const CsrGraph>(std::move(g));
}

uint32_t search_source(const GraphSearchParams& p, const CsrGraph& g, const std::string& who) {
  if (g.rows != g.cols)
    error("gpusc.workload", who, ": the graph must be square (adjacency matrix), got ", g.rows, " x ", g.cols);
  uint32_t source = p.source;
  if (p.source_from == "max-degree") {
    source = 0;
    for (uint32_t v = 1; v < g.rows; ++v)
      if (g.degree(v) > g.degree(source)) source = v;
  }
  if (source >= g.rows)
    error("gpusc.workload", who, ".source = ", source, " is out of range [0, ", g.rows, ") for a graph of ", g.rows,
          " vertices");
  return source;
}

}  // namespace gpusc
