// Fir: the Hetero-Mark FIR kernel (paper 004 Table 2 "fir", local-dominated): one thread per
// output sample, a `taps`-tap filter over the input with the previous block's last samples as
// history.
// Access pattern (Hetero-Mark FIR): thread t, for i = 0 .. taps - 1: loads coeff[i] (every lane
// the same word: a broadcast), then input[t - i] when t >= i, else history[taps - (i - t)] (only
// the first taps - 1 threads of the launch take that branch); a multiply-add; finally stores
// output[t]. So each warp reads a window of 31 + taps consecutive input words and writes 32.
// Choices: one launch over the whole input (MGPUSim's version launches one part per GPU; the
// addresses are the same); coeff and history are one copy each (Hetero-Mark's multi-GPU version
// allocates them per GPU; at 64 B each they stay in the L1s after the first read); no values.
// Default: 2^22 samples (16 MiB in, 16 MiB out), 16 taps (MGPUSim's), 256-thread CTAs.
// size=small: 2^14 samples.
#pragma once
#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class FirWorkload : public SequenceWorkload {
 public:
  struct Params {
    uint64_t length = uint64_t{1} << 22;  // output samples = threads
    unsigned taps = 16;                   // filter length (MGPUSim's Hetero-Mark FIR: 16)
    unsigned threads_per_cta = 256;
    static Params small() {
      Params p;
      p.length = 16384;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(length, 1, uint64_t{1} << 30, "samples (threads)");
      GPUSC_PARAM_R(taps, 1, 1024, "filter taps");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };
  explicit FirWorkload(const Params& p);
  struct Data;

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
