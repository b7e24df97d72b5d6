// ClockDomain: period rounding, cycle/time conversions, the wake-up calendar (order, re-arming,
// latching, far wake-ups past the 256-slot wheel, no events left when idle), the order of
// same-time edges of several domains, holds (a tick's next cycle decided a few delta cycles
// later) and lanes (units ticked on several threads at once, the mailbox between lanes, errors).
#include <catch2/catch.hpp>

#include <sched.h>

#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/clock_domain.h"
#include "common/report.h"

using namespace gpusc;
using sc_core::sc_time;
using sc_core::SC_PS;

namespace {

// Records every tick (cycle and simulation time); `more` decides the return value.
struct Recorder : Tickable {
  ClockDomain& clk;
  std::vector<uint64_t> cycles;
  std::vector<sc_time> times;
  std::function<bool(uint64_t)> more = [](uint64_t) { return false; };
  explicit Recorder(ClockDomain& c) : clk(c) {}
  bool tick(uint64_t cycle) override {
    cycles.push_back(cycle);
    times.push_back(sc_core::sc_time_stamp());
    return more(cycle);
  }
};

// Appends its name to a shared log on every tick, so tests can see the dispatch order.
struct Named : Tickable {
  std::string id;
  std::vector<std::pair<uint64_t, std::string>>& log;
  std::function<bool(uint64_t)> more = [](uint64_t) { return false; };
  Named(std::string n, std::vector<std::pair<uint64_t, std::string>>& l) : id(std::move(n)), log(l) {}
  bool tick(uint64_t cycle) override {
    log.emplace_back(cycle, id);
    return more(cycle);
  }
};

}  // namespace

TEST_CASE("ClockDomain: period is rounded to the 1 ps resolution") {
  ClockDomain core("core", 1400), noc("noc", 700), dram("dram", 924);
  // 1e6 / 1400 = 714.29 ps -> 714; 1e6 / 700 = 1428.57 -> 1429; 1e6 / 924 = 1082.25 -> 1082.
  CHECK(core.period() == sc_time(714, SC_PS));
  CHECK(noc.period() == sc_time(1429, SC_PS));
  CHECK(dram.period() == sc_time(1082, SC_PS));
  CHECK(noc.freq_mhz() == 700.0);
}

TEST_CASE("ClockDomain: time_of cycle_of cycle_at_or_after cycle_after") {
  ClockDomain noc("noc", 700);  // 1429 ps
  CHECK(noc.time_of(0) == sc_core::SC_ZERO_TIME);
  CHECK(noc.time_of(3) == sc_time(4287, SC_PS));                 // 3 * 1429
  CHECK(noc.time_of(1000000) == sc_time(1429000000, SC_PS));     // conversions use the rounded period
  CHECK(noc.cycle_of(sc_time(4287, SC_PS)) == 3);                // on the edge of cycle 3
  CHECK(noc.cycle_of(sc_time(4286, SC_PS)) == 2);                // 1 ps before it: still cycle 2
  CHECK(noc.cycle_of(sc_time(5715, SC_PS)) == 3);                // last ps of cycle 3 (4 * 1429 - 1)
  CHECK(noc.cycle_at_or_after(sc_time(4287, SC_PS)) == 3);
  CHECK(noc.cycle_at_or_after(sc_time(4288, SC_PS)) == 4);
  CHECK(noc.cycle_at_or_after(sc_core::SC_ZERO_TIME) == 0);
  CHECK(noc.cycle_after(sc_time(4287, SC_PS)) == 4);             // input at edge 3 is latched at 4
  CHECK(noc.cycle_after(sc_time(4286, SC_PS)) == 3);             // input during cycle 2 is latched at 3
}

TEST_CASE("ClockDomain: a frequency that is not a positive number is an error") {
  REQUIRE_THROWS_WITH(ClockDomain("zero", 0.0), Catch::Contains("positive number of MHz"));
  REQUIRE_THROWS_WITH(ClockDomain("negative", -700.0), Catch::Contains("positive number of MHz"));
  REQUIRE_THROWS_WITH(ClockDomain("nan", std::nan("")), Catch::Contains("positive number of MHz"));
  // 1e7 MHz is a 0.1 ps period: rounds to zero at the 1 ps resolution.
  REQUIRE_THROWS_WITH(ClockDomain("too_fast", 1e7), Catch::Contains("below the time resolution"));
}

TEST_CASE("ClockDomain: wake-ups at 5 3 3 10 tick once each at 3 then 5 then 10") {
  ClockDomain clk("clk", 1000);  // 1000 ps
  // A unit holds one slot (the earliest request wins), so like every gpusc unit it keeps its
  // own list of wanted cycles and asks for the next one when it ticks.
  struct Wanting : Recorder {
    std::set<uint64_t> wanted;
    using Recorder::Recorder;
    void want(uint64_t c) { wanted.insert(c); clk.wake(*this, c); }
    bool tick(uint64_t cycle) override {
      Recorder::tick(cycle);
      wanted.erase(wanted.begin(), wanted.upper_bound(cycle));
      if (!wanted.empty()) clk.wake(*this, *wanted.begin());
      return false;
    }
  } u(clk);
  for (uint64_t c : {5, 3, 3, 10}) u.want(c);
  sc_core::sc_start();
  // The slot-5 entry left by the first wake() went stale when 3 was requested; it must not
  // tick a second time at 5 next to the fresh request made at cycle 3.
  CHECK(u.cycles == std::vector<uint64_t>{3, 5, 10});
  CHECK(u.times == std::vector<sc_time>{sc_time(3000, SC_PS), sc_time(5000, SC_PS), sc_time(10000, SC_PS)});
  CHECK(clk.dispatched_ticks() == 3);
}

TEST_CASE("ClockDomain: an earlier wake-up replaces a later one") {
  ClockDomain clk("clk", 1000);
  Recorder u(clk);
  clk.wake(u, 5);
  clk.wake(u, 3);  // documented: a unit already due earlier keeps only the earlier slot
  clk.wake(u, 8);  // later than the slot it holds: ignored
  sc_core::sc_start();
  CHECK(u.cycles == std::vector<uint64_t>{3});
  CHECK(clk.active_edges() == 1);  // the stale entries at 5 and 8 dispatch nothing
}

TEST_CASE("ClockDomain: tick returning true runs on consecutive cycles until it returns false") {
  ClockDomain clk("clk", 1000);
  Recorder u(clk);
  u.more = [](uint64_t c) { return c < 7; };
  clk.wake(u, 2);
  sc_core::sc_start();
  CHECK(u.cycles == std::vector<uint64_t>{2, 3, 4, 5, 6, 7});
  CHECK(sc_core::sc_time_stamp() == clk.time_of(7));  // nothing ran after the last tick
  CHECK_FALSE(sc_core::sc_pending_activity());
}

TEST_CASE("ClockDomain: a wake-up for the cycle being dispatched lands on the next cycle") {
  ClockDomain clk("clk", 1000);
  Recorder a(clk), b(clk);
  bool woke = false;
  a.more = [&](uint64_t c) {
    if (!woke) {
      woke = true;
      clk.wake(b, c);      // same cycle -> c + 1
      clk.wake(b, c - 2);  // already past -> still c + 1
      clk.wake(a, c);      // itself, same cycle -> c + 1
    }
    return false;
  };
  clk.wake(a, 4);
  sc_core::sc_start();
  CHECK(a.cycles == std::vector<uint64_t>{4, 5});
  CHECK(b.cycles == std::vector<uint64_t>{5});
}

TEST_CASE("ClockDomain: within a cycle units tick in the order of their wake calls") {
  ClockDomain clk("clk", 1000);
  std::vector<std::pair<uint64_t, std::string>> log;
  Named a("A", log), b("B", log), c("C", log), d("D", log);
  for (Named* u : {&a, &b, &c, &d}) u->more = [](uint64_t cy) { return cy < 6; };
  clk.wake(c, 5);
  clk.wake(a, 5);
  clk.wake(c, 5);  // already due at 5: keeps its first position
  clk.wake(d, 5);
  clk.wake(b, 5);
  sc_core::sc_start();
  // Cycle 5 in wake order C A D B; each returns true and is re-woken for 6 in that same
  // order, so cycle 6 repeats it.
  const std::vector<std::pair<uint64_t, std::string>> want = {
      {5, "C"}, {5, "A"}, {5, "D"}, {5, "B"}, {6, "C"}, {6, "A"}, {6, "D"}, {6, "B"}};
  CHECK(log == want);
}

TEST_CASE("ClockDomain: edges of two domains at one time run in the order the domains were made") {
  // SystemC would run them in the order of its timed-event queue: here the second domain's edge
  // is notified first, and a third domain's edges come and go between them.
  ClockDomain first("first", 1000), second("second", 1000), other("other", 1500);
  std::vector<std::pair<uint64_t, std::string>> log;
  Named a("A", log), b("B", log), o("O", log);
  o.more = [](uint64_t c) { return c < 9; };
  bool a_ran = false;
  b.more = [&](uint64_t c) {
    CHECK(a_ran);  // A's tick of this time step is done when B ticks
    a_ran = false;
    return c < 6;
  };
  a.more = [&](uint64_t c) {
    a_ran = true;
    return c < 6;
  };
  second.wake(b, 3);
  other.wake(o, 4);
  first.wake(a, 3);
  sc_core::sc_start();
  std::vector<std::string> ab;
  for (const auto& [c, id] : log)
    if (id != "O") ab.push_back(std::to_string(c) + id);
  CHECK(ab == std::vector<std::string>{"3A", "3B", "4A", "4B", "5A", "5B", "6A", "6B"});
}

namespace {
// Runs f in the delta cycle after the call: an answer that comes after the domain's tick, as an
// RTL unit's does (rtl/rtl_clock.h).
struct Later : sc_core::sc_module {
  SC_HAS_PROCESS(Later);
  sc_core::sc_event ev;
  std::function<void()> f;
  explicit Later(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_METHOD(run);
    sensitive << ev;
    dont_initialize();
  }
  unsigned deltas = 0;
  void after_this_delta(std::function<void()> g, unsigned n = 1) {
    f = std::move(g);
    deltas = n;
    ev.notify(sc_core::SC_ZERO_TIME);
  }
  void run() {
    if (--deltas) ev.notify(sc_core::SC_ZERO_TIME);
    else f();
  }
};

// H holds its next cycle in its tick of 5; Y ticks after it in 5 and asks for 6. `answer` runs in
// the delta cycle after the edge of 5 (it resolves the hold, or not). The log of cycles 5..6.
std::vector<std::pair<uint64_t, std::string>> hold_case(std::function<void(ClockDomain&, Tickable&)> answer) {
  ClockDomain clk("clk", 1000);
  Later later("later");
  std::vector<std::pair<uint64_t, std::string>> log;
  Named h("H", log), y("Y", log);
  h.more = [&](uint64_t c) {
    if (c == 5) {
      clk.hold(h);
      later.after_this_delta([&] { answer(clk, h); });
    }
    return false;
  };
  y.more = [](uint64_t c) { return c == 5; };
  clk.wake(h, 5);
  clk.wake(y, 5);
  sc_core::sc_start();
  return log;
}
}  // namespace

TEST_CASE("ClockDomain hold: resolved as needed, the unit ticks where returning true would have put it") {
  const auto log = hold_case([](ClockDomain& clk, Tickable& h) { clk.resolve(h, true); });
  const std::vector<std::pair<uint64_t, std::string>> want = {{5, "H"}, {5, "Y"}, {6, "H"}, {6, "Y"}};
  CHECK(log == want);
}

TEST_CASE("ClockDomain hold: resolved as not needed, the unit does not tick") {
  const auto log = hold_case([](ClockDomain& clk, Tickable& h) { clk.resolve(h, false); });
  const std::vector<std::pair<uint64_t, std::string>> want = {{5, "H"}, {5, "Y"}, {6, "Y"}};
  CHECK(log == want);
}

TEST_CASE("ClockDomain hold: a wake-up while held takes its own place when the hold is not needed") {
  const auto log = hold_case([](ClockDomain& clk, Tickable& h) {
    clk.wake_after_now(h);  // -> 6, after Y's place
    clk.resolve(h, false);
  });
  const std::vector<std::pair<uint64_t, std::string>> want = {{5, "H"}, {5, "Y"}, {6, "Y"}, {6, "H"}};
  CHECK(log == want);
}

TEST_CASE("ClockDomain hold: a wake-up after a hold resolved as not needed takes its own place") {
  const auto log = hold_case([](ClockDomain& clk, Tickable& h) {
    clk.resolve(h, false);
    clk.wake_after_now(h);
  });
  const std::vector<std::pair<uint64_t, std::string>> want = {{5, "H"}, {5, "Y"}, {6, "Y"}, {6, "H"}};
  CHECK(log == want);
}

TEST_CASE("ClockDomain hold: woken while held and then needed, the unit ticks once in the held place") {
  const auto log = hold_case([](ClockDomain& clk, Tickable& h) {
    clk.wake_after_now(h);
    clk.resolve(h, true);
  });
  const std::vector<std::pair<uint64_t, std::string>> want = {{5, "H"}, {5, "Y"}, {6, "H"}, {6, "Y"}};
  CHECK(log == want);
}

TEST_CASE("ClockDomain hold: a later domain's edge of the same time waits for the resolve") {
  // The answer comes 3 delta cycles after the edge (as an RTL unit's does); the second domain's
  // unit of that time must see what the answer did, as it would see a tick's own work.
  ClockDomain first("first", 1000), second("second", 1000);
  Later later("later");
  std::vector<std::pair<uint64_t, std::string>> log;
  Named h("H", log), b("B", log);
  int answered = -1;
  h.more = [&](uint64_t c) {
    first.hold(h);
    later.after_this_delta([&, c] {
      answered = static_cast<int>(c);
      first.resolve(h, c < 4);
    }, 3);
    return false;
  };
  b.more = [&](uint64_t c) {
    CHECK(answered == static_cast<int>(c));
    return c < 4;
  };
  second.wake(b, 3);
  first.wake(h, 3);
  sc_core::sc_start();
  // H's hold of 3 is needed, that of 4 is not.
  const std::vector<std::pair<uint64_t, std::string>> want = {{3, "H"}, {3, "B"}, {4, "H"}, {4, "B"}};
  CHECK(log == want);
}

TEST_CASE("ClockDomain hold: a hold not resolved before its edge is an error") {
  REQUIRE_THROWS_WITH(hold_case([](ClockDomain&, Tickable&) {}), Catch::Contains("was not resolved before its edge"));
}

TEST_CASE("ClockDomain hold: hold outside a tick and resolve without a hold are errors") {
  ClockDomain clk("clk", 1000);
  std::vector<std::pair<uint64_t, std::string>> log;
  Named h("H", log);
  REQUIRE_THROWS_WITH(clk.hold(h), Catch::Contains("hold() outside a tick"));
  REQUIRE_THROWS_WITH(clk.resolve(h, true), Catch::Contains("not held"));
}

TEST_CASE("ClockDomain: input handed over between edges is latched at the next edge") {
  ClockDomain clk("clk", 1000);
  Recorder u(clk);
  struct Driver : sc_core::sc_module {
    SC_HAS_PROCESS(Driver);
    ClockDomain& clk;
    Tickable& u;
    Driver(sc_core::sc_module_name n, ClockDomain& c, Tickable& t) : sc_core::sc_module(n), clk(c), u(t) {
      SC_THREAD(run);
    }
    void run() {
      wait(sc_time(3500, SC_PS));  // middle of cycle 3
      clk.wake_after_now(u);       // -> 4
      wait(sc_time(2500, SC_PS));  // exactly on edge 6
      clk.wake_after_now(u);       // -> 7, whatever the process order at 6000 ps
    }
  } drv("drv", clk, u);
  sc_core::sc_start();
  CHECK(u.cycles == std::vector<uint64_t>{4, 7});
}

TEST_CASE("ClockDomain: an idle domain leaves no pending event") {
  ClockDomain clk("clk", 1000);
  Recorder u(clk);
  sc_core::sc_start();  // nothing scheduled: returns at time 0
  CHECK(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
  CHECK_FALSE(sc_core::sc_pending_activity());
  clk.wake(u, 3);
  sc_core::sc_start();
  CHECK(u.cycles == std::vector<uint64_t>{3});
  CHECK(sc_core::sc_time_stamp() == clk.time_of(3));
  CHECK_FALSE(sc_core::sc_pending_activity());
  clk.wake(u, 10);  // woken again from outside after being idle
  sc_core::sc_start();
  CHECK(u.cycles == std::vector<uint64_t>{3, 10});
  CHECK_FALSE(sc_core::sc_pending_activity());
}

TEST_CASE("ClockDomain: far wake-ups beyond the wheel fire at exactly their cycle") {
  ClockDomain clk("clk", 1000);
  Recorder w255(clk), w256(clk), w257(clk), w1000(clk), w100000(clk), chain(clk);
  clk.wake(w255, 255);    // last slot of the wheel at start
  clk.wake(w256, 256);    // first cycle past it
  clk.wake(w257, 257);
  clk.wake(w1000, 1000);
  clk.wake(w100000, 100000);
  // From inside a tick at 1000 the wheel covers [1000, 1256): 1256 is the first cycle past it;
  // from 1256, 1511 = 1256 + 255 is the last cycle inside it.
  chain.more = [&](uint64_t c) {
    if (c == 1000) clk.wake(chain, 1256);
    if (c == 1256) clk.wake(chain, 1256 + 255);
    return false;
  };
  clk.wake(chain, 1000);
  sc_core::sc_start();
  CHECK(w255.cycles == std::vector<uint64_t>{255});
  CHECK(w256.cycles == std::vector<uint64_t>{256});
  CHECK(w257.cycles == std::vector<uint64_t>{257});
  CHECK(w1000.cycles == std::vector<uint64_t>{1000});
  CHECK(w100000.cycles == std::vector<uint64_t>{100000});
  CHECK(w100000.times == std::vector<sc_time>{sc_time(100000000, SC_PS)});
  CHECK(chain.cycles == std::vector<uint64_t>{1000, 1256, 1511});
  CHECK(clk.dispatched_ticks() == 8);
  CHECK(clk.active_edges() == 7);  // 255 256 257 1000 1256 1511 100000 (1000 has two units)
  CHECK(sc_core::sc_time_stamp() == clk.time_of(100000));
}

// ---------------------------------------------------------------------------------------------
// Lanes
// ---------------------------------------------------------------------------------------------

namespace {

// Records, per tick, the cycle, the lane the ClockDomain says it runs in, and the thread.
struct LaneUnit : Tickable {
  std::vector<uint64_t> cycles;
  std::vector<unsigned> lanes;
  std::vector<std::thread::id> threads;
  std::vector<int> cpus;
  std::function<bool(uint64_t)> more = [](uint64_t) { return false; };
  bool tick(uint64_t cycle) override {
    cycles.push_back(cycle);
    lanes.push_back(ClockDomain::current_lane());
    threads.push_back(std::this_thread::get_id());
    cpus.push_back(sched_getcpu());
    return more(cycle);
  }
};

}  // namespace

TEST_CASE("ClockDomain lanes: units tick at their cycles, each lane on its own thread and CPU") {
  ClockDomain clk("clk", 1000);
  clk.set_lanes(2);
  CHECK(clk.lanes() == 2);
  LaneUnit a0, b0, a1, b1;  // a0, b0 in lane 0; a1, b1 in lane 1
  clk.place(a1, 1);
  clk.place(b1, 1);
  a0.more = [](uint64_t c) { return c < 4; };  // 2 3 4
  a1.more = [](uint64_t c) { return c < 5; };  // 3 4 5
  b1.more = [&](uint64_t c) {                  // 7, then wakes itself for 300 (past the wheel)
    if (c == 7) clk.wake(b1, 300);
    return false;
  };
  clk.wake(a0, 2);
  clk.wake(b0, 6);
  clk.wake(a1, 3);
  clk.wake(b1, 7);
  sc_core::sc_start();
  CHECK(a0.cycles == std::vector<uint64_t>{2, 3, 4});
  CHECK(b0.cycles == std::vector<uint64_t>{6});
  CHECK(a1.cycles == std::vector<uint64_t>{3, 4, 5});
  CHECK(b1.cycles == std::vector<uint64_t>{7, 300});
  CHECK(sc_core::sc_time_stamp() == clk.time_of(300));
  for (const LaneUnit* u : {&a0, &b0})
    for (size_t i = 0; i < u->cycles.size(); ++i) {
      CHECK(u->lanes[i] == 0);
      CHECK(u->threads[i] == std::this_thread::get_id());  // lane 0: the SystemC thread
    }
  for (const LaneUnit* u : {&a1, &b1})
    for (size_t i = 0; i < u->cycles.size(); ++i) {
      CHECK(u->lanes[i] == 1);
      CHECK(u->threads[i] != std::this_thread::get_id());
      CHECK(u->threads[i] == a1.threads[0]);  // one worker per lane
    }
  CHECK(clk.dispatched_ticks() == 3 + 1 + 3 + 2);
  CHECK(clk.active_edges() == 7);  // 2 3 4 5 6 7 300
  // Pinned (the default, with two CPUs or more): each lane stays on one CPU, not the other's.
  cpu_set_t allowed;
  REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  if (CPU_COUNT(&allowed) >= 2) {
    for (const LaneUnit* u : {&a0, &b0})
      for (int c : u->cpus) CHECK(c == a0.cpus[0]);
    for (const LaneUnit* u : {&a1, &b1})
      for (int c : u->cpus) CHECK(c == a1.cpus[0]);
    CHECK(a0.cpus[0] != a1.cpus[0]);
  }
}

TEST_CASE("ClockDomain lanes: mail reaches the other lane at the start of the next edge") {
  ClockDomain clk("clk", 1000);
  clk.set_lanes(2);
  // Lane 0's sender posts at cycles 5 and 9 into a two-half mailbox; lane 1 takes the other
  // half at the start of each of its edges and wakes its receiver two cycles on.
  std::vector<uint64_t> half[2];
  std::vector<std::pair<uint64_t, uint64_t>> taken;  // (edge cycle, message)
  std::vector<unsigned> taken_lane;
  LaneUnit sender, receiver;
  clk.place(receiver, 1);
  sender.more = [&](uint64_t c) {
    half[clk.exchange_half()].push_back(c);
    clk.exchanged();
    if (c == 5) clk.wake(sender, 9);
    return false;
  };
  clk.at_lane_start(1, [&] {
    auto& h = half[clk.exchange_half() ^ 1];
    for (uint64_t m : h) {
      taken.emplace_back(clk.dispatching(), m);
      taken_lane.push_back(ClockDomain::current_lane());
      clk.wake(receiver, m + 2);
    }
    h.clear();
  });
  clk.wake(sender, 5);
  sc_core::sc_start();
  // An edge runs at 6 and at 10 although no unit is due then: the mail must be taken.
  CHECK(taken == std::vector<std::pair<uint64_t, uint64_t>>{{6, 5}, {10, 9}});
  CHECK(taken_lane == std::vector<unsigned>{1, 1});
  CHECK(receiver.cycles == std::vector<uint64_t>{7, 11});
  CHECK(sender.cycles == std::vector<uint64_t>{5, 9});
}

TEST_CASE("ClockDomain lanes: waking a unit of another lane during a parallel edge is an error") {
  ClockDomain clk("clk", 1000);
  clk.set_lanes(2);
  LaneUnit a, b;
  clk.place(b, 1);
  a.more = [&](uint64_t) {
    clk.wake(b, 10);
    return false;
  };
  clk.wake(a, 3);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("a unit of lane 0 woke a unit of lane 1"));
}

TEST_CASE("ClockDomain lanes: an error in a worker lane's tick comes out of sc_start") {
  ClockDomain clk("clk", 1000);
  clk.set_lanes(2);
  LaneUnit a, b;
  clk.place(b, 1);
  a.more = [](uint64_t c) { return c < 20; };
  b.more = [](uint64_t c) -> bool {
    if (c == 4) error("tb.unit_b", "broken at cycle ", c);
    return true;
  };
  clk.wake(a, 1);
  clk.wake(b, 2);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("broken at cycle 4"));
  CHECK(b.cycles == std::vector<uint64_t>{2, 3, 4});
  CHECK(a.cycles.back() == 4);  // lane 0 finished that edge; no later edge ran
}

TEST_CASE("ClockDomain lanes: bad lane counts, lanes that do not exist, lanes set too late") {
  ClockDomain clk("clk", 1000);
  LaneUnit u, v;
  REQUIRE_THROWS_WITH(clk.set_lanes(0), Catch::Contains("lanes must be in [1, 64], got 0"));
  REQUIRE_THROWS_WITH(clk.set_lanes(65), Catch::Contains("lanes must be in [1, 64], got 65"));
  clk.set_lanes(2);
  REQUIRE_THROWS_WITH(clk.place(u, 2), Catch::Contains("lane 2 does not exist; the domain has 2"));
  REQUIRE_THROWS_WITH(clk.at_lane_start(2, [] {}), Catch::Contains("lane 2 does not exist"));
  clk.set_lanes(3);
  clk.place(u, 2);
  REQUIRE_THROWS_WITH(clk.set_lanes(2), Catch::Contains("set_lanes(2) but a unit was placed in lane 2"));
  clk.wake(v, 5);
  REQUIRE_THROWS_WITH(clk.place(v, 1), Catch::Contains("already scheduled"));
  REQUIRE_THROWS_WITH(clk.set_lanes(3), Catch::Contains("set_lanes() after units were scheduled"));
}
