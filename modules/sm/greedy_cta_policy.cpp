#include "sm/greedy_cta_policy.h"

namespace gpusc {

bool GreedyCtaPolicy::assign(Sms& sms) {
  bool launched = false;
  for (unsigned s = 0; s < sms.count() && next_ < total_; ++s)
    while (next_ < total_ && sms.can_launch(s)) {
      sms.launch(s, next_++);
      launched = true;
    }
  return launched;
}

}  // namespace gpusc
