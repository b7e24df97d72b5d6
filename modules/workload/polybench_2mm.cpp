#include "workload/polybench_2mm.h"

namespace gpusc {

Polybench2mmWorkload::Polybench2mmWorkload(const Params& p) : SequenceWorkload("2mm", 2), p_(p) {
  validate(p_, "2mm");
  a_ = space_.allocate("A", 4 * uint64_t(p.ni) * p.nk);
  b_ = space_.allocate("B", 4 * uint64_t(p.nk) * p.nj);
  tmp_ = space_.allocate("tmp", 4 * uint64_t(p.ni) * p.nj);
  c_ = space_.allocate("C", 4 * uint64_t(p.nj) * p.nl);
  d_ = space_.allocate("D", 4 * uint64_t(p.ni) * p.nl);
  a_at_ = polybench_init(p.nk, 0, p.ni);
  b_at_ = polybench_init(p.nj, 1, p.nj);
  c_at_ = polybench_init(p.nl, 3, p.nl);
  d_at_ = polybench_init(p.nl, 2, p.nk);
  space_.set_contents("A", AddressSpace::floats(a_at_));
  space_.set_contents("B", AddressSpace::floats(b_at_));
  space_.set_contents("tmp", AddressSpace::zeros());
  space_.set_contents("C", AddressSpace::floats(c_at_));
  space_.set_contents("D", AddressSpace::floats(d_at_));
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
    s.a_at = a_at_, s.b_at = b_at_;
  } else {  // D = beta * D + tmp * C
    s.name = "2mm.kernel2";
    s.cols = p_.nl;
    s.inner = p_.nj;
    s.init = NaiveMatmulSpec::Init::Beta;
    s.a = tmp_, s.b = c_, s.out = d_;
    const auto tmp = tmp_val_;
    s.a_at = [tmp](uint64_t e) { return (*tmp)[e]; };
    s.b_at = c_at_, s.out_at = d_at_;
  }
  s.alpha_value = kPolybenchAlpha, s.beta_value = kPolybenchBeta;
  s.values = values_;
  if (values_ && index == 0) tmp_val_ = std::make_shared<const std::vector<float>>(naive_matmul_result(s));
  return make_naive_matmul_kernel(s);
}

}  // namespace gpusc
