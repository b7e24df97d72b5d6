// GreedyCtaPolicy: "greedy" CTA dispatch (paper 004 §5, MGPUSim's greedy algorithm, which
// "fills a CU before moving to another"). Each cycle the next CTA, in index order, goes to the
// lowest-numbered SM that has room for it, again and again until no SM has room or every CTA is
// out. So SM 0 fills up to its CTA / warp / thread limit before SM 1 gets a CTA, a grid smaller
// than the GPU's capacity occupies the lowest SMs only, and an SM freed later takes the next
// CTA in the cycle after its CTA retired (with several free, the lowest first).
// Open choice: no per-cycle launch limit (an SM may take several CTAs in one cycle), as
// MGPUSim's dispatcher hands out work-groups back to back.
#pragma once
#include "sm/cta_policy.h"

namespace gpusc {

class GreedyCtaPolicy final : public InOrderCtaPolicy {
 public:
  bool assign(Sms& sms) override;
};

}  // namespace gpusc
