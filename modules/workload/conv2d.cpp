#include "workload/conv2d.h"

#include "common/report.h"

namespace gpusc {

struct Conv2dWorkload::Data {
  Params p;
  Block2D grid;
  uint64_t in, out;
  bool values = false;
};

namespace {

enum Pc : uint32_t { kX = 0x00, kY = 0x10, kBound = 0x20, kLdIn = 0x30, kFma = 0x40, kStOut = 0x50 };

class Conv2dWarp final : public BufferedWarpStream {
 public:
  using Data = Conv2dWorkload::Data;
  Conv2dWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)), exist_(cta_lane_mask(d_->grid.threads(), warp)) {
    const unsigned r = d_->p.filter / 2, w = d_->p.width, h = d_->p.height;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!((exist_ >> l) & 1u)) continue;
      unsigned x, y;
      d_->grid.thread_xy(cta, warp, l, x, y);
      pixel_[l] = uint64_t(y) * w + x;
      if (x >= r && x + r < w && y >= r && y + r < h) valid_ |= 1u << l;
    }
  }

 private:
  bool refill() override {
    const unsigned k = d_->p.filter, r = k / 2;
    const uint64_t w = d_->p.width;
    if (!started_) {  // x, y from block and thread index; if (interior) {
      started_ = true;
      compute(kX, exist_);
      compute(kY, exist_);
      compute(kBound, exist_);
      return valid_ != 0;
    }
    if (tap_ < k * k) {  // sum += c[dy][dx] * in[(y + dy - r) * W + x + dx - r]
      const unsigned dy = tap_ / k, dx = tap_ % k;
      load(kLdIn, 4, valid_, [&](unsigned l) { return d_->in + 4 * (pixel_[l] + dy * w + dx - r * w - r); });
      compute(kFma, valid_);
      ++tap_;
      return true;
    }
    store(kStOut, 4, valid_, [&](unsigned l) { return d_->out + 4 * pixel_[l]; }, d_->values, [&](unsigned l) {
      const float c = 1.0f / static_cast<float>(k * k);
      float sum = 0.0f;
      for (unsigned t = 0; t < k * k; ++t) sum += c * Conv2dWorkload::in_value(pixel_[l] + (t / k) * w + t % k - r * w - r);
      return sum;
    });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_, valid_ = 0;
  uint64_t pixel_[kWarpSize] = {};  // y * W + x per lane
  bool started_ = false;
  unsigned tap_ = 0;
};

}  // namespace

Conv2dWorkload::Conv2dWorkload(const Params& p) : SequenceWorkload("conv2d", 1) {
  validate(p, "conv2d");
  if (p.filter % 2 == 0) error("gpusc.workload", "conv2d.filter = ", p.filter, " must be odd");
  if (uint64_t(p.block_x) * p.block_y > 1024)
    error("gpusc.workload", "conv2d.block_x * block_y = ", uint64_t(p.block_x) * p.block_y,
          " exceeds 1024 threads per CTA");
  auto d = std::make_shared<Data>();
  d->p = p;
  d->grid = Block2D::covering(p.width, p.height, p.block_x, p.block_y);
  const uint64_t bytes = 4 * uint64_t(p.width) * p.height;
  d->in = space_.allocate("in", bytes);
  d->out = space_.allocate("out", bytes);
  space_.set_contents("in", AddressSpace::floats(in_value));
  space_.set_contents("out", AddressSpace::zeros());
  d_ = std::move(d);
}

std::unique_ptr<Kernel> Conv2dWorkload::launch(unsigned) {
  if (values_ && !d_->values) {
    auto d = std::make_shared<Data>(*d_);
    d->values = true;
    d_ = std::move(d);
  }
  return std::make_unique<KernelOf<Conv2dWarp, Data>>("conv2d", d_->grid.ctas(), d_->grid.threads(), d_);
}

}  // namespace gpusc
