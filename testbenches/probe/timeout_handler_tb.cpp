// TimeoutHandler tests, cycle by cycle on a ClockDomain (one elaboration per TEST_CASE): the
// timeout fires exactly at push + 2048 and the L2 request goes out exactly once; only the head
// is checked (one timeout per cycle); holes left by answered requests do not use up a cycle;
// early release; both orders of the probe-reply / L2-reply race and a probe answer before the
// L2 send; the unit sleeps between deadlines; a random property run (~1e4 requests): every load
// answered exactly once, at most one L2 send each; bad input.
// Bench: a Script unit of the same clock domain runs scripted actions at given cycles; the
// handler's on_l2_ready callback records (cycle, group).
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <random>
#include <vector>

#include "common/clock_domain.h"
#include "probe/timeout_handler.h"

using namespace gpusc;
using namespace gpusc::probe;
using P = TimeoutHandler::Params;
using A = TimeoutHandler::Answer;

namespace {

class Script : public Tickable {
 public:
  explicit Script(ClockDomain& clk) : clk_(clk) {}
  void at(uint64_t cycle, std::function<void()> f) {
    acts_[cycle].push_back(std::move(f));
    clk_.wake(*this, cycle);
  }
  uint64_t ticks = 0;

 private:
  bool tick(uint64_t cycle) override {
    ++ticks;
    auto it = acts_.find(cycle);
    if (it != acts_.end()) {
      auto fs = std::move(it->second);
      acts_.erase(it);
      for (auto& f : fs) f();
    }
    if (!acts_.empty()) clk_.wake(*this, acts_.begin()->first);
    return false;
  }
  ClockDomain& clk_;
  std::map<uint64_t, std::vector<std::function<void()>>> acts_;
};

struct Bench {
  ClockDomain clk{"clk", 1000.0};
  TimeoutHandler th;
  Script script{clk};
  std::vector<std::pair<uint64_t, uint32_t>> ready;  // (cycle, group) ready for the L2
  explicit Bench(const P& p = P{}) : th("th", p, clk) {
    th.on_l2_ready([this](uint32_t g) { ready.emplace_back(clk.now(), g); });
  }
  // Runs until the end of cycle `c` (edges 0..c dispatched).
  void run_to(uint64_t c) { sc_core::sc_start(clk.time_of(c + 1) - sc_core::sc_time_stamp()); }
};

using Ready = std::vector<std::pair<uint64_t, uint32_t>>;

}  // namespace

TEST_CASE("timeout: fires exactly 2048 cycles after the push, and the L2 request goes out exactly once") {
  Bench b;
  b.script.at(5, [&] { b.th.push(1); });
  b.run_to(2052);
  CHECK(b.ready.empty());
  CHECK(b.th.queued() == 1);
  b.run_to(2053);
  CHECK(b.ready == Ready{{2053, 1}});
  CHECK(b.th.timeouts() == 1);
  REQUIRE(b.th.has_l2_request());
  CHECK(b.th.l2_request() == 1);
  b.th.l2_sent();
  CHECK_FALSE(b.th.has_l2_request());
  b.th.release(1);  // all probes failed later: already at the L2, nothing more is sent
  CHECK_FALSE(b.th.has_l2_request());
  b.run_to(10000);
  CHECK(b.ready.size() == 1);
  CHECK(b.th.l2_sends() == 1);
  CHECK(b.th.early_releases() == 0);
  CHECK(b.th.l2_reply(1) == A::Use);
  CHECK(b.th.tracked() == 0);
  CHECK_THROWS_WITH(b.th.l2_sent(), Catch::Contains("no selective L2 request is ready"));
  // Idle costs nothing: the handler ticked only at the deadline (the script once, at cycle 5).
  CHECK(b.script.ticks == 1);
  CHECK(b.clk.dispatched_ticks() == 2);
}

TEST_CASE("timeout: only the head is checked, so at most one request times out per cycle") {
  Bench b;
  b.script.at(5, [&] { b.th.push(10), b.th.push(11), b.th.push(12); });
  b.script.at(6, [&] { b.th.push(13); });
  b.run_to(3000);
  CHECK(b.ready == Ready{{2053, 10}, {2054, 11}, {2055, 12}, {2056, 13}});
}

TEST_CASE("timeout: a request answered by a probe leaves a hole the head skips without losing the cycle") {
  Bench b;
  b.script.at(10, [&] { b.th.push(1), b.th.push(2); });
  b.script.at(50, [&] { CHECK(b.th.probe_data(1) == A::Use); });
  b.run_to(3000);
  CHECK(b.ready == Ready{{2058, 2}});  // without the hole rule it would be 2059
  CHECK(b.th.probe_answers() == 1);
  CHECK(b.th.timeouts() == 1);
}

TEST_CASE("timeout: early release sends a failed request at once, the rest keep their deadlines") {
  Bench b;
  b.script.at(10, [&] { b.th.push(1); });
  b.script.at(20, [&] { b.th.push(2); });
  b.script.at(100, [&] { b.th.release(2); });
  b.run_to(3000);
  CHECK(b.ready == Ready{{100, 2}, {2058, 1}});
  CHECK(b.th.early_releases() == 1);
  CHECK(b.th.timeouts() == 1);
}

TEST_CASE("timeout: a late probe reply racing the L2 reply, both orders: one answers, the other is dropped") {
  Bench b;
  b.script.at(0, [&] { b.th.push(1), b.th.push(2), b.th.push(3); });
  b.run_to(2100);
  REQUIRE(b.ready.size() == 3);
  b.th.l2_sent();  // 1
  b.th.l2_sent();  // 2
  // 1: probe data first, then the L2 reply.
  CHECK(b.th.probe_data(1) == A::Use);
  CHECK(b.th.l2_reply(1) == A::Drop);
  // 2: L2 reply first, then the late probe data.
  CHECK(b.th.l2_reply(2) == A::Use);
  CHECK(b.th.probe_data(2) == A::Drop);
  // 3: timed out but not yet injected: probe data cancels the L2 send.
  CHECK(b.th.probe_data(3) == A::Use);
  CHECK_FALSE(b.th.has_l2_request());
  CHECK(b.th.l2_cancelled() == 1);
  CHECK(b.th.l2_sends() == 2);
  CHECK(b.th.dropped_l2_replies() == 1);
  CHECK(b.th.dropped_probe_replies() == 1);
  CHECK(b.th.probe_answers() == 2);
  CHECK(b.th.l2_answers() == 1);
  CHECK(b.th.tracked() == 0);
}

TEST_CASE("timeout: a request a probe answers after its L2 send frees its entry at once; the L2 reply is dropped later") {
  // §III-F: the handler tracks up to 32 outstanding requests, the MSHR size: an entry lives as
  // long as the miss's MSHR. Until 2026-12 the entry stayed until the L2 reply, so a full
  // handler refused further shared misses while their MSHRs were free.
  P p;
  p.capacity = 1;
  Bench b(p);
  b.script.at(0, [&] { b.th.push(1); });
  b.run_to(2100);
  REQUIRE(b.ready.size() == 1);
  b.th.l2_sent();
  CHECK(b.th.probe_data(1) == A::Use);
  CHECK(b.th.tracked() == 0);
  CHECK_FALSE(b.th.full());
  CHECK(b.th.l2_replies_due() == 1);
  b.th.push(2);  // the next shared miss takes the entry while the L2 reply of 1 is on its way
  CHECK(b.th.l2_reply(1) == A::Drop);
  CHECK(b.th.l2_replies_due() == 0);
  CHECK(b.th.dropped_l2_replies() == 1);
  CHECK(b.th.tracked() == 1);
  CHECK_THROWS_WITH(b.th.l2_reply(1), Catch::Contains("not sent to the L2"));  // dropped once only
}

TEST_CASE("timeout: 1e4 random requests, every load answered exactly once, at most one L2 send each") {
  P p;
  p.timeout = 256;  // shorter than 2048 so that 32 entries turn over ~1e4 times in 2e5 cycles
  Bench b(p);
  std::mt19937_64 rng(2024);
  struct Rec {
    unsigned answers = 0, l2_sends = 0;
  };
  std::map<uint32_t, Rec> recs;
  uint32_t next = 0;
  // Per cycle: maybe a new shared miss; its probes end (data or fail) 1..400 cycles later (so
  // about a third time out first); the injector sends a ready L2 request with probability 1/2 per
  // cycle; the L2 answers 1..100 cycles after the send.
  class Driver : public Tickable {
   public:
    std::function<void(uint64_t)> f;
    bool tick(uint64_t c) override { f(c); return true; }
  } drv;
  std::multimap<uint64_t, std::function<void()>> later;
  const uint64_t end_push = 200000, end = 210000;
  drv.f = [&](uint64_t c) {
    for (auto it = later.begin(); it != later.end() && it->first <= c; it = later.erase(it)) it->second();
    if (c < end_push && rng() % 20 == 0 && !b.th.full()) {
      const uint32_t g = next++;
      b.th.push(g);
      recs[g];
      const bool data = rng() % 2;
      later.emplace(c + 1 + rng() % 400, [&, g, data] {
        if (!data) return b.th.release(g);
        if (b.th.probe_data(g) == A::Use) ++recs[g].answers;
      });
    }
    if (b.th.has_l2_request() && rng() % 2) {
      const uint32_t g = b.th.l2_request();
      b.th.l2_sent();
      ++recs[g].l2_sends;
      later.emplace(c + 1 + rng() % 100, [&, g] {
        if (b.th.l2_reply(g) == A::Use) ++recs[g].answers;
      });
    }
  };
  b.clk.wake(drv, 0);
  b.run_to(end);
  REQUIRE(later.empty());
  CHECK(next > 9000);
  unsigned bad = 0;
  for (const auto& [g, r] : recs) bad += r.answers != 1 || r.l2_sends > 1;
  CHECK(bad == 0);
  CHECK(b.th.tracked() == 0);
  CHECK(b.th.probe_answers() + b.th.l2_answers() == next);
  CHECK(b.th.timeouts() > 0);
  CHECK(b.th.early_releases() > 0);
  CHECK(b.th.dropped_l2_replies() + b.th.dropped_probe_replies() > 0);  // the race did happen
}

TEST_CASE("timeout: bad parameters and protocol errors are clear errors") {
  P bad;
  bad.timeout = 0;
  ClockDomain clk("clk", 1000.0);
  CHECK_THROWS_WITH(TimeoutHandler("th0", bad, clk), Catch::Contains("th0.timeout"));
  P small;
  small.capacity = 2;
  TimeoutHandler th("th", small, clk);
  th.push(1);
  CHECK_THROWS_WITH(th.push(1), Catch::Contains("already tracked"));
  th.push(2);
  CHECK(th.full());
  CHECK_THROWS_WITH(th.push(3), Catch::Contains("capacity 2"));
  CHECK_THROWS_WITH(th.l2_reply(1), Catch::Contains("not sent to the L2"));
  CHECK_THROWS_WITH(th.l2_reply(9), Catch::Contains("not sent to the L2"));
}
