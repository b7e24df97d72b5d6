// TimeSeries: one row every N cycles with every counter of the design, counting every tick
// of the sampled edge whatever the dispatch order; stop() lets sc_start() finish.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/clock_domain.h"
#include "common/stats.h"
#include "common/time_series.h"

using namespace gpusc;
using Catch::Contains;

namespace {

// Ticks every cycle from `first` to `last`, counting its ticks. It re-arms after each tick, so
// at every sampled edge it is dispatched after a sampler woken earlier.
struct EveryCycle : sc_core::sc_module, Tickable {
  StatGroup stats;
  Counter& ticks = stats.counter("ticks", Unit::Count, "ticks");
  Counter& idle = stats.counter("idle", Unit::Count, "never incremented");
  uint64_t last;
  EveryCycle(sc_core::sc_module_name n, ClockDomain& clk, uint64_t first, uint64_t last_)
      : sc_core::sc_module(n), last(last_) {
    clk.wake(*this, first);
  }
  bool tick(uint64_t cycle) override {
    ++ticks;
    return cycle < last;
  }
};

// Ticks at every multiple of `step` up to `last`, adding 1 each time. Constructed before the
// sampler and woken for each multiple at the previous one, so it is dispatched first.
struct EveryStep : sc_core::sc_module, Tickable {
  StatGroup stats;
  Counter& events = stats.counter("events", Unit::Count, "events");
  ClockDomain& clk;
  uint64_t step, last;
  EveryStep(sc_core::sc_module_name n, ClockDomain& c, uint64_t step_, uint64_t last_)
      : sc_core::sc_module(n), clk(c), step(step_), last(last_) {
    clk.wake(*this, step);
  }
  bool tick(uint64_t cycle) override {
    ++events;
    if (cycle + step <= last) clk.wake(*this, cycle + step);
    return false;
  }
};

struct Gpu : sc_core::sc_module {
  EveryStep b;
  EveryCycle a;
  Gpu(sc_core::sc_module_name n, ClockDomain& clk)
      : sc_core::sc_module(n), b("b", clk, 10, 50), a("a", clk, 0, 99) {}
};

}  // namespace

TEST_CASE("TimeSeries: a row every N cycles with the counters as of that cycle") {
  ClockDomain clk("clk", 1000);
  Gpu gpu("gpu", clk);
  TimeSeries ts("ts", clk, 10);
  CHECK(ts.every_cycles() == 10);
  sc_core::sc_start(clk.time_of(95));
  ts.stop();
  sc_core::sc_start();  // ends: stop() let the domain go idle
  // Rows at 10, 20, ..., 90 (no row at 0; the edge at 100 was already scheduled, but is after
  // stop()). gpu.a ticks at 0..c inside cycle c's row: c + 1, although it is dispatched after
  // the sampler at every sampled edge. gpu.b ticks at 10, 20, 30, 40, 50: min(c / 10, 5).
  const json& rows = ts.rows();
  REQUIRE(rows.size() == 9);
  for (uint64_t k = 1; k <= 9; ++k) {
    const json& r = rows[k - 1];
    const uint64_t c = 10 * k;
    INFO("row " << r.dump());
    CHECK(r.size() == 4);
    CHECK(r.at("cycle") == c);
    CHECK(r.at("gpu.a.ticks") == c + 1);
    CHECK(r.at("gpu.a.idle") == 0);
    CHECK(r.at("gpu.b.events") == std::min<uint64_t>(k, 5));
  }
  CHECK(gpu.a.ticks.value() == 100);                    // 0..99: it kept running after stop()
  CHECK(sc_core::sc_time_stamp() == clk.time_of(100));  // the sampler's last, empty edge
  CHECK_FALSE(sc_core::sc_pending_activity());
}

TEST_CASE("TimeSeries: every cycle sampling and an interval of zero") {
  ClockDomain clk("clk", 1000);
  EveryCycle u("u", clk, 0, 4);
  TimeSeries ts("ts", clk, 1);
  REQUIRE_THROWS_WITH(TimeSeries("ts0", clk, 0), Contains("ts0") && Contains("every_cycles"));
  sc_core::sc_start(clk.time_of(6) + sc_core::sc_time(500, sc_core::SC_PS));  // mid-cycle 6
  ts.stop();
  sc_core::sc_start();
  // Rows at 1..6; u ticks at 0..4, so u.ticks = min(c + 1, 5).
  const json& rows = ts.rows();
  REQUIRE(rows.size() == 6);
  for (uint64_t c = 1; c <= 6; ++c) {
    CHECK(rows[c - 1].at("cycle") == c);
    CHECK(rows[c - 1].at("u.ticks") == std::min<uint64_t>(c + 1, 5));
  }
}
