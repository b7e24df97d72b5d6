#include "workload/fir.h"

namespace gpusc {

struct FirWorkload::Data {
  Params p;
  uint64_t output, coeff, input, history;
};

namespace {

enum Pc : uint32_t { kTid = 0x00, kLoop = 0x10, kLdCoeff = 0x20, kLdInput = 0x30, kLdHistory = 0x40, kFma = 0x50,
                     kStOut = 0x60 };

class FirWarp final : public BufferedWarpStream {
 public:
  using Data = FirWorkload::Data;
  FirWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        exist_(cta_lane_mask(d_->p.threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->p.threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, d_->p.length)) {}

 private:
  bool refill() override {  // one tap per refill
    if (i_ == 0) compute(kTid, exist_);
    if (i_ < d_->p.taps) {
      const uint64_t i = i_++;
      uint32_t in = 0;  // lanes with t >= i
      for (unsigned l = 0; l < kWarpSize; ++l)
        if ((valid_ >> l) & 1u && first_ + l >= i) in |= 1u << l;
      compute(kLoop, valid_);
      load(kLdCoeff, 4, valid_, [&](unsigned) { return d_->coeff + 4 * i; });
      load(kLdInput, 4, in, [&](unsigned l) { return d_->input + 4 * (first_ + l - i); });
      load(kLdHistory, 4, valid_ & ~in, [&](unsigned l) { return d_->history + 4 * (d_->p.taps - (i - (first_ + l))); });
      compute(kFma, valid_);
      return true;
    }
    store(kStOut, 4, valid_, [&](unsigned l) { return d_->output + 4 * (first_ + l); });
    return false;
  }
  std::shared_ptr<const Data> d_;
  uint32_t exist_;
  uint64_t first_;
  uint32_t valid_;
  unsigned i_ = 0;
};

}  // namespace

FirWorkload::FirWorkload(const Params& p) : SequenceWorkload("fir", 1) {
  validate(p, "fir");
  auto d = std::make_shared<Data>();
  d->p = p;
  d->output = space_.allocate("output", 4 * p.length);
  d->coeff = space_.allocate("coeff", 4 * uint64_t(p.taps));
  d->input = space_.allocate("input", 4 * p.length);
  d->history = space_.allocate("history", 4 * uint64_t(p.taps));  // indices 1 .. taps - 1 are read
  d_ = std::move(d);
}

std::unique_ptr<Kernel> FirWorkload::launch(unsigned) {
  return std::make_unique<KernelOf<FirWarp, Data>>("fir", ctas_for(d_->p.length, d_->p.threads_per_cta),
                                                   d_->p.threads_per_cta, d_);
}

}  // namespace gpusc
