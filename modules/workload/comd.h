// Comd: the Lennard-Jones force kernel of CoMD (the ExMatEx / ECP classical molecular-dynamics
// proxy app; paper 003's memory-intensive "CoMD") in its neighbour-list form (CoMD-CUDA's
// thread-per-atom kernel over a Verlet list), one thread per atom.
// Data: an FCC lattice of nx x ny x nz unit cells (4 atoms each) with lattice constant `lattice`,
// every atom displaced by a seeded uniform offset of up to `jitter` x lattice per axis (CoMD's
// initial random displacement); periodic box. Atoms are numbered link cell by link cell (CoMD
// keeps its atoms sorted into link cells of side >= the cutoff), so the neighbours of a CTA's
// atoms are mostly in the same or adjacent cells. The host builds the Verlet list with radius
// cutoff + skin (minimum image), sorted by atom id, stored slot-major (list[s * n + i]) so that
// a warp's loads of slot s are coalesced, padded to the longest list.
// Access pattern per thread i: load x, y, z[i] and count[i]; for each slot s < count[i]
// (lanes leave the loop as their list ends): load list[s n + i] (coalesced), then the gathers
// x, y, z[j]; dx, dy, dz, r^2 (4 compute) and, for lanes with r^2 < cutoff^2, the LJ force
// (1 SFU reciprocal, 5 compute) and the accumulation (3 compute). Stores fx, fy, fz and the
// energy e[i] once.
// Choices: 4-byte floats (CoMD uses doubles); the CUDA version's shared-memory and warp-per-atom
// variants are not modelled; one force evaluation (one launch), no list rebuild.
// Default: 40^3 unit cells = 256,000 atoms, CoMD's LJ copper (lattice 5.256 A, sigma 2.315 A,
// cutoff 2.5 sigma = 5.79 A) with skin 0.3 A and jitter 0.02: ~18 neighbours in range, lists
// padded to the longest; footprint about 24 MiB (1.5 x paper 003's 16 MB L2). size=small: 8^3
// cells (2,048 atoms).
// Values: none (has_values() false).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class ComdWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned nx = 40, ny = 40, nz = 40;  // FCC unit cells per axis
    double lattice = 5.256;              // lattice constant [A] (CoMD: Cu)
    double cutoff = 5.7875;              // LJ cutoff [A] (2.5 sigma, sigma = 2.315)
    double skin = 0.3;                   // Verlet-list skin [A]
    double jitter = 0.02;                // max displacement per axis [x lattice]
    unsigned threads_per_cta = 256;      // CTA size [threads]
    static Params small() {
      Params p;
      p.nx = p.ny = p.nz = 8;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(nx, 2, 1024, "FCC unit cells along x");
      GPUSC_PARAM_R(ny, 2, 1024, "FCC unit cells along y");
      GPUSC_PARAM_R(nz, 2, 1024, "FCC unit cells along z");
      GPUSC_PARAM_R(lattice, 0.1, 100, "lattice constant [A]");
      GPUSC_PARAM_R(cutoff, 0.1, 100, "force cutoff radius [A]");
      GPUSC_PARAM_R(skin, 0, 100, "Verlet-list skin [A]");
      GPUSC_PARAM_R(jitter, 0, 0.25, "largest random displacement per axis [x lattice]");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };

  ComdWorkload(const Params& p, uint64_t seed);
  struct Data;  // what the streams share (defined in the .cpp)
  // The Verlet list of atom i (host-built, sorted by atom id).
  std::vector<uint32_t> neighbours(uint32_t i) const;
  uint32_t atoms() const;
  // Whether atoms i and j are within the force cutoff (minimum image).
  bool interacts(uint32_t i, uint32_t j) const;

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
