#include "workload/atax.h"

#include "workload/dense_matvec.h"

namespace gpusc {

AtaxWorkload::AtaxWorkload(const Params& p) : SequenceWorkload("atax", 2), p_(p) {
  validate(p_, "atax");
  a_ = space_.allocate("A", 4 * uint64_t(p.nx) * p.ny);
  x_ = space_.allocate("x", 4 * uint64_t(p.ny));
  tmp_ = space_.allocate("tmp", 4 * uint64_t(p.nx));
  y_ = space_.allocate("y", 4 * uint64_t(p.ny));
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
  return make_dense_matvec_kernel(s);
}

}  // namespace gpusc
