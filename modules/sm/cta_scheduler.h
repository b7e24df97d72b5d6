// CtaScheduler: the GPU's global CTA (thread block) scheduler (DESIGN §6). It runs a Workload's
// kernels one after the other: it launches next_kernel(), hands that kernel's CTAs to the SMs
// as they have room, in the order its CtaPolicy (cta_policy.h; Params::policy) decides, and
// once every CTA of the kernel has retired and every SM is idle (drained, write acks included)
// it calls the kernel-boundary hook (the platform flushes L1s there) and launches the next
// kernel. When the workload ends it sets done(), records the finish cycle and notifies
// finished().
// Blocks: block_of_sm[s] is the block of SM s (a GPU module, a GPU), for policies that keep
// CTAs within a block; empty = one block. The default policy, round-robin, is GPGPU-Sim's: each
// cycle at most one CTA per SM, the scan starting at the SM after the last one that received a
// CTA, that position carried over from kernel to kernel.
// Open choices:
//   * the policy is asked once per cycle while CTAs are pending and it launched some in the
//     previous cycle, otherwise when an SM retires a CTA;
//   * kernel ids count launches from 0; max_ctas cuts the grid before the policy sees it (a
//     contiguous-groups split is of the first max_ctas CTAs);
//   * the boundary hook runs after every kernel, the last one included, in the cycle the
//     drain is seen; the next kernel's first CTAs are launched in that same cycle;
//   * while the last CTAs' stores drain the scheduler checks idle() every cycle (there is no
//     idle event); otherwise it sleeps until an SM reports a retired CTA;
//   * the scheduler listens to each SM's CTA completions through add_cta_done_listener(), next
//     to any other listener; it sets no SM hook;
//   * a kernel whose CTA does not fit an empty SM is an error (it could never run).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/params.h"
#include "common/stats.h"
#include "sm/cta_policy.h"
#include "sm/sm_core.h"
#include "workload/kernel.h"

namespace gpusc {

class CtaScheduler : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned max_kernels = 0;  // kernels to run, for short runs (0 = until the workload ends)
    unsigned max_ctas = 0;     // CTAs launched per kernel, for short runs (0 = all)
    std::string policy = "round-robin";  // which SM runs which CTA (cta_policy.h)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM(max_kernels, "kernels to run before finishing (0 = every kernel of the workload)");
      GPUSC_PARAM(max_ctas, "CTAs launched per kernel, the first ones by index (0 = all)");
      GPUSC_PARAM_C(policy, "round-robin|contiguous-groups|greedy",
                    "round-robin: GPGPU-Sim's global scheduler; contiguous-groups: one contiguous group of CTA ids "
                    "per block, run by that block's SMs (003 §5.2); greedy: each CTA to the lowest SM with room (004 §5)");
    }
  };
  using KernelHook = std::function<void(unsigned finished_kernel_id)>;

  // Starts at cycle 0. `workload` and the SMs must outlive the scheduler. block_of_sm: the
  // block of each SM (empty: all in block 0).
  CtaScheduler(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Workload& workload,
               std::vector<SmCore*> sms, const std::vector<unsigned>& block_of_sm = {});
  CtaScheduler(const CtaScheduler&) = delete;
  CtaScheduler& operator=(const CtaScheduler&) = delete;

  void set_on_kernel_boundary(KernelHook f) { on_boundary_ = std::move(f); }
  // An extra condition for a kernel boundary, asked with every SM idle: false keeps the kernel
  // open (checked again next cycle), e.g. while units in front of the L1s still have messages
  // in flight (gpu/platform.h). Unset: SM idleness alone.
  void set_drain_check(std::function<bool()> f) { drain_check_ = std::move(f); }

  bool done() const { return done_; }
  const sc_core::sc_event& finished() const { return finished_; }
  uint64_t finish_cycle() const { return finish_cycle_; }  // valid once done()
  unsigned kernels_started() const { return kernels_started_; }
  // Progress of the running kernel (both 0 between kernels): CTAs retired, CTAs to run.
  unsigned ctas_retired() const { return kernel_ ? retired_ : 0; }
  unsigned ctas_total() const { return kernel_ ? total_ctas_ : 0; }
  const CtaPolicy& policy() const { return *policy_; }

 private:
  // The SMs as the policy sees them in one cycle.
  struct Offer final : CtaPolicy::Sms {
    explicit Offer(CtaScheduler& s) : s_(s) {}
    unsigned count() const override { return static_cast<unsigned>(s_.sms_.size()); }
    bool can_launch(unsigned sm) const override;
    void launch(unsigned sm, unsigned cta) override;
    CtaScheduler& s_;
  };

  bool tick(uint64_t cycle) override;
  bool start_next_kernel(uint64_t cycle);  // false when the workload has ended
  void cta_done();

  const Params p_;
  ClockDomain& clk_;
  Workload& workload_;
  std::vector<SmCore*> sms_;
  std::shared_ptr<const Kernel> kernel_;  // the running kernel (nullptr between kernels)
  unsigned kernel_id_ = 0, kernels_started_ = 0;
  unsigned total_ctas_ = 0, retired_ = 0;
  std::vector<bool> launched_;  // [cta] of the running kernel: a policy hands each CTA out once
  std::unique_ptr<CtaPolicy> policy_;
  Offer offer_{*this};
  bool done_ = false;
  uint64_t finish_cycle_ = 0;
  sc_core::sc_event finished_;
  KernelHook on_boundary_;
  std::function<bool()> drain_check_;

  StatGroup stats_;
  Counter& kernels_;
  Counter& ctas_launched_;
  Counter& ctas_done_;
};

}  // namespace gpusc
