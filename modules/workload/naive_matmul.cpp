#include "workload/naive_matmul.h"

#include <cmath>

#include "common/report.h"

#include "workload/grid_kernel.h"

namespace gpusc {
namespace {

enum Pc : uint32_t {
  kJ = 0x00, kI = 0x10, kBound = 0x20, kLdOut = 0x30, kScale = 0x40, kZero = 0x50, kStInit = 0x60,
  kLdA = 0x70, kLdB = 0x80, kAlpha = 0x90, kFma = 0xa0, kStStep = 0xb0, kLoop = 0xc0, kStOut = 0xd0,
};

float initial(const NaiveMatmulSpec& s, uint64_t e) {
  return s.init == NaiveMatmulSpec::Init::Beta ? s.beta_value * s.out_at(e) : 0.0f;
}

float step(const NaiveMatmulSpec& s, unsigned i, unsigned j, unsigned k, float acc) {
  const float a = s.a_at(uint64_t(i) * s.inner + k);
  return std::fma(s.alpha ? s.alpha_value * a : a, s.b_at(uint64_t(k) * s.cols + j), acc);
}

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
      if (s.values)
        for (unsigned l = 0; l < kWarpSize; ++l)
          if ((valid_ >> l) & 1u) acc_[l] = initial(s, uint64_t(i_[l]) * s.cols + j_[l]);
      if (in_mem) store(kStInit, 4, valid_, [&](unsigned l) { return out_addr(l); }, s.values, [&](unsigned l) { return acc_[l]; });
      return valid_ != 0;
    }
    if (k_ < s.inner) {  // out[i][j] += (alpha *) a[i][k] * b[k][j]
      load(kLdA, 4, valid_, [&](unsigned l) { return s.a + 4 * (uint64_t(i_[l]) * s.inner + k_); });
      load(kLdB, 4, valid_, [&](unsigned l) { return s.b + 4 * (uint64_t(k_) * s.cols + j_[l]); });
      if (s.alpha) compute(kAlpha, valid_);
      compute(kFma, valid_);
      if (s.values)
        for (unsigned l = 0; l < kWarpSize; ++l)
          if ((valid_ >> l) & 1u) acc_[l] = step(s, i_[l], j_[l], k_, acc_[l]);
      if (in_mem) store(kStStep, 4, valid_, [&](unsigned l) { return out_addr(l); }, s.values, [&](unsigned l) { return acc_[l]; });
      compute(kLoop, valid_);
      ++k_;
      return true;
    }
    if (!in_mem) store(kStOut, 4, valid_, [&](unsigned l) { return out_addr(l); }, s.values, [&](unsigned l) { return acc_[l]; });
    return false;
  }

  std::shared_ptr<const Shared> d_;
  uint32_t exist_, valid_ = 0;
  unsigned i_[kWarpSize] = {}, j_[kWarpSize] = {};
  float acc_[kWarpSize] = {};  // values: each lane's running output element
  bool started_ = false;
  unsigned k_ = 0;
};

}  // namespace

std::vector<float> naive_matmul_result(const NaiveMatmulSpec& s) {
  if (!s.a_at || !s.b_at || (s.init == NaiveMatmulSpec::Init::Beta && !s.out_at))
    error(s.name, "naive_matmul_result needs the element functions of a, b and (beta) out");
  std::vector<float> out(uint64_t(s.rows) * s.cols);
  for (unsigned i = 0; i < s.rows; ++i)
    for (unsigned j = 0; j < s.cols; ++j) {
      float acc = initial(s, uint64_t(i) * s.cols + j);
      for (unsigned k = 0; k < s.inner; ++k) acc = step(s, i, j, k, acc);
      out[uint64_t(i) * s.cols + j] = acc;
    }
  return out;
}

std::function<float(uint64_t)> polybench_init(uint64_t cols, unsigned shift, unsigned n) {
  return [cols, shift, n](uint64_t e) {
    return static_cast<float>((e / cols) * (e % cols + shift)) / static_cast<float>(n);
  };
}

std::unique_ptr<Kernel> make_naive_matmul_kernel(const NaiveMatmulSpec& spec) {
  if (spec.values && (!spec.a_at || !spec.b_at || (spec.init == NaiveMatmulSpec::Init::Beta && !spec.out_at)))
    error(spec.name, "values are on but the element functions of a, b (and out) are not all given");
  auto d = std::make_shared<Shared>();
  d->s = spec;
  d->grid = Block2D::covering(spec.cols, spec.rows, spec.opt.block_x, spec.opt.block_y);
  const unsigned ctas = d->grid.ctas(), threads = d->grid.threads();
  return std::make_unique<KernelOf<NaiveMatmulWarp, Shared>>(spec.name, ctas, threads, std::move(d));
}

}  // namespace gpusc
