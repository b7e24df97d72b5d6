#include "workload/polybench_3mm.h"

namespace gpusc {

Polybench3mmWorkload::Polybench3mmWorkload(const Params& p) : SequenceWorkload("3mm", 3), p_(p) {
  validate(p_, "3mm");
  a_ = space_.allocate("A", 4 * uint64_t(p.ni) * p.nk);
  b_ = space_.allocate("B", 4 * uint64_t(p.nk) * p.nj);
  c_ = space_.allocate("C", 4 * uint64_t(p.nj) * p.nm);
  d_ = space_.allocate("D", 4 * uint64_t(p.nm) * p.nl);
  e_ = space_.allocate("E", 4 * uint64_t(p.ni) * p.nj);
  f_ = space_.allocate("F", 4 * uint64_t(p.nj) * p.nl);
  g_ = space_.allocate("G", 4 * uint64_t(p.ni) * p.nl);
  a_at_ = polybench_init(p.nk, 0, p.ni);
  b_at_ = polybench_init(p.nj, 1, p.nj);
  c_at_ = polybench_init(p.nm, 3, p.nl);
  d_at_ = polybench_init(p.nl, 2, p.nk);
  space_.set_contents("A", AddressSpace::floats(a_at_));
  space_.set_contents("B", AddressSpace::floats(b_at_));
  space_.set_contents("C", AddressSpace::floats(c_at_));
  space_.set_contents("D", AddressSpace::floats(d_at_));
  for (const char* out : {"E", "F", "G"}) space_.set_contents(out, AddressSpace::zeros());
}

std::unique_ptr<Kernel> Polybench3mmWorkload::launch(unsigned index) {
  NaiveMatmulSpec s;
  s.opt = p_;
  if (index == 0) {  // E = A * B
    s.name = "3mm.kernel1";
    s.rows = p_.ni, s.cols = p_.nj, s.inner = p_.nk;
    s.a = a_, s.b = b_, s.out = e_;
    s.a_at = a_at_, s.b_at = b_at_;
  } else if (index == 1) {  // F = C * D
    s.name = "3mm.kernel2";
    s.rows = p_.nj, s.cols = p_.nl, s.inner = p_.nm;
    s.a = c_, s.b = d_, s.out = f_;
    s.a_at = c_at_, s.b_at = d_at_;
  } else {  // G = E * F
    s.name = "3mm.kernel3";
    s.rows = p_.ni, s.cols = p_.nl, s.inner = p_.nj;
    s.a = e_, s.b = f_, s.out = g_;
    const auto e = e_val_, f = f_val_;
    s.a_at = [e](uint64_t i) { return (*e)[i]; };
    s.b_at = [f](uint64_t i) { return (*f)[i]; };
  }
  s.values = values_;
  if (values_ && index < 2) (index == 0 ? e_val_ : f_val_) = std::make_shared<const std::vector<float>>(naive_matmul_result(s));
  return make_naive_matmul_kernel(s);
}

}  // namespace gpusc
