#include "workload/graph_generators.h"

#include <algorithm>
#include <cmath>

#include "common/report.h"
#include "workload/seeded_rng.h"

namespace gpusc {
namespace {
constexpr const char* kWho = "gpusc.workload.generator";
float random_value(SeededRng& rng) { return static_cast<float>(2.0 * rng.uniform() - 1.0); }
}  // namespace

CsrGraph rmat_graph(const RmatOptions& o, uint64_t seed) {
  if (o.scale < 1 || o.scale > 30) error(kWho, "R-MAT scale ", o.scale, " is outside [1, 30]");
  if (o.a < 0 || o.b < 0 || o.c < 0 || o.d < 0 || std::fabs(o.a + o.b + o.c + o.d - 1.0) > 1e-6)
    error(kWho, "R-MAT probabilities a=", o.a, " b=", o.b, " c=", o.c, " d=", o.d,
          " must be non-negative and sum to 1");
  const uint64_t n = uint64_t(1) << o.scale;
  const uint64_t m = n * o.edge_factor;
  if (m > UINT32_MAX) error(kWho, "R-MAT with ", m, " arcs exceeds the 32-bit index limit");
  SeededRng rng(seed);
  std::vector<CooEntry> arcs;
  arcs.reserve(m);
  const double ab = o.a + o.b, abc = o.a + o.b + o.c;
  for (uint64_t i = 0; i < m; ++i) {
    uint32_t u = 0, v = 0;
    for (unsigned l = 0; l < o.scale; ++l) {
      const double r = rng.uniform();
      const uint32_t down = r >= ab, right = (r >= o.a && r < ab) || r >= abc;
      u = (u << 1) | down;
      v = (v << 1) | right;
    }
    if (u == v && !o.keep_self_loops) continue;
    arcs.push_back(CooEntry{u, v, 1.0f});
  }
  CsrGraph g = CsrGraph::from_coo(uint32_t(n), uint32_t(n), std::move(arcs), false, o.dedup);
  return o.symmetrize ? g.symmetrized() : g;
}

CsrGraph grid2d_graph(unsigned rows, unsigned cols) {
  const uint64_t n = uint64_t(rows) * cols;
  if (n > UINT32_MAX / 4) error(kWho, "grid ", rows, " x ", cols, " is too large");
  CsrGraph g;
  g.rows = g.cols = static_cast<uint32_t>(n);
  g.row_ptr.assign(n + 1, 0);
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c) {
      const uint32_t id = r * cols + c;
      if (r > 0) g.col_idx.push_back(id - cols);
      if (c > 0) g.col_idx.push_back(id - 1);
      if (c + 1 < cols) g.col_idx.push_back(id + 1);
      if (r + 1 < rows) g.col_idx.push_back(id + cols);
      g.row_ptr[id + 1] = static_cast<uint32_t>(g.col_idx.size());
    }
  return g;
}

CsrGraph banded_matrix(unsigned n, unsigned half_bandwidth, uint64_t seed) {
  SeededRng rng(seed);
  CsrGraph g;
  g.rows = g.cols = n;
  g.row_ptr.assign(size_t(n) + 1, 0);
  for (unsigned i = 0; i < n; ++i) {
    const unsigned lo = i > half_bandwidth ? i - half_bandwidth : 0;
    const unsigned hi = std::min<uint64_t>(uint64_t(i) + half_bandwidth, n - 1);
    for (unsigned j = lo; j <= hi; ++j) {
      g.col_idx.push_back(j);
      g.values.push_back(random_value(rng));
    }
    if (g.col_idx.size() > UINT32_MAX) error(kWho, "banded matrix exceeds the 32-bit index limit");
    g.row_ptr[i + 1] = static_cast<uint32_t>(g.col_idx.size());
  }
  return g;
}

CsrGraph uniform_random_matrix(unsigned rows, unsigned cols, unsigned nnz_per_row, uint64_t seed) {
  if (nnz_per_row > cols)
    error(kWho, "uniform random matrix: nnz_per_row ", nnz_per_row, " exceeds the ", cols, " columns");
  if (uint64_t(rows) * nnz_per_row > UINT32_MAX) error(kWho, "uniform random matrix exceeds the 32-bit index limit");
  SeededRng rng(seed);
  CsrGraph g;
  g.rows = rows;
  g.cols = cols;
  g.row_ptr.assign(size_t(rows) + 1, 0);
  std::vector<uint32_t> pick;
  for (unsigned i = 0; i < rows; ++i) {
    // Floyd's sampling: nnz_per_row distinct columns, each subset equally likely.
    pick.clear();
    for (uint64_t j = cols - nnz_per_row; j < cols; ++j) {
      const auto t = static_cast<uint32_t>(rng.below(j + 1));
      pick.push_back(std::find(pick.begin(), pick.end(), t) == pick.end() ? t : static_cast<uint32_t>(j));
    }
    std::sort(pick.begin(), pick.end());
    for (uint32_t c : pick) {
      g.col_idx.push_back(c);
      g.values.push_back(random_value(rng));
    }
    g.row_ptr[i + 1] = static_cast<uint32_t>(g.col_idx.size());
  }
  return g;
}

}  // namespace gpusc
