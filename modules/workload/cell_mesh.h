// CellMesh: the element-neighbour table of an unstructured finite-volume mesh, the input of the
// CFD workload (Rodinia euler3d's elements_surrounding_elements). Cell i has nnb neighbour
// slots; a slot holds a cell id or a boundary marker: kWall (-1, the wing surface) or
// kFarField (-2), as Rodinia after its Fortran-to-C renumbering.
// Sources:
//   * box_tet_mesh: a box of nx x ny x nz cubes, each split into the 6 tetrahedra of the
//     Freudenthal (Kuhn) triangulation (tetrahedron p = the path 0 -> e_a -> e_a + e_b -> 7
//     for the p-th permutation (a, b, c) of the axes in lexicographic order), minus a thin
//     "wing" slab of cubes (x in [nx/4, 3nx/4), y = ny/2, z in [0, 2nz/3)). Faces: slot k is the
//     face opposite the path's k-th vertex; its neighbour is the tetrahedron across it (same cube,
//     or the next cube along a or back along c), kFarField on the box, kWall on the wing. Cells
//     are numbered cube by cube (x fastest, then y, z), 6 per cube in permutation order, skipping
//     the wing: the locality of a mesh generator's numbering, with irregular index distances.
//   * pattern_mesh: a square sparse matrix (e.g. a Matrix Market FEM pattern): row i is cell i,
//     its off-diagonal entries its neighbours in column order; nnb = the largest such count, and
//     shorter rows are padded with kWall (no neighbour read).
#pragma once
#include <cstdint>
#include <vector>

#include "workload/csr_graph.h"

namespace gpusc {

struct CellMesh {
  static constexpr int32_t kWall = -1;
  static constexpr int32_t kFarField = -2;

  uint32_t cells = 0;
  unsigned nnb = 0;         // neighbour slots per cell
  std::vector<int32_t> nb;  // cells x nnb, nb[i * nnb + j]
  int32_t neighbour(uint32_t i, unsigned j) const { return nb[uint64_t(i) * nnb + j]; }
};

CellMesh box_tet_mesh(unsigned nx, unsigned ny, unsigned nz);
CellMesh pattern_mesh(const CsrGraph& pattern);

}  // namespace gpusc
