#include "workload/polybench_2mm.h"

namespace gpusc {

Polybench2mmWorkload::Polybench2mmWorkload(const Params& p) : SequenceWorkload("2mm", 2), p_(p) {
  validate(p_, "2mm");
  a_ = space_.allocate("A", 4 * uint64_t(p.ni) * p.nk);
  b_ = space_.allocate("B", 4 * uint64_t(p.nk) * p.nj);
  tmp_ = space_.allocate("tmp", 4 * uint64_t(p.ni) * p.nj);
  c_ = space_.allocate("C", 4 * uint64_t(p.nj) * p.nl);
  d_ = space_.allocate("D", 4 * uint64_t(p.ni) * p.nl);
}

std::unique_ptr<Kernel> Polybench2mmWorkload::launch(unsigned index) {
  NaiveMatmulSpec s;
  s.opt = p_;
  s.rows = p_.ni;
  if (index == 0) {  // tmp = alpha * A * B
    s.name = "2mm.kernel1";
    s.cols = p_.nj;
    s.inner = p_.nk;
    s.alpha = true;
    s.a = a_, s.b = b_, s.out = tmp_;
  } else {  // D = beta * D + tmp * C
    s.name = "2mm.kernel2";
    s.cols = p_.nl;
    s.inner = p_.nj;
    s.init = NaiveMatmulSpec::Init::Beta;
    s.a = tmp_, s.b = c_, s.out = d_;
  }
  return make_naive_matmul_kernel(s);
}

}  // namespace gpusc
