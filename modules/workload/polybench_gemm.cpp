#include "workload/polybench_gemm.h"

namespace gpusc {

PolybenchGemmWorkload::PolybenchGemmWorkload(const Params& p) : SequenceWorkload("polybench-gemm", 1), p_(p) {
  validate(p_, "polybench-gemm");
  a_ = space_.allocate("A", 4 * uint64_t(p.ni) * p.nk);
  b_ = space_.allocate("B", 4 * uint64_t(p.nk) * p.nj);
  c_ = space_.allocate("C", 4 * uint64_t(p.ni) * p.nj);
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
  return make_naive_matmul_kernel(s);
}

}  // namespace gpusc
