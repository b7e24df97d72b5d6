#include "sm/cta_scheduler.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

CtaScheduler::CtaScheduler(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Workload& workload,
                           std::vector<SmCore*> sms, const std::vector<unsigned>& block_of_sm)
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
    sm->add_cta_done_listener([this](SmCore&, unsigned) { cta_done(); });
  }
  policy_ = make_cta_policy(p_.policy, static_cast<unsigned>(sms_.size()), block_of_sm,
                            std::string(this->name()) + ".policy");
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
            sm->params().max_threads, ", shared_bytes ", sm->params().shared_bytes, "; a CTA needs ",
            k->shared_bytes_per_cta(), " bytes of shared memory)");
  kernel_ = std::move(k);
  kernel_id_ = kernels_started_++;
  ++kernels_;
  retired_ = 0;
  total_ctas_ = p_.max_ctas ? std::min(p_.max_ctas, kernel_->num_ctas()) : kernel_->num_ctas();
  launched_.assign(total_ctas_, false);
  policy_->start_kernel(total_ctas_);
  return true;
}

bool CtaScheduler::Offer::can_launch(unsigned sm) const {
  if (sm >= s_.sms_.size()) error(s_.name(), "the CTA policy asked about SM ", sm, " of ", s_.sms_.size());
  return s_.sms_[sm]->can_launch(*s_.kernel_);
}

void CtaScheduler::Offer::launch(unsigned sm, unsigned cta) {
  if (sm >= s_.sms_.size()) error(s_.name(), "the CTA policy launched on SM ", sm, " of ", s_.sms_.size());
  if (cta >= s_.total_ctas_ || s_.launched_[cta])
    error(s_.name(), "the CTA policy handed out CTA ", cta, " of kernel ", s_.kernel_id_, " (", s_.total_ctas_,
          " CTAs) ", cta >= s_.total_ctas_ ? "which does not exist" : "a second time");
  s_.launched_[cta] = true;
  s_.sms_[sm]->launch(s_.kernel_, s_.kernel_id_, cta);
  ++s_.ctas_launched_;
}

bool CtaScheduler::tick(uint64_t cycle) {
  if (done_) return false;
  // Close finished kernels (a kernel without CTAs closes at once) and open the next.
  while (!kernel_ || retired_ == total_ctas_) {
    if (kernel_) {
      if (!std::all_of(sms_.begin(), sms_.end(), [](const SmCore* s) { return s->idle(); }))
        return true;  // the last CTAs' memory traffic is still draining
      if (drain_check_ && !drain_check_()) return true;
      kernel_.reset();
      if (on_boundary_) on_boundary_(kernel_id_);
    }
    if (!start_next_kernel(cycle)) return false;
  }
  const bool launched = policy_->pending() > 0 && policy_->assign(offer_);
  return launched && policy_->pending() > 0;  // else an SM's retired CTA wakes us
}

}  // namespace gpusc
