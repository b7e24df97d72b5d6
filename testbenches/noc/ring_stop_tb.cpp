// RingStop tests: the routing rule on 4 and 5 stops (shortest way, never through stop 0, never
// turning), a 4-stop ring of BandwidthLinks where a message for the stop two hops away crosses
// exactly two links and is delivered once, forwarding timing, back-pressure from a stalled
// block, a saturating all-to-all on the ring (nothing lost or duplicated, no deadlock), and
// errors for bad input and parameters.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "noc/bandwidth_link.h"
#include "noc/ring_stop.h"

using namespace gpusc;
using noc::RingStop;

namespace {

// Platform ids: stop s owns ids 10*s .. 10*s+9.
unsigned stop_of(unsigned id) { return id / 10; }

// N stops, each with a scripted block (initiator into local_in, target on local_out), joined by
// BandwidthLinks (link s: stop s side A, stop s+1 side B).
struct RingBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> src;
  std::vector<std::unique_ptr<tb::ScriptedTarget>> dst;
  std::vector<std::unique_ptr<RingStop>> stops;
  std::vector<std::unique_ptr<noc::BandwidthLink>> links;
  RingBench(sc_core::sc_module_name n, unsigned stops_n, noc::BandwidthLink::Params lp = {},
            RingStop::Params rp = {}, unsigned depth = 100000)
      : sc_core::sc_module(n) {
    for (unsigned s = 0; s < stops_n; ++s) {
      const std::string i = std::to_string(s);
      src.push_back(std::make_unique<tb::ScriptedInitiator>(("src" + i).c_str(), clk, pool));
      dst.push_back(std::make_unique<tb::ScriptedTarget>(("dst" + i).c_str(), clk, depth));
      stops.push_back(std::make_unique<RingStop>(("stop" + i).c_str(), rp, clk, s, stops_n, stop_of));
      links.push_back(std::make_unique<noc::BandwidthLink>(("link" + i).c_str(), lp, clk));
    }
    for (unsigned s = 0; s < stops_n; ++s) {
      RingStop& here = *stops[s];
      RingStop& next = *stops[(s + 1) % stops_n];
      src[s]->out.bind(here.local_in);
      here.local_out.bind(dst[s]->in);
      here.to_next.bind(links[s]->a_in);
      links[s]->b_out.bind(next.from_prev);
      next.to_prev.bind(links[s]->b_in);
      links[s]->a_out.bind(here.from_next);
    }
  }
  void send(unsigned from, uint64_t cycle, unsigned dst_id, uint64_t tag) {
    src[from]->at(cycle, [=](tlm::tlm_generic_payload&, MemExt& e) {
      e.src = 10 * from;
      e.dst = dst_id;
      e.pc = tag;
    });
  }
  uint64_t link_messages() const {
    uint64_t n = 0;
    for (const auto& l : links) n += l->delivered(noc::BandwidthLink::kAtoB) + l->delivered(noc::BandwidthLink::kBtoA);
    return n;
  }
};

void run_until(const ClockDomain& clk, uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }

}  // namespace

TEST_CASE("RingStop: routes on 4 stops take the shortest way and never pass through stop 0", "[ring_stop]") {
  using R = RingStop;
  // One hop: towards the neighbour.
  CHECK(R::route(0, 1, 4) == R::kNext);
  CHECK(R::route(1, 0, 4) == R::kPrev);
  CHECK(R::route(3, 0, 4) == R::kNext);
  CHECK(R::route(0, 3, 4) == R::kPrev);
  CHECK(R::route(2, 2, 4) == R::kLocal);
  // Two hops: 1->3 by 2, 3->1 by 2 (not by 0), 0->2 and 2->0 clockwise.
  CHECK(R::route(1, 3, 4) == R::kNext);
  CHECK(R::route(3, 1, 4) == R::kPrev);
  CHECK(R::route(0, 2, 4) == R::kNext);
  CHECK(R::route(2, 0, 4) == R::kNext);
  // Consistent: the stop between continues the same way.
  CHECK(R::route(2, 3, 4) == R::kNext);
  CHECK(R::route(2, 1, 4) == R::kPrev);
  CHECK(R::route(1, 2, 4) == R::kNext);
  CHECK(R::route(3, 0, 4) == R::kNext);
}

TEST_CASE("RingStop: on any ring no path transits stop 0 and no path turns", "[ring_stop]") {
  for (unsigned n = 2; n <= 9; ++n)
    for (unsigned s = 0; s < n; ++s)
      for (unsigned d = 0; d < n; ++d) {
        if (s == d) continue;
        unsigned here = s, hops = 0;
        const auto dir = RingStop::route(s, d, n);
        while (here != d) {
          const auto r = RingStop::route(here, d, n);
          INFO("ring " << n << " from " << s << " to " << d << " at " << here);
          REQUIRE(r == dir);
          if (here != s) REQUIRE(here != 0);
          here = r == RingStop::kNext ? (here + 1) % n : (here + n - 1) % n;
          REQUIRE(++hops < n);
        }
        CHECK(hops <= n - 1);
        if (n == 4) CHECK(hops <= 2);
      }
}

TEST_CASE("RingStop: a message for the stop two hops away crosses exactly two links, once", "[ring_stop]") {
  RingBench b("b", 4);
  b.send(1, 10, 35, 7);  // stop 1 -> stop 3 (id 35): through stop 2
  run_until(b.clk, 400);
  REQUIRE(b.dst[3]->arrivals().size() == 1);
  CHECK(b.dst[3]->arrivals()[0].ext.pc == 7);
  for (unsigned s : {0u, 1u, 2u}) CHECK(b.dst[s]->arrivals().empty());
  CHECK(b.link_messages() == 2);
  CHECK(b.links[1]->delivered(noc::BandwidthLink::kAtoB) == 1);  // 1 -> 2
  CHECK(b.links[2]->delivered(noc::BandwidthLink::kAtoB) == 1);  // 2 -> 3
  CHECK(b.stops[2]->sent(RingStop::kNext) == 1);
  CHECK(b.stops[2]->sent(RingStop::kLocal) == 0);
  // Timing: offered in 10, taken by stop 1 in 10, on its output in 11 (latency 1), link: latched
  // 12, serialized in 12, arrives 12 + 31 = 43 (one 8 B header on a 768 B/cycle link), stop 2
  // takes it in 43, forwards in 44, the second link delivers in 44 + 1 + 31 = 76, stop 3 takes it
  // then and offers it to its block in 77.
  CHECK(b.dst[3]->arrivals()[0].cycle == 77);
}

TEST_CASE("RingStop: a stalled block back-pressures the ring and then receives everything in order",
          "[ring_stop][backpressure]") {
  RingStop::Params rp;
  rp.queue = 2;
  noc::BandwidthLink::Params lp;
  lp.rx_buffer_bytes = 32;  // four 8 B messages
  lp.tx_queue = 1;
  RingBench b("b", 4, lp, rp, 2);
  b.dst[2]->stall_until(500);
  for (unsigned i = 0; i < 40; ++i) b.send(0, 10, 21, i);  // 0 -> 2, two hops
  run_until(b.clk, 400);
  CHECK(b.dst[2]->arrivals().size() < 40);
  CHECK(b.src[0]->queued() > 0);  // the sender is held back
  run_until(b.clk, 3000);
  REQUIRE(b.dst[2]->arrivals().size() == 40);
  for (unsigned i = 0; i < 40; ++i) CHECK(b.dst[2]->arrivals()[i].ext.pc == i);
}

TEST_CASE("RingStop: all-to-all on 4 stops with small buffers delivers every message once", "[ring_stop][saturation]") {
  {
    const unsigned n = 4;
    noc::BandwidthLink::Params lp;
    lp.bytes_per_cycle = 16;
    lp.rx_buffer_bytes = 64;
    lp.latency = 3;
    RingStop::Params rp;
    rp.queue = 1;
    RingBench b("b", n, lp, rp, 1);
    uint64_t tag = 0;
    for (unsigned k = 0; k < 200; ++k)
      for (unsigned s = 0; s < n; ++s) {
        const unsigned d = (s + 1 + k % (n - 1)) % n;
        b.send(s, 1, 10 * d + 1, tag++);
      }
    run_until(b.clk, 200000);
    std::vector<int> seen(tag, 0);
    size_t got = 0;
    for (unsigned s = 0; s < n; ++s)
      for (const auto& a : b.dst[s]->arrivals()) {
        CHECK(a.ext.dst / 10 == s);
        ++seen.at(a.ext.pc);
        ++got;
      }
    CHECK(got == tag);
    for (int x : seen) CHECK(x == 1);
  }
}

TEST_CASE("RingStop: a message for its own block from the block, and bad parameters, are errors", "[ring_stop][errors]") {
  ClockDomain clk("clk", 1000.0);
  CHECK_THROWS_WITH(RingStop("bad", RingStop::Params{}, clk, 4, 4, stop_of), Catch::Contains("stop 4 of a ring of 4"));
  CHECK_THROWS_WITH(RingStop("one", RingStop::Params{}, clk, 0, 1, stop_of), Catch::Contains("at least 2 stops"));
  RingStop::Params q;
  q.queue = 0;
  CHECK_THROWS_WITH(RingStop("q", q, clk, 0, 4, stop_of), Catch::Contains("queue"));
}

TEST_CASE("RingStop: a message for the stop's own block arriving from the block is an error", "[ring_stop][errors]") {
  RingBench b("b", 4);
  b.send(1, 10, 12, 0);  // stop 1's own id
  CHECK_THROWS_WITH(run_until(b.clk, 100), Catch::Contains("own block arrived from the block"));
}
