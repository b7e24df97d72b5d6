#include "workload/stream_triad.h"

namespace gpusc {

struct StreamTriadWorkload::Data {
  Params p;
  uint64_t a, b, c;
  bool values = false;
};

namespace {

enum Pc : uint32_t { kTid = 0x00, kBound = 0x10, kLdB = 0x20, kLdC = 0x30, kFma = 0x40, kStA = 0x50 };

class TriadWarp final : public BufferedWarpStream {
 public:
  using Data = StreamTriadWorkload::Data;
  TriadWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        exist_(cta_lane_mask(d_->p.threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->p.threads_per_cta + uint64_t(warp) * kWarpSize) {}

 private:
  bool refill() override {  // i = tid; if (i < n) a[i] = b[i] + q * c[i];
    const uint32_t valid = lanes_below(exist_, first_, d_->p.elements);
    compute(kTid, exist_);
    compute(kBound, exist_);
    load(kLdB, 4, valid, [&](unsigned l) { return d_->b + 4 * (first_ + l); });
    load(kLdC, 4, valid, [&](unsigned l) { return d_->c + 4 * (first_ + l); });
    compute(kFma, valid);
    store(kStA, 4, valid, [&](unsigned l) { return d_->a + 4 * (first_ + l); }, d_->values, [&](unsigned l) {
      const uint64_t i = first_ + l;
      return StreamTriadWorkload::b_value(i) + static_cast<float>(d_->p.scalar) * StreamTriadWorkload::c_value(i);
    });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_;
  uint64_t first_;
};

}  // namespace

StreamTriadWorkload::StreamTriadWorkload(const Params& p) : SequenceWorkload("stream", 1) {
  validate(p, "stream");
  auto d = std::make_shared<Data>();
  d->p = p;
  const uint64_t bytes = 4 * uint64_t(p.elements);
  d->a = space_.allocate("a", bytes);
  d->b = space_.allocate("b", bytes);
  d->c = space_.allocate("c", bytes);
  space_.set_contents("a", AddressSpace::zeros());
  space_.set_contents("b", AddressSpace::floats(b_value));
  space_.set_contents("c", AddressSpace::floats(c_value));
  d_ = std::move(d);
}

std::unique_ptr<Kernel> StreamTriadWorkload::launch(unsigned) {
  if (values_ && !d_->values) {
    auto d = std::make_shared<Data>(*d_);
    d->values = true;
    d_ = std::move(d);
  }
  return std::make_unique<KernelOf<TriadWarp, Data>>("stream", ctas_for(d_->p.elements, d_->p.threads_per_cta),
                                                     d_->p.threads_per_cta, d_);
}

}  // namespace gpusc
