#include "workload/bicg.h"

#include "workload/dense_matvec.h"

namespace gpusc {

BicgWorkload::BicgWorkload(const Params& p) : SequenceWorkload("bicg", 2), p_(p) {
  validate(p_, "bicg");
  a_ = space_.allocate("A", 4 * uint64_t(p.nx) * p.ny);
  r_ = space_.allocate("r", 4 * uint64_t(p.nx));
  s_ = space_.allocate("s", 4 * uint64_t(p.ny));
  p_vec_ = space_.allocate("p", 4 * uint64_t(p.ny));
  q_ = space_.allocate("q", 4 * uint64_t(p.nx));
}

std::unique_ptr<Kernel> BicgWorkload::launch(unsigned i) {
  DenseMatvecSpec s;
  s.rows = p_.nx;
  s.cols = p_.ny;
  s.threads_per_cta = p_.threads_per_cta;
  s.a = a_;
  if (i == 0) {  // s = A^T r
    s.name = "bicg.kernel1";
    s.by_column = true;
    s.vec = r_;
    s.out = s_;
  } else {  // q = A p
    s.name = "bicg.kernel2";
    s.vec = p_vec_;
    s.out = q_;
  }
  return make_dense_matvec_kernel(s);
}

}  // namespace gpusc
