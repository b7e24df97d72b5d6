#include "sm/cta_scheduler.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

CtaScheduler::CtaScheduler(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Workload& workload,
                           std::vector<SmCore*> sms)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      workload_(workload),
      sms_(std::move(sms)),
      finished_((std::string(this->name()) + "_finished").c_str()),
      kernels_(stats_.counter("kernels", Unit::Count, "kernels launched")),
      ctas_launched_(stats_.counter("ctas_launched", Unit::Count, "CTAs handed to SMs")),
      ctas_done_(stats_.counter("ctas_done", Unit::Count, "CTAs retired")) {
  validate(p, this->name());
  if (sms_.empty()) error(this->name(), "a CTA scheduler needs at least one SM");
  for (SmCore* sm : sms_) {
    if (!sm) error(this->name(), "SM list holds a null pointer");
    sm->set_on_cta_done([this](SmCore&, unsigned) { cta_done(); });
  }
  stats_.invariant("ctas_done <= ctas_launched", [this] { return ctas_done_.value() <= ctas_launched_.value(); });
  clk_.wake(*this, 0);
}

void CtaScheduler::cta_done() {
  ++ctas_done_;
  ++retired_;
  clk_.wake_after_now(*this);
}

bool CtaScheduler::start_next_kernel(uint64_t cycle) {
  std::unique_ptr<Kernel> k;
  if (p_.max_kernels == 0 || kernels_started_ < p_.max_kernels) k = workload_.next_kernel();
  if (!k) {
    done_ = true;
    finish_cycle_ = cycle;
    finished_.notify(sc_core::SC_ZERO_TIME);
    return false;
  }
  for (SmCore* sm : sms_)
    if (!sm->fits(*k))
      error(name(), "kernel '", k->name(), "' has CTAs of ", k->threads_per_cta(), " threads (", k->warps_per_cta(),
            " warps) that do not fit SM ", sm->name(), " (max_warps ", sm->params().max_warps, ", max_threads ",
            sm->params().max_threads, ")");
  kernel_ = std::move(k);
  kernel_id_ = kernels_started_++;
  ++kernels_;
  next_cta_ = retired_ = 0;
  total_ctas_ = p_.max_ctas ? std::min(p_.max_ctas, kernel_->num_ctas()) : kernel_->num_ctas();
  return true;
}

bool CtaScheduler::tick(uint64_t cycle) {
  if (done_) return false;
  // Close finished kernels (a kernel without CTAs closes at once) and open the next.
  while (!kernel_ || retired_ == total_ctas_) {
    if (kernel_) {
      if (!std::all_of(sms_.begin(), sms_.end(), [](const SmCore* s) { return s->idle(); }))
        return true;  // the last CTAs' memory traffic is still draining
      kernel_.reset();
      if (on_boundary_) on_boundary_(kernel_id_);
    }
    if (!start_next_kernel(cycle)) return false;
  }
  // At most one CTA per SM this cycle, scanning from the SM after the last one served.
  const unsigned n = static_cast<unsigned>(sms_.size());
  const unsigned first = rr_;
  bool launched = false;
  for (unsigned i = 0; i < n && next_cta_ < total_ctas_; ++i) {
    const unsigned s = (first + i) % n;
    if (!sms_[s]->can_launch(*kernel_)) continue;
    sms_[s]->launch(kernel_, kernel_id_, next_cta_++);
    ++ctas_launched_;
    launched = true;
    rr_ = (s + 1) % n;
  }
  return launched && next_cta_ < total_ctas_;  // else an SM's retired CTA wakes us
}

}  // namespace gpusc
