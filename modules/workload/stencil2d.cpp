#include "workload/stencil2d.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

struct Stencil2dWorkload::Data {
  unsigned rows, cols, points;
  Block2D grid;
  uint64_t src, dst, power;
  std::shared_ptr<const std::vector<float>> result;  // values on: the grid this step stores
};

namespace {

enum Pc : uint32_t {
  kX = 0x00, kY = 0x10, kBound = 0x20, kClampNS = 0x30, kClampWE = 0x40, kLdC = 0x50, kLdN = 0x60,
  kLdS = 0x70, kLdW = 0x80, kLdE = 0x90, kLdNW = 0xa0, kLdNE = 0xb0, kLdSW = 0xc0, kLdSE = 0xd0,
  kLdPower = 0xe0, kMath = 0xf0, kStDst = 0x200,
};
constexpr unsigned kMathOps = 6;       // hotspot's update: 2 FADD, 3 FFMA, 1 FMUL
constexpr unsigned kDiagonalOps = 4;   // the diagonals' sum: 3 FADD, 1 FFMA

class Stencil2dWarp final : public BufferedWarpStream {
 public:
  using Data = Stencil2dWorkload::Data;
  Stencil2dWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)), exist_(cta_lane_mask(d_->grid.threads(), warp)) {
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!((exist_ >> l) & 1u)) continue;
      d_->grid.thread_xy(cta, warp, l, x_[l], y_[l]);
      if (x_[l] < d_->cols && y_[l] < d_->rows) valid_ |= 1u << l;
    }
  }

 private:
  uint64_t cell(unsigned x, unsigned y) const { return uint64_t(y) * d_->cols + x; }

  bool refill() override {
    compute(kX, exist_);
    compute(kY, exist_);
    compute(kBound, exist_);
    if (!valid_) return false;
    compute(kClampNS, valid_);  // N = max(y - 1, 0), S = min(y + 1, rows - 1)
    compute(kClampWE, valid_);  // W = max(x - 1, 0), E = min(x + 1, cols - 1)
    const unsigned last_x = d_->cols - 1, last_y = d_->rows - 1;
    auto at = [&](uint64_t base, int dx, int dy) {
      return [this, base, dx, dy, last_x, last_y](unsigned l) {
        const unsigned x = dx < 0 ? (x_[l] ? x_[l] - 1 : 0) : dx > 0 ? std::min(x_[l] + 1, last_x) : x_[l];
        const unsigned y = dy < 0 ? (y_[l] ? y_[l] - 1 : 0) : dy > 0 ? std::min(y_[l] + 1, last_y) : y_[l];
        return base + 4 * cell(x, y);
      };
    };
    load(kLdC, 4, valid_, at(d_->src, 0, 0));
    load(kLdN, 4, valid_, at(d_->src, 0, -1));
    load(kLdS, 4, valid_, at(d_->src, 0, 1));
    load(kLdW, 4, valid_, at(d_->src, -1, 0));
    load(kLdE, 4, valid_, at(d_->src, 1, 0));
    if (d_->points == 9) {
      load(kLdNW, 4, valid_, at(d_->src, -1, -1));
      load(kLdNE, 4, valid_, at(d_->src, 1, -1));
      load(kLdSW, 4, valid_, at(d_->src, -1, 1));
      load(kLdSE, 4, valid_, at(d_->src, 1, 1));
    }
    load(kLdPower, 4, valid_, at(d_->power, 0, 0));
    const unsigned ops = kMathOps + (d_->points == 9 ? kDiagonalOps : 0);
    for (unsigned i = 0; i < ops; ++i) compute(kMath + 0x10 * i, valid_);
    store(kStDst, 4, valid_, at(d_->dst, 0, 0), d_->result != nullptr,
          [&](unsigned l) { return (*d_->result)[cell(x_[l], y_[l])]; });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_, valid_ = 0;
  unsigned x_[kWarpSize] = {}, y_[kWarpSize] = {};
};

}  // namespace

Stencil2dWorkload::Stencil2dWorkload(const Params& p)
    : SequenceWorkload("stencil2d", p.iterations), p_(p) {
  validate(p_, "stencil2d");
  if (p.points != 5 && p.points != 9) error("gpusc.workload", "stencil2d.points = ", p.points, " is neither 5 nor 9");
  if (uint64_t(p.block_x) * p.block_y > 1024)
    error("gpusc.workload", "stencil2d.block_x * block_y = ", uint64_t(p.block_x) * p.block_y,
          " exceeds 1024 threads per CTA");
  grid_ = Block2D::covering(p.cols, p.rows, p.block_x, p.block_y);
  const uint64_t bytes = 4 * uint64_t(p.rows) * p.cols;
  temp_[0] = space_.allocate("temp0", bytes);
  temp_[1] = space_.allocate("temp1", bytes);
  power_ = space_.allocate("power", bytes);
  space_.set_contents("temp0", AddressSpace::floats(temp0_value));
  space_.set_contents("temp1", AddressSpace::zeros());
  space_.set_contents("power", AddressSpace::floats(power_value));
}

std::unique_ptr<Kernel> Stencil2dWorkload::launch(unsigned i) {
  std::shared_ptr<const std::vector<float>> result;
  if (values_) {  // the step on the host, with the kernel's clamped neighbours and float arithmetic
    const unsigned rows = p_.rows, cols = p_.cols;
    if (!cur_) {
      auto t0 = std::make_shared<std::vector<float>>(uint64_t(rows) * cols);
      for (uint64_t c = 0; c < t0->size(); ++c) (*t0)[c] = temp0_value(c);
      cur_ = std::move(t0);
    }
    auto next = std::make_shared<std::vector<float>>(uint64_t(rows) * cols);
    const std::vector<float>& t = *cur_;
    for (unsigned y = 0; y < rows; ++y)
      for (unsigned x = 0; x < cols; ++x) {
        auto at = [&](unsigned xx, unsigned yy) { return t[uint64_t(yy) * cols + xx]; };
        const unsigned xw = x ? x - 1 : 0, xe = std::min(x + 1, cols - 1);
        const unsigned yn = y ? y - 1 : 0, ys = std::min(y + 1, rows - 1);
        const float c = at(x, y), n = at(x, yn), s = at(x, ys), w = at(xw, y), e = at(xe, y);
        float out = c + 0.1f * (n + s + w + e - 4.0f * c);
        if (p_.points == 9) out += 0.05f * (at(xw, yn) + at(xe, yn) + at(xw, ys) + at(xe, ys) - 4.0f * c);
        (*next)[uint64_t(y) * cols + x] = out + 0.01f * power_value(uint64_t(y) * cols + x);
      }
    result = next;
    cur_ = std::move(next);
  }
  auto d = std::make_shared<const Data>(
      Data{p_.rows, p_.cols, p_.points, grid_, temp_[i % 2], temp_[(i + 1) % 2], power_, std::move(result)});
  return std::make_unique<KernelOf<Stencil2dWarp, Data>>("stencil2d.step" + std::to_string(i), grid_.ctas(),
                                                         grid_.threads(), std::move(d));
}

}  // namespace gpusc
