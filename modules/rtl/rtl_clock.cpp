#include "rtl/rtl_clock.h"

#include "common/report.h"

namespace gpusc {

RtlClock::RtlClock(sc_core::sc_module_name name, ClockDomain& domain)
    : sc_core::sc_module(name),
      domain_(domain),
      edges_(stats_.counter("rising_edges", Unit::Cycles, "cycles the RTL was clocked (the clock stops while idle)")) {
  SC_METHOD(run);
  sensitive << ev_;  // runs once at initialization: the reset pulse
  process_ = sc_core::sc_get_current_process_handle();
}

bool RtlClock::busy() const {
  for (const Endpoint* e : endpoints_)
    if (e->busy()) return true;
  for (const auto& f : activity_)
    if (f()) return true;
  return false;
}

void RtlClock::rise_now(uint64_t cycle) {
  cycle_ = cycle;
  phase_ = Phase::Rise;
  ev_.notify(sc_core::SC_ZERO_TIME);  // the delta after the domain's tick
}

void RtlClock::kick() {
  if (ClockDomain::current_lane() != 0)
    error(name(), "an RTL adapter was used from a ClockDomain worker thread (lane ",
          ClockDomain::current_lane(), "); place the units that talk to RTL in lane 0");
  switch (phase_) {
    case Phase::ResetHigh:
    case Phase::ResetLow:
      kicked_in_reset_ = true;
      return;
    case Phase::Idle:
      break;
    default:
      return;  // running: the next rise comes anyway, and the fall sees the work
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const uint64_t c = domain_.now();
  if (domain_.dispatching() == c) {  // handed over in this edge's tick: this edge sees it
    rise_now(c);
    return;
  }
  if (sc_core::sc_get_current_process_handle() != process_ && now == domain_.time_of(c))
    error(name(), "a message reached an RTL adapter at an edge of ", domain_.name(), " (cycle ", c,
          ") from outside that clock domain's tick; whether that edge sees it would depend on process order. Feed "
          "the adapters from units of ", domain_.name(), " (docs/rtl-cosim.md)");
  arm(c + 1);
}

void RtlClock::arm(uint64_t cycle) {
  phase_ = Phase::Armed;
  domain_.wake(*this, cycle);  // that edge's tick raises the clock
}

bool RtlClock::tick(uint64_t cycle) {
  if (phase_ == Phase::Armed) rise_now(cycle);
  return false;  // the falling edge decides whether the next cycle needs us
}

void RtlClock::run() {
  switch (phase_) {
    case Phase::ResetHigh:  // initialization: one pulse with rst high
      rst.write(true);
      clk.write(true);
      phase_ = Phase::ResetLow;
      ev_.notify(sc_core::SC_ZERO_TIME);
      return;
    case Phase::ResetLow:
      rst.write(false);
      clk.write(false);
      for (Endpoint* e : endpoints_) e->init();  // the pins' idle values
      phase_ = Phase::Idle;
      if (kicked_in_reset_ || busy()) rise_now(domain_.now());  // handed over in cycle 0's tick
      return;
    case Phase::Rise:
      clk.write(true);
      ++edges_;
      phase_ = Phase::Edge;
      ev_.notify(sc_core::SC_ZERO_TIME);
      return;
    case Phase::Edge:
      for (Endpoint* e : endpoints_) e->sample();
      phase_ = Phase::Settle;
      ev_.notify(sc_core::SC_ZERO_TIME);
      return;
    case Phase::Settle:
      for (Endpoint* e : endpoints_) e->settle();
      phase_ = Phase::Fall;
      ev_.notify(sc_core::SC_ZERO_TIME);
      return;
    case Phase::Fall:
      clk.write(false);
      if (busy()) arm(cycle_ + 1);
      else phase_ = Phase::Idle;
      return;
    case Phase::Armed:
    case Phase::Idle:
      return;
  }
}

}  // namespace gpusc
