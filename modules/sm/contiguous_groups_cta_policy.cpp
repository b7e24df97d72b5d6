#include "sm/contiguous_groups_cta_policy.h"

#include "common/contiguous_split.h"
#include "common/report.h"

namespace gpusc {

ContiguousGroupsCtaPolicy::ContiguousGroupsCtaPolicy(std::vector<unsigned> block_of_sm, unsigned blocks,
                                                     const std::string& who)
    : who_(who), block_of_sm_(std::move(block_of_sm)), blocks_(blocks), next_(blocks), end_(blocks) {
  if (blocks_ == 0) error(who_, "contiguous-groups needs at least one block, got 0");
  std::vector<unsigned> sms_of(blocks_, 0);
  for (unsigned s = 0; s < block_of_sm_.size(); ++s) {
    if (block_of_sm_[s] >= blocks_)
      error(who_, "SM ", s, " is in block ", block_of_sm_[s], ", but there are ", blocks_, " blocks");
    ++sms_of[block_of_sm_[s]];
  }
  for (unsigned b = 0; b < blocks_; ++b)
    if (sms_of[b] == 0) error(who_, "block ", b, " has no SM, so its group of CTAs could never run");
}

void ContiguousGroupsCtaPolicy::start_kernel(unsigned ctas) {
  const ContiguousSplit split(ctas, blocks_);
  for (unsigned b = 0; b < blocks_; ++b) {
    next_[b] = split.begin(b);
    end_[b] = split.end(b);
  }
  ctas_ = pending_ = ctas;
}

unsigned ContiguousGroupsCtaPolicy::block_of_cta(unsigned cta) const { return ContiguousSplit(ctas_, blocks_).group_of(cta); }

bool ContiguousGroupsCtaPolicy::assign(Sms& sms) {
  const unsigned n = sms.count();
  if (n != block_of_sm_.size())
    error(who_, "built for ", block_of_sm_.size(), " SMs but the scheduler has ", n);
  const unsigned first = rr_;
  bool launched = false;
  for (unsigned i = 0; i < n && pending_ > 0; ++i) {
    const unsigned s = (first + i) % n;
    const unsigned b = block_of_sm_[s];
    if (next_[b] == end_[b] || !sms.can_launch(s)) continue;
    sms.launch(s, next_[b]++);
    --pending_;
    launched = true;
    rr_ = (s + 1) % n;
  }
  return launched;
}

}  // namespace gpusc
