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
  const uint64_t nx = p.nx, ny = p.ny;
  a_at_ = [nx, ny](uint64_t e) { return static_cast<float>((e / ny) * (e % ny + 1) % nx) / static_cast<float>(nx); };
  r_at_ = [nx](uint64_t i) { return static_cast<float>(i % nx) / static_cast<float>(nx); };
  p_at_ = [ny](uint64_t j) { return static_cast<float>(j % ny) / static_cast<float>(ny); };
  space_.set_contents("A", AddressSpace::floats(a_at_));
  space_.set_contents("r", AddressSpace::floats(r_at_));
  space_.set_contents("s", AddressSpace::zeros());
  space_.set_contents("p", AddressSpace::floats(p_at_));
  space_.set_contents("q", AddressSpace::zeros());
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
  if (values_)
    s.result = std::make_shared<const std::vector<float>>(
        dense_matvec_result(s.rows, s.cols, s.by_column, a_at_, i == 0 ? r_at_ : p_at_));
  return make_dense_matvec_kernel(s);
}

}  // namespace gpusc
