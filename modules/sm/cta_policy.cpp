#include "sm/cta_policy.h"

#include <algorithm>

#include "common/report.h"
#include "sm/contiguous_groups_cta_policy.h"
#include "sm/greedy_cta_policy.h"
#include "sm/round_robin_cta_policy.h"

namespace gpusc {

const char* const kCtaPolicies = "round-robin|contiguous-groups|greedy";

std::unique_ptr<CtaPolicy> make_cta_policy(const std::string& name, unsigned sms, const std::vector<unsigned>& block_of_sm,
                                           const std::string& where) {
  if (!block_of_sm.empty() && block_of_sm.size() != sms)
    error(where, "block_of_sm lists ", block_of_sm.size(), " SMs, but there are ", sms);
  if (name == "round-robin") return std::make_unique<RoundRobinCtaPolicy>();
  if (name == "greedy") return std::make_unique<GreedyCtaPolicy>();
  if (name == "contiguous-groups") {
    std::vector<unsigned> blocks = block_of_sm;
    if (blocks.empty()) blocks.assign(sms, 0);
    const unsigned n = blocks.empty() ? 0 : *std::max_element(blocks.begin(), blocks.end()) + 1;
    return std::make_unique<ContiguousGroupsCtaPolicy>(std::move(blocks), n, where);
  }
  error(where, "'", name, "' is not a CTA policy; known: round-robin, contiguous-groups, greedy");
}

}  // namespace gpusc
