#include "sm/warp_scheduler.h"

#include "common/report.h"

namespace gpusc {

WarpScheduler::WarpScheduler(Policy policy, unsigned warps, const std::string& who)
    : policy_(policy), n_(warps), age_(warps, 0) {
  if (warps == 0 || warps > kMaxWarps)
    error(who, "a warp scheduler handles 1..", kMaxWarps, " warps, got ", warps,
          "; lower max_warps or raise schedulers");
}

WarpScheduler::Policy WarpScheduler::policy_from(const std::string& name, const std::string& who) {
  if (name == "gto") return Policy::Gto;
  if (name == "lrr") return Policy::Lrr;
  error(who, "unknown warp scheduling policy '", name, "'; use gto or lrr");
}

void WarpScheduler::launched(unsigned w) { age_.at(w) = seq_++; }

void WarpScheduler::finished(unsigned w) {
  if (policy_ == Policy::Gto && last_ == static_cast<int>(w)) last_ = -1;
}

int WarpScheduler::pick(uint64_t ready) {
  if (ready == 0) return -1;
  int w = -1;
  if (policy_ == Policy::Gto) {
    if (last_ >= 0 && ((ready >> last_) & 1u)) return last_;
    for (unsigned i = 0; i < n_; ++i)
      if (((ready >> i) & 1u) && (w < 0 || age_[i] < age_[static_cast<unsigned>(w)])) w = static_cast<int>(i);
  } else {
    const unsigned start = last_ < 0 ? 0 : (static_cast<unsigned>(last_) + 1) % n_;
    for (unsigned k = 0; k < n_ && w < 0; ++k) {
      const unsigned i = (start + k) % n_;
      if ((ready >> i) & 1u) w = static_cast<int>(i);
    }
  }
  last_ = w;
  return w;
}

}  // namespace gpusc
