#include "sm/round_robin_cta_policy.h"

namespace gpusc {

bool RoundRobinCtaPolicy::assign(Sms& sms) {
  const unsigned n = sms.count();
  const unsigned first = rr_;
  bool launched = false;
  for (unsigned i = 0; i < n && next_ < total_; ++i) {
    const unsigned s = (first + i) % n;
    if (!sms.can_launch(s)) continue;
    sms.launch(s, next_++);
    launched = true;
    rr_ = (s + 1) % n;
  }
  return launched;
}

}  // namespace gpusc
