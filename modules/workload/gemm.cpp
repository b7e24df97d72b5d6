#include "workload/gemm.h"

namespace gpusc {

struct GemmWorkload::Data {
  Params p;
  Block2D grid;  // tile x tile CTAs over n (x) by m (y)
  uint64_t a, b, c;
  bool values = false;
};

namespace {

enum Pc : uint32_t {
  kRow = 0x00, kCol = 0x10, kInit = 0x20, kLdA = 0x30, kLdB = 0x40, kStsA = 0x50, kStsB = 0x60,
  kBar1 = 0x70, kLdsA = 0x80, kLdsB = 0x90, kFma = 0xa0, kBar2 = 0xb0, kLoop = 0xc0, kStC = 0xd0,
};

class GemmWarp final : public BufferedWarpStream {
 public:
  using Data = GemmWorkload::Data;
  GemmWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)), exist_(cta_lane_mask(d_->grid.threads(), warp)) {
    const unsigned t = d_->p.tile;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!((exist_ >> l) & 1u)) continue;
      d_->grid.thread_xy(cta, warp, l, col_[l], row_[l]);
      tx_[l] = col_[l] % t;
      ty_[l] = row_[l] % t;
      if (row_[l] < d_->p.m && col_[l] < d_->p.n) in_c_ |= 1u << l;
    }
  }

 private:
  bool refill() override {
    const auto& p = d_->p;
    const unsigned t = p.tile, ktiles = (p.k + t - 1) / t;
    if (!started_) {  // row = by * tile + ty; col = bx * tile + tx; sum = 0;
      started_ = true;
      compute(kRow, exist_);
      compute(kCol, exist_);
      compute(kInit, exist_);
      return true;
    }
    if (kt_ < ktiles && step_ == 0) {  // load the k-tile into shared memory
      uint32_t ma = 0, mb = 0;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!((exist_ >> l) & 1u)) continue;
        if (row_[l] < p.m && kt_ * t + tx_[l] < p.k) ma |= 1u << l;
        if (kt_ * t + ty_[l] < p.k && col_[l] < p.n) mb |= 1u << l;
      }
      load(kLdA, 4, ma, [&](unsigned l) { return d_->a + 4 * (uint64_t(row_[l]) * p.k + kt_ * t + tx_[l]); });
      load(kLdB, 4, mb, [&](unsigned l) { return d_->b + 4 * (uint64_t(kt_ * t + ty_[l]) * p.n + col_[l]); });
      compute(kStsA, exist_);  // As[ty][tx] = ...
      compute(kStsB, exist_);  // Bs[ty][tx] = ...
      compute(kBar1, exist_);  // __syncthreads()
      step_ = 1;
      return true;
    }
    if (kt_ < ktiles && step_ <= t) {  // sum += As[ty][i] * Bs[i][tx], i = step_ - 1
      compute(kLdsA, exist_);
      compute(kLdsB, exist_);
      compute(kFma, exist_);
      ++step_;
      return true;
    }
    if (kt_ < ktiles) {
      compute(kBar2, exist_);  // __syncthreads()
      compute(kLoop, exist_);
      step_ = 0;
      ++kt_;
      return true;
    }
    store(kStC, 4, in_c_, [&](unsigned l) { return d_->c + 4 * (uint64_t(row_[l]) * p.n + col_[l]); }, d_->values,
          [&](unsigned l) {
            float sum = 0.0f;
            for (unsigned i = 0; i < p.k; ++i)
              sum += GemmWorkload::a_value(uint64_t(row_[l]) * p.k + i) * GemmWorkload::b_value(uint64_t(i) * p.n + col_[l]);
            return sum;
          });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_, in_c_ = 0;
  unsigned row_[kWarpSize] = {}, col_[kWarpSize] = {}, tx_[kWarpSize] = {}, ty_[kWarpSize] = {};
  bool started_ = false;
  unsigned kt_ = 0;    // k-tile
  unsigned step_ = 0;  // 0: tile loads, 1..tile: multiply-add steps, tile + 1: barrier
};

}  // namespace

GemmWorkload::GemmWorkload(const Params& p) : SequenceWorkload("gemm", 1) {
  validate(p, "gemm");
  auto d = std::make_shared<Data>();
  d->p = p;
  d->grid = Block2D::covering(p.n, p.m, p.tile, p.tile);
  d->a = space_.allocate("A", 4 * uint64_t(p.m) * p.k);
  d->b = space_.allocate("B", 4 * uint64_t(p.k) * p.n);
  d->c = space_.allocate("C", 4 * uint64_t(p.m) * p.n);
  space_.set_contents("A", AddressSpace::floats(a_value));
  space_.set_contents("B", AddressSpace::floats(b_value));
  space_.set_contents("C", AddressSpace::zeros());
  d_ = std::move(d);
}

std::unique_ptr<Kernel> GemmWorkload::launch(unsigned) {
  if (values_ && !d_->values) {
    auto d = std::make_shared<Data>(*d_);
    d->values = true;
    d_ = std::move(d);
  }
  return std::make_unique<KernelOf<GemmWarp, Data>>("gemm", d_->grid.ctas(), d_->grid.threads(), d_);
}

}  // namespace gpusc
