#include "workload/naive_matmul.h"

#include "workload/grid_kernel.h"

namespace gpusc {
namespace {

enum Pc : uint32_t {
  kJ = 0x00, kI = 0x10, kBound = 0x20, kLdOut = 0x30, kScale = 0x40, kZero = 0x50, kStInit = 0x60,
  kLdA = 0x70, kLdB = 0x80, kAlpha = 0x90, kFma = 0xa0, kStStep = 0xb0, kLoop = 0xc0, kStOut = 0xd0,
};

struct Shared {
  NaiveMatmulSpec s;
  Block2D grid;  // block_x x block_y CTAs over cols (x) by rows (y)
};

class NaiveMatmulWarp final : public BufferedWarpStream {
 public:
  NaiveMatmulWarp(std::shared_ptr<const Shared> d, unsigned cta, unsigned warp)
      : d_(std::move(d)), exist_(cta_lane_mask(d_->grid.threads(), warp)) {
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!((exist_ >> l) & 1u)) continue;
      d_->grid.thread_xy(cta, warp, l, j_[l], i_[l]);
      if (i_[l] < d_->s.rows && j_[l] < d_->s.cols) valid_ |= 1u << l;
    }
  }

 private:
  uint64_t out_addr(unsigned l) const { return d_->s.out + 4 * (uint64_t(i_[l]) * d_->s.cols + j_[l]); }

  bool refill() override {
    const NaiveMatmulSpec& s = d_->s;
    const bool in_mem = s.opt.accumulate_in_memory;
    if (!started_) {  // j = ...; i = ...; if ((i < rows) && (j < cols)) {
      started_ = true;
      compute(kJ, exist_);
      compute(kI, exist_);
      compute(kBound, exist_);
      if (s.init == NaiveMatmulSpec::Init::Beta) {  // out[i][j] *= beta
        load(kLdOut, 4, valid_, [&](unsigned l) { return out_addr(l); });
        compute(kScale, valid_);
      } else {  // out[i][j] = 0
        compute(kZero, valid_);
      }
      if (in_mem) store(kStInit, 4, valid_, [&](unsigned l) { return out_addr(l); });
      return valid_ != 0;
    }
    if (k_ < s.inner) {  // out[i][j] += (alpha *) a[i][k] * b[k][j]
      load(kLdA, 4, valid_, [&](unsigned l) { return s.a + 4 * (uint64_t(i_[l]) * s.inner + k_); });
      load(kLdB, 4, valid_, [&](unsigned l) { return s.b + 4 * (uint64_t(k_) * s.cols + j_[l]); });
      if (s.alpha) compute(kAlpha, valid_);
      compute(kFma, valid_);
      if (in_mem) store(kStStep, 4, valid_, [&](unsigned l) { return out_addr(l); });
      compute(kLoop, valid_);
      ++k_;
      return true;
    }
    if (!in_mem) store(kStOut, 4, valid_, [&](unsigned l) { return out_addr(l); });
    return false;
  }

  std::shared_ptr<const Shared> d_;
  uint32_t exist_, valid_ = 0;
  unsigned i_[kWarpSize] = {}, j_[kWarpSize] = {};
  bool started_ = false;
  unsigned k_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> make_naive_matmul_kernel(const NaiveMatmulSpec& spec) {
  auto d = std::make_shared<Shared>();
  d->s = spec;
  d->grid = Block2D::covering(spec.cols, spec.rows, spec.opt.block_x, spec.opt.block_y);
  const unsigned ctas = d->grid.ctas(), threads = d->grid.threads();
  return std::make_unique<KernelOf<NaiveMatmulWarp, Shared>>(spec.name, ctas, threads, std::move(d));
}

}  // namespace gpusc
