// BitonicSort: the AMD APP SDK BitonicSort sample (paper 004 Table 2 "bs", cache-friendly), one
// launch per (stage, pass): for stage s = 0 .. log2(length) - 1 and pass p = 0 .. s, length / 2
// threads each compare-and-swap one pair of a uint32 array in place.
// Access pattern (SDK kernel BitonicSort): thread t with pair distance d = 2^(s - p) reads
// array[left] and array[right], left = t mod d + (t / d) * 2d, right = left + d, and writes both
// back (the lesser or the greater first, by the direction of its 2^s-wide block). Lanes read
// consecutive elements while d >= 32 (two coalesced runs 4d bytes apart); for d < 32 a warp's
// lefts and rights interleave within 2 x 32 elements. Every launch touches every element once.
// Choices: addresses do not depend on the data, so no values are modelled (has_values false:
// the compare outcome and the sort direction only pick which of the two loaded words goes
// where); the compare and the selects are one compute instruction.
// Default: 2^20 elements (4 MiB; 210 launches), 256-thread CTAs. size=small: 2^12 (78 launches).
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class BitonicSortWorkload : public SequenceWorkload {
 public:
  struct Params {
    uint64_t length = uint64_t{1} << 20;  // elements, a power of two >= 2
    unsigned threads_per_cta = 256;
    static Params small() {
      Params p;
      p.length = 4096;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(length, 2, uint64_t{1} << 30, "elements to sort, a power of two");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };
  explicit BitonicSortWorkload(const Params& p);
  // The (stage, pass) of launch `index` (SDK order: stages ascending, passes ascending).
  static void stage_pass(unsigned index, unsigned& stage, unsigned& pass);
  static unsigned launches(uint64_t length);
  struct Data;

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
