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
// Edges of several domains at the same time (1400 MHz cores and NoC: every edge) run in the
// order the domains were made, not in the order of SystemC's timed-event queue: that order
// depends on the history of every notification, so an extra timed event anywhere could change
// which domain goes first, and units do read other domains' port states in their ticks
// (MsgOut::busy()). A domain whose edge comes up while an earlier domain's edge of that time has
// not run waits a delta cycle; while an earlier domain has held units (hold() below), it waits
// for their resolve().
// Conventions: a wake-up for the cycle being dispatched, or an earlier one, runs at the next
// edge. Input handed over between edges (a TLM call at time t) is latched at the first edge
// strictly after the cycle that contains t (cycle_after(t)): one register stage, so the result
// does not depend on the order processes run within a time step.
// Lanes (speed, optional): set_lanes(n) splits the domain's units into n lanes, each with its own
// calendar. At an edge lane 0 runs on the SystemC thread and lanes 1.. on worker threads, all at
// once. A unit's tick may touch only state of its own lane, and wake only units of its lane
// (checked). Work for another lane is left in a two-half mailbox: during an edge senders fill
// half exchange_half() and call exchanged(); the domain then runs the next cycle's edge, where
// each lane first runs its at_lane_start() hooks, which empty the other half into that lane's
// units. So a message reaches another lane one cycle after it was sent, before that lane's
// units tick (a Network's flits and credits between lanes are usable two cycles or more after
// they are sent, so nothing changes for them). Results do not depend on the lane count as long
// as units of one edge do not depend on each other's tick order, which the latching convention
// below already requires. A worker thread ticks only its own domain's lane, so units of lanes
// 1.. must not call into other clock domains. With pin (the default) and at least n CPUs allowed
// to the process (Linux), lane i's thread is pinned to the i-th of them when the workers start,
// the SystemC thread included (a thread that moves between cores refills its caches).
// Open choice: the period is rounded to the SystemC time resolution (1 ps by default), e.g.
// 700 MHz -> 1429 ps; all conversions use the rounded period so they stay consistent.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
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
  unsigned lane_ = 0;              // ClockDomain lane (see ClockDomain::place)
  bool held_ = false;              // ClockDomain::hold() awaits its resolve()
  bool held_first_ = false;        // the held place is the unit's first entry in its bucket
  bool hold_open_ = false;         // the held place is to be decided (it had none at c + 1)
  uint64_t alt_at_ = UINT64_MAX;   // while held: where wake-ups would have put it without the hold
};

class ClockDomain : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ClockDomain);
  ClockDomain(sc_core::sc_module_name name, double freq_mhz);
  ~ClockDomain() override;
  ClockDomain(const ClockDomain&) = delete;
  ClockDomain& operator=(const ClockDomain&) = delete;

  // Lanes: before the unit is first woken. place(u, l) puts u in lane l (default 0).
  void set_lanes(unsigned n, bool pin = true);
  unsigned lanes() const { return static_cast<unsigned>(lanes_.size()); }
  void place(Tickable& u, unsigned lane);
  // Run by lane `lane` at the start of every edge, before its units tick (mail from other lanes).
  void at_lane_start(unsigned lane, std::function<void()> f);
  // During an edge: the mailbox half senders fill (the other half is being emptied), and the call
  // a sender makes so that the next cycle's edge runs.
  unsigned exchange_half() const { return lanes_[t_lane_]->half; }
  void exchanged() { lanes_[t_lane_]->exchanged = true; }
  // The lane whose units the calling thread is ticking (0 outside a parallel edge).
  static unsigned current_lane() { return t_lane_; }

  double freq_mhz() const { return freq_mhz_; }
  const sc_core::sc_time& period() const { return period_; }
  sc_core::sc_time time_of(uint64_t cycle) const { return period_ * static_cast<double>(cycle); }
  // Cycle containing time t (floor).
  uint64_t cycle_of(const sc_core::sc_time& t) const { return t.value() / period_.value(); }
  uint64_t now() const { return cycle_of(sc_core::sc_time_stamp()); }
  // The cycle whose units are being ticked, or UINT64_MAX outside a tick.
  uint64_t dispatching() const { return lanes_[t_lane_]->now; }
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

  // A tick whose need of the next edge is known only later in the same time step (a unit that
  // hands work to an RTL model answering in the delta cycles after the edge, rtl/rtl_clock.h).
  // hold(u), in u's tick of cycle c (lane 0): u takes its place at c + 1 in this edge's order, as
  // returning true would. resolve(u, needed), before c + 1's edge: needed keeps that place;
  // otherwise the domain goes on as if the tick had returned false, and wake-ups that came in
  // between take the places they would have taken then (a unit that woke itself for c + 1 in
  // its tick keeps that place whatever `needed` says). Until the domain's last hold is
  // resolved its edge is not over: edges of later domains (see above) at that time wait. So
  // where a unit ticks, and what other domains' units see of it in that time step, do not depend
  // on whether its answer came inside its tick or a few delta cycles later.
  void hold(Tickable& u);
  void resolve(Tickable& u, bool needed);

  uint64_t dispatched_ticks() const;                      // tick() calls so far
  uint64_t active_edges() const { return edges_; }       // edges that had work

 private:
  static constexpr unsigned kWheel = 256;  // calendar slots; farther wake-ups wait in a heap
  struct Far {
    uint64_t cycle;
    uint64_t seq;
    Tickable* u;
    bool operator>(const Far& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
  };
  // One calendar: the units of a lane, touched only by the thread ticking the lane while an edge
  // runs. A worker reports an edge done in `result`, one word on a line of its own (the SystemC
  // thread polls it): the edge's parity (bit 0), whether a unit ticked (bit 1), whether a tick
  // threw (bit 2, the exception in `error`), and the lane's next cycle with work (bits 3..,
  // kNone: none).
  struct alignas(64) Lane {
    std::vector<std::vector<Tickable*>> wheel;
    std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far;
    std::vector<Tickable*> running;  // bucket being dispatched (swapped out)
    uint64_t in_wheel = 0;           // entries in wheel (stale ones included)
    uint64_t far_seq = 0;            // order of far wake-ups of one cycle
    uint64_t ticks = 0;
    uint64_t now = UINT64_MAX;       // cycle of the edge the lane is running, if any
    unsigned half = 0;               // mailbox half its senders fill in that edge
    bool exchanged = false;          // left mail for another lane in it
    std::vector<std::function<void()>> start;  // at_lane_start hooks
    std::exception_ptr error;
    alignas(64) std::atomic<uint64_t> result{0};
    Lane() : wheel(kWheel) {}
  };
  static constexpr uint64_t kNone = (uint64_t{1} << 61) - 1;  // "no next cycle" in Lane::result
  // Worker threads for lanes 1..: each waits for the next edge in go_, ticks its lane, reports.
  struct Workers;
  void run_edge();
  void begin_lane(Lane& l, uint64_t c, unsigned half);
  void run_lane(Lane& l, uint64_t c);
  uint64_t finish_lane(Lane& l, uint64_t c, uint64_t ticks_before, unsigned parity);
  uint64_t run_lane_caught(Lane& l, uint64_t c, unsigned parity);
  uint64_t run_parallel(uint64_t c, unsigned parity);
  void work(unsigned lane);
  void publish(uint64_t go);
  void arm(uint64_t cycle);
  void enqueue(Lane& l, Tickable& u, uint64_t cycle, uint64_t base);
  void wake_held(Tickable& u, uint64_t cycle, uint64_t base);
  bool due_at(const sc_core::sc_time& t) const;  // its edge at t is armed and has not run

  static inline thread_local unsigned t_lane_ = 0;  // lane the calling thread ticks

  const double freq_mhz_;
  const sc_core::sc_time period_;
  sc_core::sc_event edge_;
  // Read by every lane's thread, set before simulation: a line apart from the fields below,
  // which the SystemC thread updates at each edge.
  alignas(64) std::vector<std::unique_ptr<Lane>> lanes_;
  std::unique_ptr<Workers> workers_;
  alignas(64) uint64_t base_ = 0;           // wheels cover cycles [base_, base_ + kWheel)
  uint64_t armed_ = UINT64_MAX;             // cycle edge_ is notified for
  uint64_t edges_ = 0;
  uint64_t seq_ = 0;                        // edges run (parity: the new edge's flag for workers)
  bool woken_ = false;                      // some unit was woken (lanes are fixed from then on)
  unsigned holds_ = 0;                      // units held (hold()) and not resolved yet
  std::vector<ClockDomain*> waiting_;       // later domains whose same-time edge waits for them
  bool pin_ = true;                         // pin lane threads to CPUs (set_lanes)
  unsigned top_placed_ = 0;                 // highest lane a unit was placed in
  bool parallel_ = false;                   // lanes are ticking on their threads
  // The next edge for the workers: its cycle (bits 2..), stop (bit 1), seq_'s parity (bit 0);
  // a line of its own, written once per edge, which idle workers poll.
  struct alignas(64) Go {
    std::atomic<uint64_t> word{0};
    std::atomic<unsigned> sleepers{0};  // workers asleep (or about to be) on Workers::cv
  } go_;
};

}  // namespace gpusc
