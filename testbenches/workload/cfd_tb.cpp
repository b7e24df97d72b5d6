// CFD (Rodinia euler3d): the generated tetrahedral mesh (face neighbours by hand, symmetry,
// boundary counts), a Matrix Market pattern as the mesh, the flux kernel's neighbour gather
// addresses by hand, padding cells, launch sequence and per-launch access counts.
// Units under test include workload/cell_mesh.h (CellMesh: the generated mesh and the .mtx pattern are checked here).
#include <catch2/catch.hpp>

#include "workload/cfd.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Op = WarpInstr::Op;

namespace {
void check_symmetric(const CellMesh& m) {
  for (uint32_t i = 0; i < m.cells; ++i)
    for (unsigned j = 0; j < m.nnb; ++j) {
      const int32_t n = m.neighbour(i, j);
      if (n < 0) continue;
      REQUIRE(uint32_t(n) < m.cells);
      REQUIRE(uint32_t(n) != i);
      unsigned back = 0;
      for (unsigned k = 0; k < m.nnb; ++k) back += m.neighbour(uint32_t(n), k) == int32_t(i);
      REQUIRE(back == 1);
    }
}
unsigned count(const CellMesh& m, int32_t marker) {
  return unsigned(std::count(m.nb.begin(), m.nb.end(), marker));
}
}  // namespace

TEST_CASE("cell mesh: Freudenthal tetrahedra of a box, face neighbours, far field and wing") {
  const CellMesh two = box_tet_mesh(2, 1, 1);  // no wing: x in [0, 1) but ny / 2 = 0 and 2 nz / 3 = 0
  REQUIRE(two.cells == 12);
  REQUIRE(two.nnb == 4);
  // Cube 0, tetrahedron 0 = path x, y, z: across the face without vertex 0 lies cube 1's
  // tetrahedron (y, z, x) = 3, i.e. cell 9; faces 1 and 2 are tetrahedra (y, x, z) = 2 and
  // (x, z, y) = 1 of the same cube; face 3 (without vertex 7) is the box bottom.
  REQUIRE(two.neighbour(0, 0) == 9);
  REQUIRE(two.neighbour(0, 1) == 2);
  REQUIRE(two.neighbour(0, 2) == 1);
  REQUIRE(two.neighbour(0, 3) == CellMesh::kFarField);
  REQUIRE(two.neighbour(9, 3) == 0);  // and back: path (y, z, x) drops 7 towards the cube before along x
  check_symmetric(two);
  REQUIRE(count(two, CellMesh::kFarField) == 2 * 2 * (2 * 1 + 1 * 1 + 2 * 1));  // 2 triangles per square
  // 8 x 4 x 3 box: the wing is cubes x in [2, 6), y = 2, z in [0, 2): 8 cubes removed, 24 squares
  // of wing surface face the remaining cubes (4 along x, 16 along y, 4 on top).
  const CellMesh w = box_tet_mesh(8, 4, 3);
  REQUIRE(w.cells == (8 * 4 * 3 - 8) * 6);
  REQUIRE(count(w, CellMesh::kWall) == 2 * 24);
  REQUIRE(count(w, CellMesh::kFarField) == 4 * (8 * 4 + 4 * 3 + 8 * 3) - 2 * 4);  // minus the wing's 4 floor squares
  check_symmetric(w);
  REQUIRE_THROWS(box_tet_mesh(0, 1, 1));
}

TEST_CASE("cell mesh: a Matrix Market pattern, diagonal dropped, short rows padded with walls") {
  TempFile f("m.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 5\n1 1\n2 1\n3 1\n4 3\n4 4\n");
  auto w = CfdWorkload([&] { CfdWorkload::Params p; p.input = f.path(); p.block_size = 32; return p; }());
  const CellMesh& m = w.mesh();
  REQUIRE(m.cells == 4);
  REQUIRE(m.nnb == 2);  // rows 0 ({1, 2}) and 2 ({0, 3})
  REQUIRE(m.nb == std::vector<int32_t>{1, 2, 0, -1, 0, 3, 2, -1});
  REQUIRE(w.padded_cells() == 32);
  REQUIRE(w.address_space().array("normals").bytes == 4 * 32 * 2 * 3);
  CfdWorkload::Params bad;
  bad.input = "mesh.txt";
  REQUIRE_THROWS_WITH(CfdWorkload(bad), Catch::Matchers::Contains("cfd.input"));
}

TEST_CASE("cfd: flux kernel addresses by hand on the 12-cell mesh with 8-thread CTAs") {
  CfdWorkload::Params p;
  p.mesh_x = 2, p.mesh_y = 1, p.mesh_z = 1, p.block_size = 8;
  CfdWorkload w(p);
  REQUIRE(w.padded_cells() == 16);  // 12 cells, 4 padding cells copying cell 11
  auto ks = all_kernels(w);
  REQUIRE(ks.size() == 7);
  const std::vector<std::string> names = {"cfd.compute_step_factor", "cfd.compute_flux", "cfd.time_step",
                                          "cfd.compute_flux", "cfd.time_step", "cfd.compute_flux", "cfd.time_step"};
  for (size_t k = 0; k < 7; ++k) REQUIRE(ks[k]->name() == names[k]);
  const Kernel& flux = *ks[1];
  REQUIRE(flux.num_ctas() == 2);
  const AddressSpace& as = w.address_space();
  const uint64_t var = as.base("variables"), nrm = as.base("normals"), ess = as.base("elements_surrounding_elements");
  check_invariants(as, flux, drain_kernel(flux));
  const Stream s = drain(*flux.warp(0, 0));
  const Stream ld_var = on_array(as, s, "variables", Op::Load);
  const Stream ld_ess = on_array(as, s, "elements_surrounding_elements", Op::Load);
  const Stream ld_nrm = on_array(as, s, "normals", Op::Load);
  REQUIRE(ld_ess.size() == 4);
  REQUIRE(ld_nrm.size() == 12);
  REQUIRE(ld_ess[2].addr[5] == ess + 4 * (5 + 2 * 16));            // ess[i + j * nelr]
  REQUIRE(ld_nrm[3 * 2 + 1].addr[3] == nrm + 4 * (3 + (2 + 1 * 4) * 16));  // normals[i + (j + d * nnb) * nelr]
  // Own state (5 loads), then slot 0's neighbour state for the lanes with a neighbour there.
  REQUIRE(ld_var[0].addr[7] == var + 4 * 7);
  REQUIRE(ld_var[4].addr[7] == var + 4 * (7 + 4 * 16));
  const Stream& nb0 = ld_var;
  REQUIRE(nb0[5].lane_active(0));
  REQUIRE(nb0[5].addr[0] == var + 4 * 9);                          // cell 0's slot 0: cell 9, density
  REQUIRE(nb0[6].addr[0] == var + 4 * (9 + 1 * 16));               // momentum x
  const CellMesh& m = w.mesh();
  uint32_t expect_mask = 0;
  for (unsigned l = 0; l < 8; ++l) expect_mask |= (m.neighbour(l, 0) >= 0 ? 1u : 0u) << l;
  REQUIRE(nb0[5].active_mask == expect_mask);
  // Instructions: 1 + 5 + 29, per slot 4 loads + 5, + 76 / 4 / 34 on each path some lane takes, 5 stores.
  size_t expect = 35 + 5;
  for (unsigned j = 0; j < 4; ++j) {
    bool nb = false, wall = false, far = false;
    for (unsigned l = 0; l < 8; ++l) {
      const int32_t n = m.neighbour(l, j);
      nb |= n >= 0, wall |= n == CellMesh::kWall, far |= n == CellMesh::kFarField;
    }
    expect += 9 + (nb ? 76 : 0) + (wall ? 4 : 0) + (far ? 34 : 0);
  }
  REQUIRE(s.size() == expect);
  // CTA 1: lanes 4..7 are the padding cells 12..15: own arrays at their own index, cell 11's neighbours.
  const Stream t = drain(*flux.warp(1, 0));
  const Stream tv = on_array(as, t, "variables", Op::Load);
  REQUIRE(tv[0].addr[6] == var + 4 * 14);
  REQUIRE(m.neighbour(11, 1) >= 0);  // an interior face of the last cube
  const Stream slot1 = on_array(as, t, "variables", Op::Load);
  // own state (5), slot 0's neighbour state if any lane has one (5), then slot 1's (5)
  bool any0 = false;
  for (unsigned l = 0; l < 8; ++l) any0 |= m.neighbour(std::min(8u + l, 11u), 0) >= 0;
  const WarpInstr& d1 = slot1[any0 ? 10 : 5];
  for (unsigned l = 4; l < 8; ++l) REQUIRE(d1.addr[l] == var + 4 * uint64_t(m.neighbour(11, 1)));
}

TEST_CASE("cfd: per launch every cell's state is read once by itself and once per neighbour slot naming it") {
  CfdWorkload::Params p;
  p.mesh_x = 8, p.mesh_y = 4, p.mesh_z = 3, p.iterations = 2, p.block_size = 64;
  CfdWorkload w(p);
  const CellMesh& m = w.mesh();
  const uint32_t nelr = w.padded_cells();
  REQUIRE(nelr == 576);  // 528 cells
  std::vector<unsigned> named(nelr, 0);
  for (uint32_t i = 0; i < nelr; ++i)
    for (unsigned j = 0; j < 4; ++j) {
      const int32_t n = m.neighbour(std::min(i, m.cells - 1), j);
      if (n >= 0) ++named[n];
    }
  auto ks = all_kernels(w);
  REQUIRE(ks.size() == 14);
  const AddressSpace& as = w.address_space();
  for (size_t k = 0; k < ks.size(); ++k) {
    INFO(ks[k]->name() << " #" << k);
    const auto warps = drain_kernel(*ks[k]);
    check_invariants(as, *ks[k], warps);
    const AccessCount c = count_accesses(as, warps);
    if (k % 7 == 0) {
      REQUIRE(c.loaded() == std::set<std::string>{"variables", "areas"});
      REQUIRE(c.stored() == std::set<std::string>{"step_factors"});
    } else if (k % 7 % 2 == 1) {
      REQUIRE(c.loaded() == std::set<std::string>{"variables", "elements_surrounding_elements", "normals"});
      REQUIRE(c.stored() == std::set<std::string>{"fluxes"});
      for (uint32_t i = 0; i < nelr; ++i)
        for (unsigned v = 0; v < 5; ++v) REQUIRE(c.load("variables", i + v * nelr) == 1 + named[i]);
      for (uint64_t e = 0; e < uint64_t(nelr) * 12; ++e) REQUIRE(c.load("normals", e) == 1);
    } else {
      REQUIRE(c.loaded() == std::set<std::string>{"step_factors", "old_variables", "fluxes"});
      REQUIRE(c.stored() == std::set<std::string>{"variables"});
      for (uint64_t e = 0; e < uint64_t(nelr) * 5; ++e) REQUIRE(c.store("variables", e) == 1);
    }
  }
  // Footprint: 33 floats per padded cell (3 x 5 state, step factor, area, 4 ids, 12 normal components).
  REQUIRE(w.address_space().bytes() == 33ull * 4 * nelr);
}
