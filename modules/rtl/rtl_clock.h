// RtlClock: the clock and reset of an RTL model (a Verilated module, `verilator --sc`) that sits
// among gpusc units of one ClockDomain, and the scheduler of the pin adapters around it
// (rtl/msg_to_valid_ready.h, rtl/valid_ready_to_msg.h). DESIGN §3 "Pin level", docs/rtl-cosim.md.
//
// Timing contract. Cycle c of the domain is cycle c of the RTL: the RTL's rising edge of cycle
// c happens at the domain's edge time, right after the domain has ticked its units:
//   (tick)  the adapters write the pins they drive as soon as what they drive changes: a message
//           handed over in the domain's tick of cycle c is on the pins in that delta cycle, and
//           the RTL's combinational outputs (a ready that depends on the other side's ready)
//           follow in the next;
//   rise    the delta after the tick, clk goes high;
//   edge    the RTL's flip-flops load, seeing the pins as they stood; the adapters read the same
//           values and so know which beats moved (valid and ready both high);
//   settle  one delta later the RTL's registered outputs hold what the edge loaded; adapters
//           hand new output beats over as gpusc messages now, so the receiver latches them at
//           c + 1 as it would a message a gpusc unit sent in its tick of cycle c;
//   fall    one delta later clk is low again.
// So an RTL unit with L register stages between input and output behaves like a gpusc unit
// whose result, for a message handed over in cycle c, is latched by the receiver at c + L: a C++
// model with latency L and the RTL give the same cycle counts. A combinational path from a
// driven pin to an RTL output must settle within one delta cycle: it may go through one
// Verilated module (whose eval settles its logic at once), not through a chain of them.
// The clock is a pulse inside the edge's time step, made of delta cycles: the RTL adds no timed
// event to the simulation. (Same-time edges of several clock domains run in the order
// ClockDomain fixes, whatever timed events there are; an owner whose next tick depends on an
// answer holds it with ClockDomain::hold until the answer comes, docs/rtl-cosim.md.) In a VCD
// the clock does not show; the pins and the RTL's registers change at the edge times.
// Messages must come from units ticked by this domain (or from another adapter of the same
// clock): one handed over at an edge time from elsewhere is an error, since whether that edge
// saw it would depend on process order. Adapters are called in the order they were attached.
// Idle costs nothing: the clock runs (one rising edge per cycle) only while an adapter holds a
// message or a presented beat, or a registered activity says the RTL holds work (add_activity:
// e.g. beats taken in and not yet out of a pipeline); it stops low, and a kick() (adapters call
// it) restarts it at the right edge. The clock is a Tickable of the domain, woken for the next
// edge while busy, as a C++ model with that work would be. An RTL model whose state changes with
// no input must declare an activity that is always true.
// Reset: rst is high during one clock pulse in the first delta cycles of time 0, so the first
// working edge is cycle 0's (a message handed over in cycle 0's tick is on the pins after the
// pulse, and cycle 0's edge sees it). clk and rst are written only by this clock's process;
// adapter-driven pins by the adapters, from the domain's tick or this clock's process
// (ValidReadyBundle signals allow both). The clock and its adapters must tick on the SystemC
// thread (lane 0 of the domain).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/stats.h"

namespace gpusc {

class RtlClock : public sc_core::sc_module, private Tickable {
 public:
  // A pin adapter, called by the clock at its three steps (see above).
  class Endpoint {
   public:
    virtual ~Endpoint() = default;
    virtual void init() = 0;        // after reset: write the driven pins' idle values
    virtual void sample() = 0;      // edge: read the values the edge saw
    virtual void settle() = 0;      // settle: read what the edge loaded into the RTL's registers
    virtual bool busy() const = 0;  // needs further edges
  };

  sc_core::sc_signal<bool> clk{"clk"};
  sc_core::sc_signal<bool> rst{"rst"};

  SC_HAS_PROCESS(RtlClock);
  RtlClock(sc_core::sc_module_name name, ClockDomain& domain);
  RtlClock(const RtlClock&) = delete;
  RtlClock& operator=(const RtlClock&) = delete;

  // Adapters are called in the order they were attached (their construction order).
  void attach(Endpoint& e) { endpoints_.push_back(&e); }
  // Work inside the RTL that no adapter sees: the clock runs while f() is true.
  void add_activity(std::function<bool()> f) { activity_.push_back(std::move(f)); }
  // An adapter has something to drive or wait for: run the clock from the edge that should see it.
  void kick();

  ClockDomain& domain() { return domain_; }
  bool running() const { return phase_ != Phase::Idle; }
  uint64_t rising_edges() const { return edges_.value(); }

 private:
  enum class Phase { ResetHigh, ResetLow, Idle, Armed, Rise, Edge, Settle, Fall };
  bool tick(uint64_t cycle) override;
  void run();
  bool busy() const;
  void rise_now(uint64_t cycle);
  void arm(uint64_t cycle);

  ClockDomain& domain_;
  sc_core::sc_event ev_;
  Phase phase_ = Phase::ResetHigh;
  bool kicked_in_reset_ = false;
  uint64_t cycle_ = 0;  // cycle of the current (or last) rising edge
  std::vector<Endpoint*> endpoints_;
  std::vector<std::function<bool()>> activity_;
  sc_core::sc_process_handle process_;
  StatGroup stats_;
  Counter& edges_;
};

}  // namespace gpusc
