#include "workload/atax.h"

#include "workload/dense_matvec.h"

namespace gpusc {

AtaxWorkload::AtaxWorkload(const Params& p) : SequenceWorkload("atax", 2), p_(p) {
  validate(p_, "atax");
  a_ = space_.allocate("A", 4 * uint64_t(p.nx) * p.ny);
  x_ = space_.allocate("x", 4 * uint64_t(p.ny));
  tmp_ = space_.allocate("tmp", 4 * uint64_t(p.nx));
  y_ = space_.allocate("y", 4 * uint64_t(p.ny));
  const uint64_t nx = p.nx, ny = p.ny;
  a_at_ = [nx, ny](uint64_t e) { return static_cast<float>((e / ny + e % ny) % ny) / static_cast<float>(5 * nx); };
  x_at_ = [ny](uint64_t j) { return 1.0f + static_cast<float>(j) / static_cast<float>(ny); };
  space_.set_contents("A", AddressSpace::floats(a_at_));
  space_.set_contents("x", AddressSpace::floats(x_at_));
  space_.set_contents("tmp", AddressSpace::zeros());
  space_.set_contents("y", AddressSpace::zeros());
}

std::unique_ptr<Kernel> AtaxWorkload::launch(unsigned i) {
  DenseMatvecSpec s;
  s.rows = p_.nx;
  s.cols = p_.ny;
  s.threads_per_cta = p_.threads_per_cta;
  s.a = a_;
  if (i == 0) {  // tmp = A x
    s.name = "atax.kernel1";
    s.vec = x_;
    s.out = tmp_;
  } else {  // y = A^T tmp
    s.name = "atax.kernel2";
    s.by_column = true;
    s.vec = tmp_;
    s.out = y_;
  }
  if (values_) {
    if (i == 0) tmp_val_ = std::make_shared<const std::vector<float>>(dense_matvec_result(s.rows, s.cols, false, a_at_, x_at_));
    const auto tmp = tmp_val_;
    s.result = i == 0 ? tmp
                      : std::make_shared<const std::vector<float>>(dense_matvec_result(
                            s.rows, s.cols, true, a_at_, [tmp](uint64_t k) { return (*tmp)[k]; }));
  }
  return make_dense_matvec_kernel(s);
}

}  // namespace gpusc
