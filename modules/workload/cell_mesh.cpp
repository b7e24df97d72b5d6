#include "workload/cell_mesh.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {
namespace {

// The 6 permutations of the axes (0 = x, 1 = y, 2 = z) in lexicographic order.
constexpr unsigned kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

unsigned perm_index(unsigned a, unsigned b, unsigned c) {
  for (unsigned p = 0; p < 6; ++p)
    if (kPerm[p][0] == a && kPerm[p][1] == b && kPerm[p][2] == c) return p;
  return 6;
}

}  // namespace

CellMesh box_tet_mesh(unsigned nx, unsigned ny, unsigned nz) {
  if (nx == 0 || ny == 0 || nz == 0) error("gpusc.workload", "box_tet_mesh: empty box ", nx, " x ", ny, " x ", nz);
  auto wing = [&](const int q[3]) {
    return q[0] >= int(nx / 4) && q[0] < int(3 * nx / 4) && q[1] == int(ny / 2) && q[2] < int(2 * nz / 3);
  };
  auto inside = [&](const int q[3]) {
    return q[0] >= 0 && q[1] >= 0 && q[2] >= 0 && q[0] < int(nx) && q[1] < int(ny) && q[2] < int(nz);
  };
  const uint64_t cubes = uint64_t(nx) * ny * nz;
  std::vector<int64_t> first(cubes, -1);  // id of tetrahedron 0 of each kept cube
  CellMesh m;
  m.nnb = 4;
  for (uint64_t k = 0; k < cubes; ++k) {
    const int q[3] = {int(k % nx), int(k / nx % ny), int(k / nx / ny)};
    if (!wing(q)) first[k] = m.cells, m.cells += 6;
  }
  m.nb.assign(uint64_t(m.cells) * 4, 0);
  auto cube_id = [&](const int q[3]) { return uint64_t(q[0]) + nx * (uint64_t(q[1]) + ny * uint64_t(q[2])); };
  for (uint64_t k = 0; k < cubes; ++k) {
    if (first[k] < 0) continue;
    const int q[3] = {int(k % nx), int(k / nx % ny), int(k / nx / ny)};
    for (unsigned p = 0; p < 6; ++p) {
      const unsigned a = kPerm[p][0], b = kPerm[p][1], c = kPerm[p][2];
      for (unsigned f = 0; f < 4; ++f) {
        int r[3] = {q[0], q[1], q[2]};
        unsigned np;
        if (f == 0) r[a] += 1, np = perm_index(b, c, a);       // drop vertex 0: next cube along a
        else if (f == 3) r[c] -= 1, np = perm_index(c, a, b);  // drop vertex 7: cube before along c
        else if (f == 1) np = perm_index(b, a, c);             // drop e_a: swap a, b
        else np = perm_index(a, c, b);                         // drop e_a + e_b: swap b, c
        int32_t v;
        if (!inside(r)) v = CellMesh::kFarField;
        else if (wing(r)) v = CellMesh::kWall;
        else v = int32_t(first[cube_id(r)] + np);
        m.nb[(uint64_t(first[k]) + p) * 4 + f] = v;
      }
    }
  }
  return m;
}

CellMesh pattern_mesh(const CsrGraph& g) {
  if (g.rows != g.cols) error("gpusc.workload", "cfd: a mesh pattern must be square, got ", g.rows, " x ", g.cols);
  CellMesh m;
  m.cells = g.rows;
  for (uint32_t i = 0; i < g.rows; ++i) {
    unsigned d = 0;
    for (uint32_t e = g.row_ptr[i]; e < g.row_ptr[i + 1]; ++e) d += g.col_idx[e] != i;
    m.nnb = std::max(m.nnb, d);
  }
  if (m.nnb == 0) error("gpusc.workload", "cfd: the mesh pattern has no off-diagonal entries");
  m.nb.assign(uint64_t(m.cells) * m.nnb, CellMesh::kWall);
  for (uint32_t i = 0; i < g.rows; ++i) {
    unsigned j = 0;
    for (uint32_t e = g.row_ptr[i]; e < g.row_ptr[i + 1]; ++e)
      if (g.col_idx[e] != i) m.nb[uint64_t(i) * m.nnb + j++] = int32_t(g.col_idx[e]);
  }
  return m;
}

}  // namespace gpusc
