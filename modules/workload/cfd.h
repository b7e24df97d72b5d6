// Cfd ("cfd"): Rodinia's CFD solver euler3d (Corrigan et al., "Running unstructured grid-based
// CFD solvers on modern graphics hardware", 2009; paper 000's R-CFD), a finite-volume Euler
// solver on an unstructured mesh (cell_mesh.h: a generated tetrahedral mesh by default, or a
// Matrix Market pattern given as `input`).
// Launches per iteration, as euler3d's main loop: compute_step_factor, then for each of the
// RK = 3 stages compute_flux and time_step (7 launches; the old_variables copy between
// iterations is a cudaMemcpy, not a kernel). Arrays are structure-of-arrays over nelr cells
// (nel rounded up to the block size): variables[i + v * nelr] (v = density, momentum x, y, z,
// density energy), old_variables, fluxes alike; step_factors[i], areas[i];
// elements_surrounding_elements[i + j * nelr], normals[i + (j + d * nnb) * nelr].
// Access pattern, thread i = cell i:
//   * step_factor: loads the 5 variables and areas[i], stores step_factors[i];
//   * flux: loads its 5 variables, then per neighbour slot j (unrolled): the neighbour id and
//     the 3 normal components (coalesced), and for a real neighbour nb its 5 variables
//     variables[nb + v * nelr]: the gather of the neighbours' state, reading cells that other
//     CTAs (other cores) own: the kernel's inter-core locality. Wall and far-field slots only
//     compute (the far-field state is __constant__). Stores its 5 fluxes.
//   * time_step: loads step_factors[i], then per variable old_variables and fluxes, stores
//     variables.
// Lanes diverge by slot kind (neighbour / wall / far field); each path is emitted with its lanes.
// Choices: Compute instruction counts per source statement are our reading of the kernels
// (divisions and square roots as SFU); the padding cells nel..nelr-1 copy the last cell's
// neighbours, as euler3d fills them, and compute like it; 192-thread CTAs (euler3d's
// BLOCK_SIZE_*). Addresses do not depend on values.
// Default: a 48 x 24 x 14 cube box of 6 tetrahedra each minus the wing, 95,472 cells (euler3d's
// fvcorr.domn.097K has 97,046), 1 iteration: footprint 12 MiB (24 x a 512 KB L2), 7 launches,
// ~3.8M warp instructions. size=small: 16 x 8 x 6 cubes, 4,464 cells, 1 iteration (0.56 MiB,
// ~186k instructions).
#pragma once
#include <memory>
#include <string>

#include "common/params.h"
#include "workload/cell_mesh.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class CfdWorkload : public SequenceWorkload {
 public:
  struct Params {
    std::string input = "";     // Matrix Market pattern (.mtx) as the mesh; empty = generated mesh
    unsigned mesh_x = 48;       // generated mesh: cubes along x
    unsigned mesh_y = 24;       // generated mesh: cubes along y
    unsigned mesh_z = 14;       // generated mesh: cubes along z
    unsigned iterations = 1;    // solver iterations (7 launches each)
    unsigned block_size = 192;  // CTA size [threads]
    // size=small (tests, demos): 16 x 8 x 6 cubes.
    static Params small() {
      Params p;
      p.mesh_x = 16, p.mesh_y = 8, p.mesh_z = 6;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM(input, "Matrix Market file whose pattern is the mesh (row = cell, entries = neighbours); "
                         "empty = generated tetrahedral mesh");
      GPUSC_PARAM_R(mesh_x, 1, 4096, "generated mesh: cubes along x (6 tetrahedra each)");
      GPUSC_PARAM_R(mesh_y, 1, 4096, "generated mesh: cubes along y");
      GPUSC_PARAM_R(mesh_z, 1, 4096, "generated mesh: cubes along z");
      GPUSC_PARAM_R(iterations, 1, 10000, "solver iterations (step factor + 3 x (flux, time step))");
      GPUSC_PARAM_R(block_size, 1, 1024, "CTA size [threads]; cells are padded to a multiple of it");
    }
  };

  CfdWorkload(const Params& p, std::shared_ptr<const CellMesh> mesh);
  explicit CfdWorkload(const Params& p);  // the mesh p describes (file or generator)
  struct Data;  // what the streams share (defined in the .cpp)
  const CellMesh& mesh() const;
  uint32_t padded_cells() const;  // nelr

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
