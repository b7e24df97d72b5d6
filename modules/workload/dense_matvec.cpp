#include "workload/dense_matvec.h"

#include "workload/grid_kernel.h"

namespace gpusc {
namespace {

enum Pc : uint32_t { kTid = 0x00, kBound = 0x10, kInit = 0x20, kLdA = 0x30, kLdVec = 0x40, kFma = 0x50,
                     kLoop = 0x60, kStOut = 0x70 };

class DenseMatvecWarp final : public BufferedWarpStream {
 public:
  DenseMatvecWarp(std::shared_ptr<const DenseMatvecSpec> s, unsigned cta, unsigned warp)
      : s_(std::move(s)),
        exist_(cta_lane_mask(s_->threads_per_cta, warp)),
        first_(uint64_t(cta) * s_->threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, s_->by_column ? s_->cols : s_->rows)) {}

 private:
  bool refill() override {
    const DenseMatvecSpec& s = *s_;
    const unsigned len = s.by_column ? s.rows : s.cols;
    if (!started_) {  // t = tid; if (t < outputs) { sum = 0;
      started_ = true;
      compute(kTid, exist_);
      compute(kBound, exist_);
      compute(kInit, valid_);
      return valid_ != 0;
    }
    if (j_ < len) {  // sum += A[..] * vec[j]
      auto a_index = [&](unsigned l) {
        const uint64_t t = first_ + l;
        return s.by_column ? uint64_t(j_) * s.cols + t : t * s.cols + j_;
      };
      load(kLdA, 4, valid_, [&](unsigned l) { return s.a + 4 * a_index(l); });
      load(kLdVec, 4, valid_, [&](unsigned) { return s.vec + 4 * uint64_t(j_); });
      compute(kFma, valid_);
      compute(kLoop, valid_);
      ++j_;
      return true;
    }
    store(kStOut, 4, valid_, [&](unsigned l) { return s.out + 4 * (first_ + l); }, s.result != nullptr,
          [&](unsigned l) { return (*s.result)[first_ + l]; });
    return false;
  }

  std::shared_ptr<const DenseMatvecSpec> s_;
  uint32_t exist_;
  uint64_t first_;
  uint32_t valid_;
  bool started_ = false;
  unsigned j_ = 0;
};

}  // namespace

std::vector<float> dense_matvec_result(unsigned rows, unsigned cols, bool by_column,
                                       const std::function<float(uint64_t)>& a,
                                       const std::function<float(uint64_t)>& vec) {
  std::vector<float> out(by_column ? cols : rows, 0.0f);
  for (uint64_t t = 0; t < out.size(); ++t) {
    float sum = 0.0f;
    const unsigned len = by_column ? rows : cols;
    for (unsigned j = 0; j < len; ++j) sum += a(by_column ? uint64_t(j) * cols + t : t * cols + j) * vec(j);
    out[t] = sum;
  }
  return out;
}

std::unique_ptr<Kernel> make_dense_matvec_kernel(const DenseMatvecSpec& spec) {
  auto s = std::make_shared<const DenseMatvecSpec>(spec);
  const unsigned outputs = spec.by_column ? spec.cols : spec.rows;
  return std::make_unique<KernelOf<DenseMatvecWarp, DenseMatvecSpec>>(
      spec.name, ctas_for(outputs, spec.threads_per_cta), spec.threads_per_cta, std::move(s));
}

}  // namespace gpusc
