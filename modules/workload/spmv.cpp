#include "workload/spmv.h"

#include "common/report.h"

namespace gpusc {

struct SpmvWorkload::Data {
  std::shared_ptr<const CsrGraph> a;
  unsigned threads_per_cta;
  uint64_t row_ptr, col_idx, vals, x, y;  // array bases
  bool values = false;                    // stores carry y[row]
};

float SpmvWorkload::x_value(uint64_t i) { return AddressSpace::hashed_unit(0x5b3f, i); }

namespace {

enum Pc : uint32_t {
  kTid = 0x00, kBound = 0x10, kLdBegin = 0x20, kLdEnd = 0x30, kInit = 0x40,
  kLdCol = 0x50, kLdVal = 0x60, kLdX = 0x70, kFma = 0x80, kLoop = 0x90, kStY = 0xa0,
};

// y[r] as the thread computes it: float multiply-adds in the row's order.
float row_sum(const CsrGraph& a, uint32_t r) {
  float sum = 0.0f;
  for (uint32_t e = a.row_ptr[r]; e < a.row_ptr[r + 1]; ++e) sum += a.value(e) * SpmvWorkload::x_value(a.col_idx[e]);
  return sum;
}

class SpmvWarp final : public BufferedWarpStream {
 public:
  using Data = SpmvWorkload::Data;
  SpmvWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        exist_(cta_lane_mask(d_->threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, d_->a->rows)) {}

 private:
  bool refill() override {
    const CsrGraph& a = *d_->a;
    if (phase_ == 0) {  // row = blockIdx.x * blockDim.x + threadIdx.x; if (row < rows) {
      compute(kTid, exist_);
      compute(kBound, exist_);
      if (!valid_) return false;
      load(kLdBegin, 4, valid_, [&](unsigned l) { return d_->row_ptr + 4 * (first_ + l); });
      load(kLdEnd, 4, valid_, [&](unsigned l) { return d_->row_ptr + 4 * (first_ + l + 1); });
      compute(kInit, valid_);
      phase_ = 1;
      return true;
    }
    if (phase_ == 1) {  // for (e = begin + j; e < end; ...) sum += vals[e] * x[col_idx[e]];
      uint32_t m = 0;
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (((valid_ >> l) & 1u) && j_ < a.degree(static_cast<uint32_t>(first_ + l))) m |= 1u << l;
      if (m == 0) {
        phase_ = 2;
        return true;
      }
      auto e = [&](unsigned l) { return uint64_t(a.row_ptr[first_ + l]) + j_; };
      load(kLdCol, 4, m, [&](unsigned l) { return d_->col_idx + 4 * e(l); });
      load(kLdVal, 4, m, [&](unsigned l) { return d_->vals + 4 * e(l); });
      load(kLdX, 4, m, [&](unsigned l) { return d_->x + 4 * uint64_t(a.col_idx[e(l)]); });
      compute(kFma, m);
      compute(kLoop, m);
      ++j_;
      return true;
    }
    store(kStY, 4, valid_, [&](unsigned l) { return d_->y + 4 * (first_ + l); },  // y[row] = sum
          d_->values, [&](unsigned l) { return row_sum(a, static_cast<uint32_t>(first_ + l)); });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_;
  uint64_t first_;  // row of lane 0
  uint32_t valid_;
  int phase_ = 0;
  uint32_t j_ = 0;  // loop iteration
};

}  // namespace

SpmvWorkload::SpmvWorkload(const Params& p, std::shared_ptr<const CsrGraph> matrix)
    : SequenceWorkload("spmv", 1) {
  if (!matrix) error("gpusc.workload", "spmv: no input matrix");
  matrix->validate("spmv input matrix");
  validate(p, "spmv");
  const CsrGraph& a = *matrix;
  auto d = std::make_shared<Data>();
  d->threads_per_cta = p.threads_per_cta;
  d->row_ptr = space_.allocate("row_ptr", 4 * (uint64_t(a.rows) + 1));
  d->col_idx = space_.allocate("col_idx", 4 * a.nnz());
  d->vals = space_.allocate("vals", 4 * a.nnz());
  d->x = space_.allocate("x", 4 * uint64_t(a.cols));
  d->y = space_.allocate("y", 4 * uint64_t(a.rows));
  d->a = std::move(matrix);
  std::shared_ptr<const CsrGraph> m = d->a;
  space_.set_contents("row_ptr", AddressSpace::words([m](uint64_t i) { return m->row_ptr[i]; }));
  space_.set_contents("col_idx", AddressSpace::words([m](uint64_t i) { return m->col_idx[i]; }));
  space_.set_contents("vals", AddressSpace::floats([m](uint64_t e) { return m->value(e); }));
  space_.set_contents("x", AddressSpace::floats(x_value));
  space_.set_contents("y", AddressSpace::zeros());
  d_ = std::move(d);
}

std::unique_ptr<Kernel> SpmvWorkload::launch(unsigned) {
  if (values_ && !d_->values) {
    auto d = std::make_shared<Data>(*d_);
    d->values = true;
    d_ = std::move(d);
  }
  return std::make_unique<KernelOf<SpmvWarp, Data>>("spmv", ctas_for(d_->a->rows, d_->threads_per_cta),
                                                    d_->threads_per_cta, d_);
}

}  // namespace gpusc
