// ContiguousGroupsCtaPolicy: paper 003 §5.2's distributed CTA scheduler. A kernel's grid is
// split into one group of consecutive CTA ids per block ("we divide the total number of CTAs in
// a kernel equally among the number of GPMs, and assign a group of contiguous CTAs to a GPM"),
// and a block's SMs run only its group's CTAs, in index order. The split depends on the CTA
// count and the block count alone, so every launch of a kernel sends the same CTA ids to the
// same block (003 §5.3 builds on that). Uneven grids (ContiguousSplit): the first (n mod B)
// groups hold one CTA more: 10 CTAs over 4 blocks -> 0-2, 3-5, 6-7, 8-9; 7 over 3 -> 0-2, 3-4,
// 5-6.
// Within a cycle the SMs are visited as by RoundRobinCtaPolicy (from the SM after the last one
// that received a CTA, one CTA per SM per cycle, the position kept across kernels), each SM
// taking the next CTA of its own block's group.
// Open choice: no stealing. A block whose group is out idles while other blocks still hold
// CTAs (MGPUSim's partition algorithm lets such SMs take another partition's CTAs; that would
// break the "same ids, same block" property 003 relies on).
#pragma once
#include <string>
#include <vector>

#include "sm/cta_policy.h"

namespace gpusc {

class ContiguousGroupsCtaPolicy final : public CtaPolicy {
 public:
  // SM s belongs to block block_of_sm[s] < blocks; every block needs at least one SM.
  ContiguousGroupsCtaPolicy(std::vector<unsigned> block_of_sm, unsigned blocks,
                            const std::string& who = "ContiguousGroupsCtaPolicy");

  void start_kernel(unsigned ctas) override;
  bool assign(Sms& sms) override;
  unsigned pending() const override { return pending_; }

  unsigned blocks() const { return blocks_; }
  // The block CTA `cta` of the running kernel (of `ctas` CTAs) belongs to.
  unsigned block_of_cta(unsigned cta) const;

 private:
  const std::string who_;
  const std::vector<unsigned> block_of_sm_;
  const unsigned blocks_;
  unsigned ctas_ = 0, pending_ = 0;
  std::vector<unsigned> next_, end_;  // [block]: the group's next CTA and its end
  unsigned rr_ = 0;                   // the SM the next scan starts at
};

}  // namespace gpusc
