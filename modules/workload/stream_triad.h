// StreamTriad: the STREAM / BabelStream triad a[i] = b[i] + q * c[i] (McCalpin's STREAM; the CUDA
// kernel of BabelStream, triad_kernel), one thread per element: the memory-bandwidth kernel of
// paper 003's memory-intensive set (Figure 4's "Stream").
// Access pattern per thread i: load b[i], load c[i] (each coalesced: a warp reads 128 contiguous
// bytes of each), one FFMA, store a[i]. No reuse at all: every line is touched once, so caches
// only add latency and the kernel runs at the memory system's (or, across GPMs, the links')
// bandwidth.
// Choices: 4-byte floats (STREAM and BabelStream default to doubles; gpusc's kernels use 4-byte
// elements, and 32 lanes x 4 B = one 128 B line per warp access); q = 0.4 (BabelStream's
// startScalar); one launch (STREAM times each kernel NTIMES = 10 times over the same arrays; with
// a footprint past the L2 every repetition has the same traffic).
// Default: 2^22 elements per array, 1024-thread CTAs (BabelStream's TBSIZE): 3 x 16 MiB = 48 MiB,
// 3 x the 16 MB L2 of paper 003's MCM-GPU (BabelStream's default 2^25 doubles, 768 MiB, is 128
// times the simulation time); 4096 CTAs, ~0.8M warp instructions. size=small: 2^16 elements
// (768 KiB), 256-thread CTAs.
// Values (kernel.h): b[i] and c[i] hashed floats in [0, 1), a starts at 0; the store writes
// b[i] + q * c[i] (float arithmetic, as the kernel).
#pragma once
#include <memory>

#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class StreamTriadWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned elements = 1u << 22;     // elements per array [count]
    unsigned threads_per_cta = 1024;  // CTA size [threads] (BabelStream TBSIZE)
    double scalar = 0.4;              // q (BabelStream startScalar)
    // size=small (tests, demos): 2^16 elements, 256-thread CTAs.
    static Params small() {
      Params p;
      p.elements = 1u << 16;
      p.threads_per_cta = 256;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(elements, 1, 1u << 30, "elements per array [count]");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
      GPUSC_PARAM_R(scalar, -1e30, 1e30, "the triad's scalar q");
    }
  };

  explicit StreamTriadWorkload(const Params& p);
  bool has_values() const override { return true; }
  static float b_value(uint64_t i) { return AddressSpace::hashed_unit(0x57b, i); }
  static float c_value(uint64_t i) { return AddressSpace::hashed_unit(0x57c, i); }
  struct Data;  // what the streams share (defined in the .cpp)

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
