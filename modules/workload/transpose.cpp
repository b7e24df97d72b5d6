#include "workload/transpose.h"

#include "common/report.h"

namespace gpusc {

struct TransposeWorkload::Data {
  Params p;
  Block2D grid;
  uint64_t in, out;
  bool values = false;
};

namespace {

enum Pc : uint32_t { kX = 0x00, kY = 0x10, kBound = 0x20, kLdIn = 0x30, kStOut = 0x40 };

class TransposeWarp final : public BufferedWarpStream {
 public:
  using Data = TransposeWorkload::Data;
  TransposeWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)), exist_(cta_lane_mask(d_->grid.threads(), warp)) {
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!((exist_ >> l) & 1u)) continue;
      d_->grid.thread_xy(cta, warp, l, x_[l], y_[l]);
      if (x_[l] < d_->p.width && y_[l] < d_->p.height) valid_ |= 1u << l;
    }
  }

 private:
  bool refill() override {
    const uint64_t w = d_->p.width, h = d_->p.height;
    compute(kX, exist_);
    compute(kY, exist_);
    compute(kBound, exist_);
    load(kLdIn, 4, valid_, [&](unsigned l) { return d_->in + 4 * (y_[l] * w + x_[l]); });
    store(kStOut, 4, valid_, [&](unsigned l) { return d_->out + 4 * (x_[l] * h + y_[l]); }, d_->values,
          [&](unsigned l) { return TransposeWorkload::in_value(y_[l] * w + x_[l]); });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_, valid_ = 0;
  unsigned x_[kWarpSize] = {}, y_[kWarpSize] = {};
};

}  // namespace

TransposeWorkload::TransposeWorkload(const Params& p) : SequenceWorkload("transpose", 1) {
  validate(p, "transpose");
  if (uint64_t(p.block_x) * p.block_y > 1024)
    error("gpusc.workload", "transpose.block_x * block_y = ", uint64_t(p.block_x) * p.block_y,
          " exceeds 1024 threads per CTA");
  auto d = std::make_shared<Data>();
  d->p = p;
  d->grid = Block2D::covering(p.width, p.height, p.block_x, p.block_y);
  d->in = space_.allocate("in", 4 * uint64_t(p.width) * p.height);
  d->out = space_.allocate("out", 4 * uint64_t(p.width) * p.height);
  space_.set_contents("in", AddressSpace::floats(in_value));
  space_.set_contents("out", AddressSpace::zeros());
  d_ = std::move(d);
}

std::unique_ptr<Kernel> TransposeWorkload::launch(unsigned) {
  if (values_ && !d_->values) {
    auto d = std::make_shared<Data>(*d_);
    d->values = true;
    d_ = std::move(d);
  }
  return std::make_unique<KernelOf<TransposeWarp, Data>>("transpose", d_->grid.ctas(), d_->grid.threads(), d_);
}

}  // namespace gpusc
