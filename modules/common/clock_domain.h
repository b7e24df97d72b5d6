// ClockDomain: one clock of the platform (core 1400 MHz, NoC 700 MHz, DRAM 924 MHz in paper
// 000 Table II) without a free-running SystemC clock channel (DESIGN §4). It converts cycles to time and
// runs the units of its domain that have work:
//
//   * a unit derives from Tickable and asks wake(u, cycle) for the edge it needs;
//   * at each edge that has wake-ups, ONE SC_METHOD calls tick(cycle) on exactly those units,
//     in the order their wake-ups were requested (deterministic);
//   * tick() returns true to run again at the next edge, false to sleep until woken.
//
// A domain with nothing scheduled has no pending event: idle units cost nothing (P8).
// Conventions: a wake-up for the cycle being dispatched, or an earlier one, runs at the next
// edge. Input handed over between edges (a TLM call at time t) is latched at the first edge
// strictly after the cycle that contains t (cycle_after(t)): one register stage, so the result
// does not depend on the order processes run within a time step.
// Open choice: the period is rounded to the SystemC time resolution (1 ps by default), e.g.
// 700 MHz -> 1429 ps; all conversions use the rounded period so they stay consistent.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include <systemc>

namespace gpusc {

class ClockDomain;

class Tickable {
 public:
  virtual ~Tickable() = default;
  // Work of one cycle; return true to be ticked again at cycle + 1.
  virtual bool tick(uint64_t cycle) = 0;

 private:
  friend class ClockDomain;
  uint64_t wake_at_ = UINT64_MAX;  // cycle this unit is scheduled for (UINT64_MAX: asleep)
};

class ClockDomain : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ClockDomain);
  ClockDomain(sc_core::sc_module_name name, double freq_mhz);
  ClockDomain(const ClockDomain&) = delete;
  ClockDomain& operator=(const ClockDomain&) = delete;

  double freq_mhz() const { return freq_mhz_; }
  const sc_core::sc_time& period() const { return period_; }
  sc_core::sc_time time_of(uint64_t cycle) const { return period_ * static_cast<double>(cycle); }
  // Cycle containing time t (floor).
  uint64_t cycle_of(const sc_core::sc_time& t) const { return t.value() / period_.value(); }
  uint64_t now() const { return cycle_of(sc_core::sc_time_stamp()); }
  // The cycle whose units are being ticked, or UINT64_MAX outside a tick.
  uint64_t dispatching() const { return dispatching_; }
  // First edge at or after t.
  uint64_t cycle_at_or_after(const sc_core::sc_time& t) const {
    return (t.value() + period_.value() - 1) / period_.value();
  }
  // Latch cycle for input handed over at time t (see header comment).
  uint64_t cycle_after(const sc_core::sc_time& t) const { return cycle_of(t) + 1; }

  // Schedule u at `cycle` (or the next edge not yet dispatched, whichever is later).
  // A unit already scheduled earlier keeps its earlier slot.
  void wake(Tickable& u, uint64_t cycle);
  // Latch-style wake-up for input arriving now from outside the domain's tick.
  void wake_after_now(Tickable& u) { wake(u, cycle_after(sc_core::sc_time_stamp())); }

  uint64_t dispatched_ticks() const { return ticks_; }   // tick() calls so far
  uint64_t active_edges() const { return edges_; }       // edges that had work

 private:
  static constexpr unsigned kWheel = 256;  // calendar slots; farther wake-ups wait in a heap
  struct Far {
    uint64_t cycle;
    uint64_t seq;
    Tickable* u;
    bool operator>(const Far& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
  };
  void run_edge();
  void arm(uint64_t cycle);
  bool next_pending(uint64_t& cycle) const;

  const double freq_mhz_;
  const sc_core::sc_time period_;
  sc_core::sc_event edge_;
  std::vector<std::vector<Tickable*>> wheel_;
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
  std::vector<Tickable*> running_;          // bucket being dispatched (swapped out)
  uint64_t in_wheel_ = 0;                   // entries in wheel_ (stale ones included)
  uint64_t base_ = 0;                       // wheel covers cycles [base_, base_ + kWheel)
  uint64_t dispatching_ = UINT64_MAX;       // cycle being dispatched, if any
  uint64_t armed_ = UINT64_MAX;             // cycle edge_ is notified for
  uint64_t seq_ = 0;
  uint64_t ticks_ = 0, edges_ = 0;
};

}  // namespace gpusc
