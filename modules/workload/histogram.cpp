#include "workload/histogram.h"

#include <algorithm>

#include "workload/seeded_rng.h"

namespace gpusc {

struct HistogramWorkload::Data {
  std::vector<uint8_t> input;
  unsigned bins, threads_per_cta;
  uint64_t in, counters;
};

namespace {

enum Pc : uint32_t { kTid = 0x00, kBound = 0x10, kLdIn = 0x20, kBin = 0x30, kAtom = 0x40 };

class HistogramWarp final : public BufferedWarpStream {
 public:
  using Data = HistogramWorkload::Data;
  HistogramWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        exist_(cta_lane_mask(d_->threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->threads_per_cta + uint64_t(warp) * kWarpSize) {}

 private:
  bool refill() override {  // i = tid; if (i < n) atomicAdd(&bins[in[i] * B / 256], 1);
    const uint32_t valid = lanes_below(exist_, first_, d_->input.size());
    compute(kTid, exist_);
    compute(kBound, exist_);
    load(kLdIn, 1, valid, [&](unsigned l) { return d_->in + first_ + l; });
    compute(kBin, valid);
    atomic(kAtom, 4, valid, [&](unsigned l) {
      return d_->counters + 4 * uint64_t(d_->input[first_ + l] * d_->bins / 256u);
    });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_;
  uint64_t first_;
};

std::vector<uint8_t> generate(const HistogramWorkload::Params& p, uint64_t seed) {
  SeededRng rng(seed);
  std::vector<uint8_t> v(p.elements);
  for (auto& x : v) {
    if (p.distribution == "uniform") {
      x = static_cast<uint8_t>(rng.below(256));
    } else {
      const double s = 128.0 + 32.0 * rng.normal() + 0.5;
      x = static_cast<uint8_t>(std::clamp(s, 0.0, 255.0));
    }
  }
  return v;
}

}  // namespace

HistogramWorkload::HistogramWorkload(const Params& p, uint64_t seed)
    : SequenceWorkload("histogram", 1), p_(p) {
  validate(p_, "histogram");
  init(generate(p_, seed));
}

HistogramWorkload::HistogramWorkload(const Params& p, std::vector<uint8_t> input)
    : SequenceWorkload("histogram", 1), p_(p) {
  validate(p_, "histogram");
  init(std::move(input));
}

void HistogramWorkload::init(std::vector<uint8_t> input) {
  auto d = std::make_shared<Data>();
  d->bins = p_.bins;
  d->threads_per_cta = p_.threads_per_cta;
  d->in = space_.allocate("input", input.size());
  d->counters = space_.allocate("bins", 4 * uint64_t(p_.bins));
  d->input = std::move(input);
  const std::shared_ptr<const Data> dd = d;
  space_.set_contents("input", AddressSpace::bytes_of([dd](uint64_t i) { return dd->input[i]; }));
  space_.set_contents("bins", AddressSpace::zeros());
  d_ = std::move(d);
}

const std::vector<uint8_t>& HistogramWorkload::input() const { return d_->input; }

std::unique_ptr<Kernel> HistogramWorkload::launch(unsigned) {
  return std::make_unique<KernelOf<HistogramWarp, Data>>("histogram", ctas_for(d_->input.size(), p_.threads_per_cta),
                                                         p_.threads_per_cta, d_);
}

}  // namespace gpusc
