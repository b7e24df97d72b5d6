// Stencil3d: a 7-point thermal stencil on an nx x ny x nz grid, after Rodinia's hotspot3D
// (cuda/hotspot3D, kernel hotspotOpt1): one thread per (x, y) column looping over the nz
// layers, one launch per time step, temp arrays ping-ponging between launches. Cell (x, y, z) is
// element x + nx y + nx ny z (hotspot3D's layout), so lanes run along x and a layer is a
// contiguous nx x ny plane.
// Update (hotspot3D's shape, our constants, below): out = cc c + cw w + ce e + cs s + cn n +
// cb b + ct t + sdc power + ct amb, with w/e/n/s the x-1/x+1/y-1/y+1 neighbours and b/t the
// layers below/above, every index clamped at the border (a border cell reads itself).
// Access pattern per thread (x, y), with z_in_registers (default, hotspot3D's kernel): the
// centre, below and above values roll through three registers, so layer 0 loads temp_src at C
// and T (C + nx ny), each later layer but the last loads only its T, and every layer loads W, E,
// S, N (hotspot3D's order) and power at C, then stores temp_dst at C: nz + 4 nz temp loads per
// column. Without it, every layer loads all 7 points (clamped) and power in the order of
// hotspot3D's CPU reference, computeTempCPU: C, N, S, E, W, T, B, power. Both store the same
// values. hotspotOpt1 peels its first and last layer out of the loop, so with z_in_registers
// those layers have their own pcs (three code copies); without it one loop body serves all.
// Choices: hotspot3D launches nx/64 x ny/4 CTAs of 64 x 4 threads with no bound test (sizes
// must divide); ours covers any size with a bound test, as stencil2d. hotspot3D's first layer
// load at C + nx ny reads past the array for nz = 1, so z_in_registers needs nz >= 2. Math per
// layer: 9 FP instructions (1 FMUL, 7 FFMA, 1 FADD of the hoisted ct amb) and 1 loop/index
// instruction. Addresses do not depend on temperatures.
// Default: 512 x 512 x 8 (hotspot3D's input, power_512x8 / temp_512x8), 2 steps (hotspot3D's
// run script does 100; every step has the same access pattern and the 24 MiB do not fit the
// L2), 64 x 4 CTAs (hotspot3D's block_dim in opt1.cu): 1024 CTAs per launch, footprint 24 MiB,
// ~2.3M warp instructions. size=small: 64 x 64 x 4, 2 steps (192 KiB, ~18k instructions).
// Values (kernel.h): temp0 = 320 + 20 u and power = 0.5 u (u a hashed float in [0, 1), salts
// of our own), temp1 starts at 0. Step i's store writes the update above, from step i-1's
// result, computed on the host when the launch is made in hotspot3D's order of terms (float).
// Constants (ours, rounded to the size of those hotspot3D derives from its 16 x 16 x 0.5 mm chip
// at 512 x 512 x 8: 0.0341, 0.00053, 0.341): cw = ce = cn = cs = 0.034, ct = cb = 0.0005,
// cc = 1 - (2 cw + 2 cn + 3 ct) (hotspot3D's form), sdc = 0.34, amb = 80 (hotspot3D's amb_temp).
#pragma once
#include <memory>
#include <vector>

#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class Stencil3dWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned nx = 512;            // grid width [cells]
    unsigned ny = 512;            // grid height [cells]
    unsigned nz = 8;              // grid layers [cells]
    unsigned iterations = 2;      // time steps = launches [count]
    unsigned block_x = 64;        // CTA width [threads]
    unsigned block_y = 4;         // CTA height [threads]
    bool z_in_registers = true;   // hotspot3D: centre/below/above kept in registers
    // size=small (tests, demos): 64 x 64 x 4 cells, 2 steps.
    static Params small() {
      Params p;
      p.nx = p.ny = 64;
      p.nz = 4;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(nx, 1, 1 << 16, "grid width [cells]");
      GPUSC_PARAM_R(ny, 1, 1 << 16, "grid height [cells]");
      GPUSC_PARAM_R(nz, 1, 1 << 16, "grid layers [cells] (at least 2 with z_in_registers)");
      GPUSC_PARAM_R(iterations, 1, 100000, "time steps = launches [count]");
      GPUSC_PARAM_R(block_x, 1, 1024, "CTA width [threads]");
      GPUSC_PARAM_R(block_y, 1, 1024, "CTA height [threads]");
      GPUSC_PARAM(z_in_registers, "hotspot3D's kernel: centre, below and above roll through registers (one new "
                                  "temp load per layer); false: all 7 points loaded per layer");
    }
  };
  // Update coefficients (header comment).
  static constexpr float kCw = 0.034f, kCe = 0.034f, kCn = 0.034f, kCs = 0.034f;
  static constexpr float kCt = 0.0005f, kCb = 0.0005f;
  static constexpr float kCc = 1.0f - (2.0f * kCw + 2.0f * kCn + 3.0f * kCt);
  static constexpr float kSdc = 0.34f, kAmb = 80.0f;

  explicit Stencil3dWorkload(const Params& p);
  bool has_values() const override { return true; }
  static float temp0_value(uint64_t i) { return 320.0f + 20.0f * AddressSpace::hashed_unit(0x3d7e, i); }
  static float power_value(uint64_t i) { return 0.5f * AddressSpace::hashed_unit(0x3d90, i); }
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
