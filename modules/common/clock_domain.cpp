#include "common/clock_domain.h"

#include <algorithm>
#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "common/report.h"

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

namespace {
// Waiting for another thread: plain re-reads for up to kSpin (the other side usually answers
// within microseconds; no pause instruction: under a hypervisor it may cost a vCPU exit), then
// yields, so that threads outnumbering the cores still get to run, and after kYield a worker
// sleeps.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr auto kYield = std::chrono::milliseconds(2);
struct Waiter {
  unsigned round = 0;
  std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
  std::chrono::steady_clock::duration waited{};
  void relax() {
    if (++round % 256 == 0) waited = std::chrono::steady_clock::now() - since;
    if (waited < kSpin) __asm__ __volatile__("" ::: "memory");
    else std::this_thread::yield();
  }
  bool tired() const { return waited >= kYield; }
};
}  // namespace

namespace {
// Every ClockDomain of the process, in the order they were made. Edges of several domains at one
// time run in this order: run_edge waits a delta cycle while an earlier domain's edge at that
// time is still to run. SystemC would run them in the order of its timed-event queue, which
// depends on the whole history of notifications, so one extra timed event anywhere (a probe, a
// monitor, a unit answering a few delta cycles later) could change which domain goes first, and
// units read port states of other domains in their ticks.
std::vector<ClockDomain*>& domains_in_order() {
  static std::vector<ClockDomain*> all;
  return all;
}
}  // namespace

// Worker threads: lane i (1..) runs on threads[i - 1]. A worker polls go_ for the next edge a
// while (edges follow each other within microseconds while the simulation runs), then sleeps on
// `cv` (between sc_start() calls, at the end).
struct ClockDomain::Workers {
  std::vector<std::thread> threads;
  std::mutex m;
  std::condition_variable cv;
};

ClockDomain::ClockDomain(sc_core::sc_module_name name, double freq_mhz)
    : sc_core::sc_module(name),
      freq_mhz_(freq_mhz),
      period_(period_for(freq_mhz, this->name())) {
  lanes_.push_back(std::make_unique<Lane>());
  domains_in_order().push_back(this);
  SC_METHOD(run_edge);
  sensitive << edge_;
  dont_initialize();
}

ClockDomain::~ClockDomain() {
  auto& all = domains_in_order();
  all.erase(std::find(all.begin(), all.end(), this));
  if (!workers_) return;
  publish(2 | ((seq_ + 1) & 1));  // stop
  for (auto& t : workers_->threads) t.join();
}

void ClockDomain::set_lanes(unsigned n, bool pin) {
  if (n == 0 || n > 64) error(name(), "lanes must be in [1, 64], got ", n);
  if (woken_ || workers_) error(name(), "set_lanes() after units were scheduled: call it before simulation");
  if (n <= top_placed_) error(name(), "set_lanes(", n, ") but a unit was placed in lane ", top_placed_);
  while (lanes_.size() < n) lanes_.push_back(std::make_unique<Lane>());
  lanes_.resize(n);
  pin_ = pin;
}

namespace {
// Pins the calling thread to the i-th CPU the process may use, if there are at least `lanes`.
void pin_lane_thread(unsigned i, unsigned lanes) {
#ifdef __linux__
  static const cpu_set_t allowed = [] {
    cpu_set_t s;
    CPU_ZERO(&s);
    if (sched_getaffinity(0, sizeof s, &s) != 0) CPU_ZERO(&s);
    return s;
  }();
  if (static_cast<unsigned>(CPU_COUNT(&allowed)) < lanes) return;
  for (unsigned cpu = 0, k = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    if (k++ < i) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    return;
  }
#else
  (void)i, (void)lanes;
#endif
}
}  // namespace

void ClockDomain::place(Tickable& u, unsigned lane) {
  if (lane >= lanes_.size()) error(name(), "lane ", lane, " does not exist; the domain has ", lanes_.size());
  if (u.wake_at_ != UINT64_MAX) error(name(), "place() on a unit that is already scheduled");
  u.lane_ = lane;
  top_placed_ = std::max(top_placed_, lane);
}

void ClockDomain::at_lane_start(unsigned lane, std::function<void()> f) {
  if (lane >= lanes_.size()) error(name(), "lane ", lane, " does not exist; the domain has ", lanes_.size());
  lanes_[lane]->start.push_back(std::move(f));
}

uint64_t ClockDomain::dispatched_ticks() const {
  uint64_t n = 0;
  for (const auto& l : lanes_) n += l->ticks;
  return n;
}

// Puts u in l's calendar at `cycle` (inlined: wake() is on every unit's path).
[[gnu::always_inline]] inline void ClockDomain::enqueue(Lane& l, Tickable& u, uint64_t cycle, uint64_t base) {
  if (cycle < base + kWheel) {
    l.wheel[cycle % kWheel].push_back(&u);
    ++l.in_wheel;
  } else {
    l.far.push(Far{cycle, l.far_seq++, &u});
  }
  // Lanes ticking at once cannot touch the SystemC event: run_edge arms the next edge at its end.
  if (!parallel_) arm(cycle);
}

void ClockDomain::wake(Tickable& u, uint64_t cycle) {
  if (u.lane_ != t_lane_ && parallel_)
    error(name(), "a unit of lane ", t_lane_, " woke a unit of lane ", u.lane_,
          " during a parallel edge; units of different lanes exchange work through the mailbox"
          " (exchanged(), at_lane_start())");
  Lane& l = *lanes_[u.lane_];
  uint64_t base = l.now;  // inside an edge the lane's wheel starts at its cycle
  if (base != UINT64_MAX) {
    if (cycle <= base) cycle = base + 1;
  } else {
    base = base_;
    const uint64_t now_c = cycle_at_or_after(sc_core::sc_time_stamp());
    if (cycle < now_c) cycle = now_c;
    if (cycle < base) cycle = base;  // that edge has been dispatched already
    woken_ = true;
  }
  if (cycle >= u.wake_at_) {  // already due no later than that
    if (u.held_) wake_held(u, cycle, base);  // (a held unit is due at the held place)
    return;
  }
  u.wake_at_ = cycle;
  enqueue(l, u, cycle, base);
}

// A wake-up while u holds its place: it takes the place it would have taken had the tick
// returned false, in case the hold is resolved as not needed (a stale entry otherwise).
void ClockDomain::wake_held(Tickable& u, uint64_t cycle, uint64_t base) {
  if (!u.hold_open_ || cycle >= u.alt_at_) return;
  u.alt_at_ = cycle;
  enqueue(*lanes_[u.lane_], u, cycle, base);
}

void ClockDomain::hold(Tickable& u) {
  const uint64_t c = lanes_[0]->now;
  if (c == UINT64_MAX || u.lane_ != 0 || t_lane_ != 0)
    error(name(), "hold() outside a tick of lane 0; a unit holds its next edge from its own tick");
  if (u.held_) error(name(), "hold() on a unit already held");
  u.hold_open_ = u.wake_at_ > c + 1;  // else it woke itself for c + 1 in its tick: it runs then anyway
  if (u.hold_open_) {
    // A stale entry of an earlier schedule for c + 1 would be its place in either case.
    const auto& bucket = lanes_[0]->wheel[(c + 1) % kWheel];
    u.held_first_ = std::find(bucket.begin(), bucket.end(), &u) == bucket.end();
    wake(u, c + 1);
  }
  u.held_ = true;
  u.alt_at_ = UINT64_MAX;
  ++holds_;
}

void ClockDomain::resolve(Tickable& u, bool needed) {
  if (!u.held_) error(name(), "resolve() on a unit that is not held");
  u.held_ = false;
  if (--holds_ == 0) {  // this domain's edge is over: the later domains' edges of this time run
    for (ClockDomain* d : waiting_) d->edge_.notify(sc_core::SC_ZERO_TIME);
    waiting_.clear();
  }
  if (needed || !u.hold_open_) return;  // its place stays; places taken while held are stale entries
  if (u.held_first_) {  // the held place goes: a wake-up for that cycle, then or later, comes after
    Lane& l = *lanes_[0];
    auto& bucket = l.wheel[u.wake_at_ % kWheel];
    const auto it = std::find(bucket.begin(), bucket.end(), &u);
    if (it == bucket.end()) error(name(), "resolve(): the held place is gone; was its edge run before the answer?");
    bucket.erase(it);
    --l.in_wheel;
  }
  u.wake_at_ = u.alt_at_;
  u.alt_at_ = UINT64_MAX;
}

void ClockDomain::arm(uint64_t cycle) {
  if (cycle >= armed_) return;
  armed_ = cycle;
  edge_.notify(time_of(cycle) - sc_core::sc_time_stamp());
}

// Starts the lane's edge of cycle c: its mail, then its bucket (the wheel starts at c), after
// pulling in far wake-ups that now fit.
void ClockDomain::begin_lane(Lane& l, uint64_t c, unsigned half) {
  l.now = c;
  l.half = half;
  for (auto& f : l.start) f();
  while (!l.far.empty() && l.far.top().cycle < c + kWheel) {
    const Far f = l.far.top();
    l.far.pop();
    l.wheel[f.cycle % kWheel].push_back(f.u);
    ++l.in_wheel;
  }
  l.running.swap(l.wheel[c % kWheel]);
  l.in_wheel -= l.running.size();
}

void ClockDomain::run_lane(Lane& l, uint64_t c) {
  for (Tickable* u : l.running) {
    if (u->wake_at_ != c) continue;  // stale: rescheduled earlier and already ran
    u->wake_at_ = UINT64_MAX;
    ++l.ticks;
    // Re-arm for c + 1: wake() without its checks (that slot is in the wheel); nothing to do if
    // the unit got itself woken for c + 1 during its tick.
    if (u->tick(c) && u->wake_at_ > c + 1) {
      u->wake_at_ = c + 1;
      l.wheel[(c + 1) % kWheel].push_back(u);
      ++l.in_wheel;
      if (!parallel_) arm(c + 1);
    }
  }
  l.running.clear();
}

// Ends the lane's edge of cycle c; returns its report (see Lane::result).
uint64_t ClockDomain::finish_lane(Lane& l, uint64_t c, uint64_t ticks_before, unsigned parity) {
  l.now = UINT64_MAX;
  uint64_t next = kNone;
  if (l.in_wheel) {
    for (uint64_t x = c + 1; x < c + kWheel; ++x)
      if (!l.wheel[x % kWheel].empty()) { next = x; break; }
  }
  if (!l.far.empty()) next = std::min(next, l.far.top().cycle);
  if (l.exchanged) {  // the receivers take it at the start of the next edge
    next = std::min(next, c + 1);
    l.exchanged = false;
  }
  return next << 3 | uint64_t{l.ticks != ticks_before} << 1 | parity;
}

bool ClockDomain::due_at(const sc_core::sc_time& t) const {
  return armed_ != UINT64_MAX && time_of(armed_) == t;
}

void ClockDomain::run_edge() {
  for (ClockDomain* d : domains_in_order()) {
    if (d == this) break;
    if (d->holds_) {  // an earlier domain's edge of this time is not over: its last resolve() resumes this
      d->waiting_.push_back(this);
      return;
    }
    if (d->due_at(sc_core::sc_time_stamp())) {  // an earlier domain's edge of this time goes first
      edge_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
  }
  const uint64_t c = cycle_of(sc_core::sc_time_stamp());
  if (holds_) error(name(), "a unit held in cycle ", c - 1, " was not resolved before its edge");
  armed_ = UINT64_MAX;
  if (c > base_) base_ = c;
  const unsigned parity = static_cast<unsigned>(++seq_ & 1);
  uint64_t report;  // bit 1: a unit ticked; bits 3..: the earliest next cycle (see Lane::result)
  if (lanes_.size() == 1) {
    Lane& l0 = *lanes_[0];
    const uint64_t ticks = l0.ticks;
    begin_lane(l0, c, parity);
    run_lane(l0, c);
    report = finish_lane(l0, c, ticks, parity);
  } else {
    report = run_parallel(c, parity);
  }
  if (report & 2) ++edges_;
  base_ = c + 1;
  if ((report >> 3) != kNone) arm(report >> 3);
}

// One lane's edge on a thread that must not let an exception escape: the exception is kept in
// l.error and the report says so (bit 2).
uint64_t ClockDomain::run_lane_caught(Lane& l, uint64_t c, unsigned parity) {
  const uint64_t ticks = l.ticks;
  try {
    begin_lane(l, c, parity);
    run_lane(l, c);
    return finish_lane(l, c, ticks, parity);
  } catch (...) {
    l.error = std::current_exception();
    l.running.clear();
    l.now = UINT64_MAX;
    return kNone << 3 | 4 | parity;
  }
}

// Lanes 1.. on their workers while lane 0 runs here; then the first error any lane threw, or the
// lanes' reports merged (any unit ticked, earliest next cycle).
uint64_t ClockDomain::run_parallel(uint64_t c, unsigned parity) {
  if (!workers_) {
    const unsigned n = static_cast<unsigned>(lanes_.size());
    if (pin_) pin_lane_thread(0, n);  // the mask is read first, while this thread may still use every CPU
    workers_ = std::make_unique<Workers>();
    for (unsigned i = 1; i < n; ++i)
      workers_->threads.emplace_back([this, i, n] {
        if (pin_) pin_lane_thread(i, n);
        work(i);
      });
  }
  parallel_ = true;
  publish(c << 2 | parity);
  uint64_t merged = run_lane_caught(*lanes_[0], c, parity);
  uint64_t next = merged >> 3;
  for (size_t i = 1; i < lanes_.size(); ++i) {
    const Lane& l = *lanes_[i];
    uint64_t r;
    for (Waiter w; ((r = l.result.load(std::memory_order_acquire)) & 1) != parity;) w.relax();
    merged |= r;
    next = std::min(next, r >> 3);
  }
  parallel_ = false;
  if (!(merged & 4)) return next << 3 | (merged & 2);
  for (auto& l : lanes_)
    if (l->error) {
      std::exception_ptr x = l->error;
      for (auto& y : lanes_) y->error = nullptr;
      std::rethrow_exception(x);
    }
  return next << 3 | (merged & 2);  // not reached: a report with bit 2 has its error kept
}

// Hands go (see go_) to the workers (seq_cst with a worker's sleepers increment: either the
// worker sees the new word before it waits, or this sees the sleeper and wakes it).
void ClockDomain::publish(uint64_t go) {
  go_.word.store(go);
  if (go_.sleepers.load()) {
    { std::lock_guard<std::mutex> lk(workers_->m); }
    workers_->cv.notify_all();
  }
}

// Worker thread of lane i: waits for each published edge (polling a while, then asleep), ticks
// the lane and reports.
void ClockDomain::work(unsigned i) {
  t_lane_ = i;
  Lane& l = *lanes_[i];
  unsigned parity = 0;  // of the last edge run
  for (;;) {
    Waiter wait;
    uint64_t go;
    while (((go = go_.word.load(std::memory_order_acquire)) & 1) == parity) {
      if (!wait.tired()) {
        wait.relax();
        continue;
      }
      std::unique_lock<std::mutex> lk(workers_->m);
      go_.sleepers.fetch_add(1);
      workers_->cv.wait(lk, [&] { return (go_.word.load() & 1) != parity; });
      go_.sleepers.fetch_sub(1);
    }
    parity = go & 1;
    if (go & 2) return;
    l.result.store(run_lane_caught(l, go >> 2, parity), std::memory_order_release);
  }
}

}  // namespace gpusc
