// RoundRobinCtaPolicy: GPGPU-Sim's global CTA scheduler, the baseline of papers 000 and 001 and
// of paper 003's MCM-GPU (§3: "schedules CTAs to MCM-GPU SMs globally in a round-robin manner
// as SMs become available"). Each cycle every SM is visited once, starting at the SM after the
// last one that received a CTA; each SM with room takes the next CTA in index order (so at most
// one CTA per SM per cycle). That position carries over from kernel to kernel.
#pragma once
#include "sm/cta_policy.h"

namespace gpusc {

class RoundRobinCtaPolicy final : public InOrderCtaPolicy {
 public:
  bool assign(Sms& sms) override;

 private:
  unsigned rr_ = 0;  // the SM the next scan starts at
};

}  // namespace gpusc
