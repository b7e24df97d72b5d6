// BarnesHut ("barnes-hut"): the force-calculation phase of Lonestar BH (Burtscher & Pingali,
// "An Efficient CUDA Implementation of the Tree-Based Barnes Hut n-Body Algorithm", GPU
// Computing Gems Emerald Edition, 2011; paper 000's L-BH), over the octree of a seeded Plummer
// body set (plummer.h) built on the host as Lonestar's tree-building kernels do (octree.h, which
// states the node layout: structure-of-arrays posx/posy/posz/mass per node id, bodies first,
// cells from the top id down, 8 child slots per cell).
// Access pattern (ForceCalculationKernel): thread k takes body i = sort[k] (bodies in tree
// order, so a warp holds neighbouring bodies) and loads posx/posy/posz[i] (gathers). The warp
// then walks the tree together from the root with a shared stack: for each child slot it loads
// child[slot] (one address for the whole warp: a broadcast), stops at the first -1, loads
// posx/posy/posz[n], and if n is a body or __all lanes see it far enough
// (d^2 >= dq[depth]; dq[0] = (2 radius)^2 / theta^2, a quarter per level, plus eps^2) loads
// mass[n] and accumulates the force; otherwise it pushes and descends into n. The tree's top levels
// are read by every warp of every core: the kernel's inter-core locality. Finally
// vel[i] += (acc_new - acc[i]) * dthf and acc[i] = acc_new (loads and stores of accx..z and
// velx..z), as in every time step after the first.
// Choices: one force launch (the step's other kernels are not modelled); one body per thread
// (Lonestar launches a fixed grid of 5 CTAs per SM and loops k by the grid size: same walks,
// spread over more CTAs); the distance test in float as on the GPU; stack pushes are done by the
// warp's first active lane (shared memory, Compute); the per-CTA dq table setup (thread 0) and
// its copy per warp are Compute plus two barriers (the two scalar global reads of radiusd and
// maxdepthd are left out); 256-thread CTAs (Lonestar's THREADS5).
// Opening criterion as Lonestar BH 2.x: dq[0] uses the root's side (2 radius) for the root's
// children, so a cell of side s is far enough at d >= 2 s / theta. BH 1.x used radius (d >= s /
// theta, the textbook form). Our default theta = 1.0 is the same test as BH 1.x's (and the
// textbook) theta = 0.5; Lonestar 2.x's own 0.5 makes the walks ~4 times longer (550M warp
// instructions at the default size).
// Default: 65536 bodies (Plummer, seeded), theta 1.0, eps 0.05, 256-thread CTAs: 31.6k cells,
// footprint 4.2 MiB (8.4 x a 512 KB L2), 256 CTAs, ~144M warp instructions (the kernel is
// compute-bound: 21% memory instructions, nearly all broadcasts of the tree's top levels).
// size=small: 512 bodies in 32-thread CTAs (34 KiB, 16 CTAs, ~195k instructions).
// Values (kernel.h): posx/posy/posz/mass, child (node ids, -1 empty) and sort hold the host-built
// tree (octree.h); acc and vel start at 0 (the Plummer body set has no velocities here, and a
// first step's acc is 0). Each lane accumulates its body's acc_new over the warp's interactions
// in the kernel's float order (rsqrtf as 1 / sqrtf), and the stores carry
// vel = 0 + (acc_new - 0) dthf (dthf = 0.5 x Lonestar's dtime 0.025) and acc = acc_new.
#pragma once
#include <memory>

#include "common/params.h"
#include "workload/grid_kernel.h"
#include "workload/octree.h"

namespace gpusc {

class BarnesHutWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned bodies = 65536;         // bodies of the Plummer model [count]
    double theta = 1.0;              // opening criterion (Lonestar 2.x form, see above)
    double epsilon = 0.05;           // softening length (eps^2 is added to every squared distance)
    unsigned threads_per_cta = 256;  // CTA size [threads]
    // size=small (tests, demos): 512 bodies, 32-thread CTAs.
    static Params small() {
      Params p;
      p.bodies = 512;
      p.threads_per_cta = 32;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(bodies, 1, 1 << 24, "bodies of the seeded Plummer model [count]");
      GPUSC_PARAM_R(theta, 0.05, 4, "opening criterion: a cell of side s is used whole at distance >= 2 s / theta");
      GPUSC_PARAM_R(epsilon, 0, 10, "softening length eps (eps^2 added to squared distances)");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };

  static constexpr float kDthf = 0.5f * 0.025f;  // half of Lonestar BH's dtime
  BarnesHutWorkload(const Params& p, uint64_t seed);  // a Plummer model of p.bodies bodies
  BarnesHutWorkload(const Params& p, const Bodies& bodies);  // given bodies (p.bodies is ignored)
  struct Data;  // what the streams share (defined in the .cpp)
  const Octree& tree() const;
  // dq[d]: squared distance from which a child of a depth-d cell (root: 0) is far enough.
  const std::vector<float>& dq() const;
  bool has_values() const override { return true; }

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<Data> d_;
};

}  // namespace gpusc
