#include "workload/polybench_gemm.h"

namespace gpusc {

PolybenchGemmWorkload::PolybenchGemmWorkload(const Params& p) : SequenceWorkload("polybench-gemm", 1), p_(p) {
  validate(p_, "polybench-gemm");
  a_ = space_.allocate("A", 4 * uint64_t(p.ni) * p.nk);
  b_ = space_.allocate("B", 4 * uint64_t(p.nk) * p.nj);
  c_ = space_.allocate("C", 4 * uint64_t(p.ni) * p.nj);
  a_at_ = polybench_init(p.nk, 0, p.ni);
  b_at_ = polybench_init(p.nj, 0, p.ni);
  c_at_ = polybench_init(p.nj, 0, p.ni);
  space_.set_contents("A", AddressSpace::floats(a_at_));
  space_.set_contents("B", AddressSpace::floats(b_at_));
  space_.set_contents("C", AddressSpace::floats(c_at_));
}

std::unique_ptr<Kernel> PolybenchGemmWorkload::launch(unsigned) {
  NaiveMatmulSpec s;
  s.name = "polybench-gemm";
  s.rows = p_.ni;
  s.cols = p_.nj;
  s.inner = p_.nk;
  s.init = NaiveMatmulSpec::Init::Beta;
  s.alpha = true;
  s.opt = p_;
  s.a = a_;
  s.b = b_;
  s.out = c_;
  s.values = values_;
  s.a_at = a_at_, s.b_at = b_at_, s.out_at = c_at_;
  s.alpha_value = kPolybenchAlpha, s.beta_value = kPolybenchBeta;
  return make_naive_matmul_kernel(s);
}

}  // namespace gpusc
