#include "common/clock_domain.h"

#include <cmath>
#include <string>

namespace gpusc {

namespace {
sc_core::sc_time period_for(double freq_mhz, const char* who) {
  if (!(freq_mhz > 0.0) || !std::isfinite(freq_mhz)) {
    std::string m = "clock frequency must be a positive number of MHz, got " + std::to_string(freq_mhz);
    SC_REPORT_ERROR(who, m.c_str());
  }
  const double ps = 1e6 / freq_mhz;
  const sc_core::sc_time res = sc_core::sc_get_time_resolution();
  sc_core::sc_time p(std::round(ps / res.to_seconds() * 1e-12) * res.to_seconds(), sc_core::SC_SEC);
  if (p == sc_core::SC_ZERO_TIME) {
    std::string m = "clock period of " + std::to_string(freq_mhz) + " MHz is below the time resolution";
    SC_REPORT_ERROR(who, m.c_str());
  }
  return p;
}
}  // namespace

ClockDomain::ClockDomain(sc_core::sc_module_name name, double freq_mhz)
    : sc_core::sc_module(name),
      freq_mhz_(freq_mhz),
      period_(period_for(freq_mhz, this->name())),
      wheel_(kWheel) {
  SC_METHOD(run_edge);
  sensitive << edge_;
  dont_initialize();
}

void ClockDomain::wake(Tickable& u, uint64_t cycle) {
  if (dispatching_ != UINT64_MAX) {
    if (cycle <= dispatching_) cycle = dispatching_ + 1;
  } else {
    const uint64_t now_c = cycle_at_or_after(sc_core::sc_time_stamp());
    if (cycle < now_c) cycle = now_c;
    if (cycle < base_) cycle = base_;  // that edge has been dispatched already
  }
  if (cycle >= u.wake_at_) return;  // already due no later than that
  u.wake_at_ = cycle;
  if (cycle < base_ + kWheel && cycle >= base_) {
    wheel_[cycle % kWheel].push_back(&u);
    ++in_wheel_;
  } else {
    far_.push(Far{cycle, seq_++, &u});
  }
  arm(cycle);
}

void ClockDomain::arm(uint64_t cycle) {
  if (cycle >= armed_) return;
  armed_ = cycle;
  edge_.notify(time_of(cycle) - sc_core::sc_time_stamp());
}

bool ClockDomain::next_pending(uint64_t& cycle) const {
  bool found = false;
  if (in_wheel_) {
    for (uint64_t c = base_; c < base_ + kWheel; ++c)
      if (!wheel_[c % kWheel].empty()) { cycle = c; found = true; break; }
  }
  if (!far_.empty() && (!found || far_.top().cycle < cycle)) { cycle = far_.top().cycle; found = true; }
  return found;
}

void ClockDomain::run_edge() {
  const uint64_t c = cycle_of(sc_core::sc_time_stamp());
  armed_ = UINT64_MAX;
  // Slide the wheel so it starts at c, then pull in far wake-ups that now fit.
  if (c > base_) base_ = c;
  while (!far_.empty() && far_.top().cycle < base_ + kWheel) {
    Far f = far_.top();
    far_.pop();
    wheel_[f.cycle % kWheel].push_back(f.u);
    ++in_wheel_;
  }
  running_.swap(wheel_[c % kWheel]);
  in_wheel_ -= running_.size();
  dispatching_ = c;
  bool any = false;
  for (Tickable* u : running_) {
    if (u->wake_at_ != c) continue;  // stale: rescheduled earlier and already ran
    u->wake_at_ = UINT64_MAX;
    any = true;
    ++ticks_;
    // Re-arm for c + 1: wake() without its checks (that slot is in the wheel); nothing to do if
    // the unit got itself woken for c + 1 during its tick.
    if (u->tick(c) && u->wake_at_ > c + 1) {
      u->wake_at_ = c + 1;
      wheel_[(c + 1) % kWheel].push_back(u);
      ++in_wheel_;
      arm(c + 1);
    }
  }
  running_.clear();
  dispatching_ = UINT64_MAX;
  if (any) ++edges_;
  base_ = c + 1;
  uint64_t next;
  if (next_pending(next)) arm(next);
}

}  // namespace gpusc
