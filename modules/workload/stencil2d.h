// Stencil2d: a 5-point (or 9-point) thermal stencil on a rows x cols grid, one thread per cell
// and one launch per time step, after Rodinia's hotspot: the new temperature of a cell depends
// on its own temperature, its four neighbours' (and its four diagonal neighbours') and its
// power dissipation.
// Access pattern per thread (x, y): loads temp_src at the cell, north, south, west and east
// (indices clamped at the borders, as hotspot does, so a border cell reads itself), with
// points = 9 then north-west, north-east, south-west and south-east (both indices clamped),
// and power at the cell, then stores temp_dst at the cell; temp0 and temp1 alternate as source
// and destination. Lanes run along x: the centre, west and east loads are coalesced rows,
// north and south (and the diagonals) are the rows above and below.
// points = 9 is the 9-point stencil of paper 004's workloads (Table 2, from its suite); the
// paper gives no formula, ours adds the diagonals with a weight of 0.05 (4 more math ops).
// Choices: hotspot's shared-memory pyramid (several steps per launch) is not modelled: every
// step is one launch reading its neighbours from global memory (pyramid height 1). Addresses
// do not depend on temperatures, so no values are computed.
// Default: 1024 x 1024 cells (hotspot's largest input, temp_1024 / power_1024), 2 steps (hotspot
// runs 60; every step has the same access pattern and the 12 MiB do not fit the L2, so more
// steps only lengthen the run), 16 x 16 CTAs (hotspot's BLOCK_SIZE): footprint 12 MiB, ~1.2M
// warp instructions. size=small: 256 x 256 cells, 4 steps (768 KiB, ~150k instructions).
// Values (kernel.h): temp0 = 320 + 20 u and power = 0.5 u (u a hashed float in [0, 1): a
// hotspot-like temperature and power map), temp1 starts at 0. Step i's store writes
// out = c + 0.1 (n + s + w + e - 4 c) [+ 0.05 (nw + ne + sw + se - 4 c)] + 0.01 power
// (hotspot's shape, not its constants), which
// the host computes from step i-1's result when the launch is made (values on: the host holds
// the grid of the step running and the next one, two more copies of a temperature array).
#pragma once
#include <memory>
#include <vector>

#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class Stencil2dWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned rows = 1024;       // grid rows [cells]
    unsigned cols = 1024;       // grid columns [cells]
    unsigned iterations = 2;    // time steps = launches [count]
    unsigned block_x = 16;      // CTA width [threads]
    unsigned block_y = 16;      // CTA height [threads]
    unsigned points = 5;        // 5 (hotspot) or 9 (with the diagonal neighbours)
    // size=small (tests, demos): 256 x 256 cells, 4 steps.
    static Params small() {
      Params p;
      p.rows = p.cols = 256;
      p.iterations = 4;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(rows, 1, 1 << 16, "grid rows [cells]");
      GPUSC_PARAM_R(cols, 1, 1 << 16, "grid columns [cells]");
      GPUSC_PARAM_R(iterations, 1, 100000, "time steps = launches [count]");
      GPUSC_PARAM_R(block_x, 1, 1024, "CTA width [threads]");
      GPUSC_PARAM_R(block_y, 1, 1024, "CTA height [threads]");
      GPUSC_PARAM_R(points, 5, 9, "stencil points: 5 (hotspot) or 9 (with the diagonals, paper 004)");
    }
  };

  explicit Stencil2dWorkload(const Params& p);
  bool has_values() const override { return true; }
  static float temp0_value(uint64_t i) { return 320.0f + 20.0f * AddressSpace::hashed_unit(0x7e, i); }
  static float power_value(uint64_t i) { return 0.5f * AddressSpace::hashed_unit(0x90, i); }
  struct Data;  // what the streams of one launch share (defined in the .cpp)

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  Params p_;
  Block2D grid_;
  uint64_t temp_[2] = {0, 0}, power_ = 0;
  std::shared_ptr<const std::vector<float>> cur_;  // values on: the grid the next step reads
};

}  // namespace gpusc
