// The pin adapters of modules/rtl (MsgToValidReady, ValidReadyToMsg, RtlClock) around a pin-level
// pipeline model (pin_pipe.h, SystemC, no Verilator): a ScriptedInitiator's messages go through
// MsgToValidReady onto the pipe's input, the pipe's output comes back through ValidReadyToMsg to
// a ScriptedTarget. Checked, for two beat widths:
//   * the timing contract (rtl/rtl_clock.h): a message offered in the tick of cycle c with an
//     L-stage pipe is consumed by the target at c + L, cycle for cycle, one per cycle;
//   * back-pressure both ways: a target that stops taking fills the pipe, and the initiator is
//     refused after exactly L + depth messages (output register, L - 1 stages, the adapter's
//     depth), then everything arrives in order, once, with its data; a pipe that refuses beats
//     on some cycles delays the initiator but loses nothing;
//   * the pins keep the valid/ready rules (a raised valid stays, with its data, until its beat
//     moves), seen by a monitor at every rising edge;
//   * idle costs nothing (the clock stops between bursts), and misuse is an error.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "rtl/msg_to_valid_ready.h"
#include "rtl/pin_pipe.h"
#include "rtl/rtl_clock.h"
#include "rtl/valid_ready_to_msg.h"

using namespace gpusc;
using Catch::Contains;

namespace {

// A W-bit beat carries the address (low bits) and, from W >= 96, MemExt::src above it.
template <unsigned W> void pack(const tlm::tlm_generic_payload& gp, sc_dt::sc_bv<W>& b) {
  b = 0;
  for (unsigned i = 0; i < 64 && i < W; ++i) b[static_cast<int>(i)] = bool((gp.get_address() >> i) & 1);
  if (W >= 96) {
    const uint32_t src = gp.get_extension<MemExt>()->src;
    for (unsigned i = 0; i < 32; ++i) b[static_cast<int>(64 + i)] = bool((src >> i) & 1);
  }
}

// Rule monitor: at each rising edge out of reset, a valid that was high at the previous edge
// without ready is still high with the same data.
template <unsigned W> struct RuleMonitor : sc_core::sc_module {
  sc_core::sc_in<bool> clk{"clk"}, rst{"rst"};
  const ValidReadyBundle<W>& pins;
  bool held = false;
  sc_dt::sc_bv<W> last;
  std::vector<std::string> breaches;
  uint64_t edges = 0, beats = 0;
  SC_HAS_PROCESS(RuleMonitor);
  RuleMonitor(sc_core::sc_module_name n, const ValidReadyBundle<W>& p) : sc_core::sc_module(n), pins(p) {
    SC_METHOD(check);
    sensitive << clk.pos();
    dont_initialize();
  }
  void check() {
    if (rst.read()) return;
    ++edges;
    const bool v = pins.valid.read(), r = pins.ready.read();
    if (held && (!v || pins.data.read() != last))
      breaches.push_back(std::string(name()) + ": valid dropped or data changed before the beat moved, at " +
                         sc_core::sc_time_stamp().to_string());
    held = v && !r;
    last = pins.data.read();
    beats += v && r;
  }
};

template <unsigned W> struct Bench {
  ClockDomain clk{"clk", 1000};
  PayloadPool in_pool{16}, out_pool{16};
  tb::ScriptedInitiator ini{"ini", clk, in_pool};
  tb::ScriptedTarget tgt;
  RtlClock rtl{"rtl", clk};
  ValidReadyBundle<W> a{"a"}, b{"b"};
  MsgToValidReady<W> src;
  ValidReadyToMsg<W> sink;
  test::PinPipe<W> pipe;
  RuleMonitor<W> mon_a{"mon_a", a}, mon_b{"mon_b", b};

  Bench(unsigned stages, unsigned depth, unsigned target_depth = 4, std::function<bool(uint64_t)> gate = {})
      : tgt("tgt", clk, target_depth),
        src("src", rtl, pack<W>, depth),
        sink("sink", rtl,
             [this](const sc_dt::sc_bv<W>& bits) -> tlm::tlm_generic_payload& {
               tlm::tlm_generic_payload& gp = out_pool.acquire();
               uint64_t addr = 0;
               for (unsigned i = 0; i < 64 && i < W; ++i) addr |= uint64_t(bits[static_cast<int>(i)].to_bool()) << i;
               gp.set_address(addr);
               if (W >= 96) {
                 uint32_t s = 0;
                 for (unsigned i = 0; i < 32; ++i) s |= uint32_t(bits[static_cast<int>(64 + i)].to_bool()) << i;
                 gp.get_extension<MemExt>()->src = s;
               }
               return gp;
             }),
        pipe("pipe", stages, std::move(gate)) {
    ini.out.bind(src.in);
    sink.out.bind(tgt.in);
    src.bind(a);
    sink.bind(b);
    src.on_taken([](tlm::tlm_generic_payload& gp) { gp.release(); });
    pipe.clk(rtl.clk), pipe.rst(rtl.rst);
    pipe.in_valid(a.valid), pipe.in_ready(a.ready), pipe.in_data(a.data);
    pipe.out_valid(b.valid), pipe.out_ready(b.ready), pipe.out_data(b.data);
    mon_a.clk(rtl.clk), mon_a.rst(rtl.rst);
    mon_b.clk(rtl.clk), mon_b.rst(rtl.rst);
    // Beats inside the pipe: the clock must run until they come out (a one-in-one-out unit).
    rtl.add_activity([this] { return src.beats() != sink.beats(); });
  }
  // Message i offered no earlier than `cycle`: address 0x40 + 3 i (below 2^8), src 1000 + i.
  void send(uint64_t cycle, uint32_t i) {
    ini.at(cycle, [i](tlm::tlm_generic_payload& gp, MemExt& e) {
      gp.set_address(0x40 + 3 * i);
      e.src = 1000 + i;
    });
  }
  void require_rules() {
    for (const auto& s : mon_a.breaches) FAIL(s);
    for (const auto& s : mon_b.breaches) FAIL(s);
  }
  // Every message arrived once, in order, with the pipe's +1 on its address.
  void require_all(uint32_t n) {
    const auto& got = tgt.arrivals();
    REQUIRE(got.size() == n);
    for (uint32_t i = 0; i < n; ++i) {
      INFO("message " << i);
      CHECK(got[i].address == 0x40 + 3 * i + 1);
      if (W >= 96) CHECK(got[i].ext.src == 1000 + i);
    }
    CHECK(in_pool.in_use() == 0);
    CHECK(out_pool.in_use() == 0);
  }
};

template <unsigned W> void latency_and_throughput(unsigned stages) {
  Bench<W> b(stages, 1);
  // A burst of 6 back to back from cycle 3, then single messages at 20 and 40.
  uint32_t n = 0;
  for (uint64_t c = 3; c < 9; ++c) b.send(c, n++);
  b.send(20, n++);
  b.send(40, n++);
  sc_core::sc_start();
  b.require_all(n);
  b.require_rules();
  const auto& sent = b.ini.sent();
  const auto& got = b.tgt.arrivals();
  for (uint32_t i = 0; i < n; ++i) {
    INFO("message " << i << " of an " << stages << "-stage pipe, " << W << "-bit beats");
    CHECK(sent[i].accepted == sent[i].offered);  // never refused: one beat moves per cycle
    CHECK(got[i].consumed == sent[i].offered + stages);
  }
  CHECK(sent[0].offered == 3);
  CHECK(sent[5].offered == 8);
  CHECK(b.src.beats() == n);
  CHECK(b.sink.beats() == n);
  CHECK(b.sink.refused() == 0);
  // The clock ran only around the messages: per burst, its cycles plus the pipeline's.
  CHECK(b.rtl.rising_edges() <= (6 + stages + 1) + 2 * (stages + 2));
  CHECK(b.rtl.rising_edges() >= 6 + 2 + stages);
}

}  // namespace

TEST_CASE("RTL adapters: 2-stage pipe, 8-bit beats: a message offered at c is taken at c + 2, one per cycle",
          "[rtl][adapters]") {
  latency_and_throughput<8>(2);
}

TEST_CASE("RTL adapters: 1-stage pipe, 200-bit beats: a message offered at c is taken at c + 1", "[rtl][adapters]") {
  latency_and_throughput<200>(1);
}

TEST_CASE("RTL adapters: 3-stage pipe, 200-bit beats: a message offered at c is taken at c + 3", "[rtl][adapters]") {
  latency_and_throughput<200>(3);
}

namespace {
template <unsigned W> void target_back_pressure(unsigned stages, unsigned depth) {
  // The target (queue of 1) takes the first message and then nothing until cycle 60.
  Bench<W> b(stages, depth, 1);
  b.tgt.stall_until(60);
  const uint32_t n = 12;
  for (uint32_t i = 0; i < n; ++i) b.send(0, i);
  sc_core::sc_start();
  b.require_all(n);
  b.require_rules();
  const auto& sent = b.ini.sent();
  // Held before the initiator is refused: the target's queue (1), the beat the sink could not
  // hand over (1), the pipe's other stages (stages - 1), the adapter (depth).
  const uint32_t held = 1 + 1 + (stages - 1) + depth;
  for (uint32_t i = 0; i < n; ++i) {
    INFO("message " << i << ", " << stages << " stages, adapter depth " << depth);
    if (i < held) CHECK(sent[i].accepted == sent[i].offered);
    else CHECK(sent[i].accepted >= 60);  // only once the target drains
  }
  CHECK(sent[held].accepted > sent[held].offered);
  CHECK(b.sink.refused() >= 1);
  // While the target stalled, the pins held valid without ready on both sides.
  CHECK(b.mon_b.beats == n);
  CHECK(b.mon_a.beats == n);
}
}  // namespace

TEST_CASE("RTL adapters: a stalled target fills its queue, the pipe and the adapter, then the initiator is refused",
          "[rtl][adapters][backpressure]") {
  target_back_pressure<8>(2, 1);
}

TEST_CASE("RTL adapters: back-pressure with a 3-stage pipe, adapter depth 2, 200-bit beats", "[rtl][adapters][backpressure]") {
  target_back_pressure<200>(3, 2);
}

TEST_CASE("RTL adapters: a pipe refusing beats on some cycles delays the initiator, nothing lost", "[rtl][adapters][backpressure]") {
  // The pipe's input opens on one edge in three.
  Bench<96> b(2, 1, 4, [](uint64_t edge) { return edge % 3 == 2; });
  const uint32_t n = 20;
  for (uint32_t i = 0; i < n; ++i) b.send(1, i);
  sc_core::sc_start();
  b.require_all(n);
  b.require_rules();
  uint32_t refused = 0;
  for (const auto& s : b.ini.sent()) refused += s.accepted > s.offered;
  CHECK(refused > n / 2);  // the input took one beat in three
  CHECK(b.mon_a.edges >= 3 * (n - 1));
}

TEST_CASE("RTL adapters: an idle stream costs no clock edges", "[rtl][adapters]") {
  Bench<8> b(2, 1);
  b.send(10, 0);
  b.send(100000, 1);
  sc_core::sc_start();
  b.require_all(2);
  CHECK(b.rtl.rising_edges() <= 2 * 4);
  CHECK(!b.rtl.running());
  CHECK(b.tgt.arrivals()[1].consumed == 100002);
}

namespace {
struct OtherDomainSender : sc_core::sc_module, Tickable {
  ClockDomain& clk;
  PayloadPool pool{16};
  MsgOut out{"out"};
  OtherDomainSender(sc_core::sc_module_name n, ClockDomain& c) : sc_core::sc_module(n), clk(c) { clk.wake(*this, 5); }
  bool tick(uint64_t) override {
    out.send(pool.acquire());
    return false;
  }
};
}  // namespace

TEST_CASE("RTL adapters: a message handed over at an edge from another clock domain is an error", "[rtl][adapters][errors]") {
  ClockDomain clk("clk", 1000), other("other", 1000);
  RtlClock rtl("rtl", clk);
  ValidReadyBundle<8> a("a");
  MsgToValidReady<8> src("src", rtl, pack<8>);
  src.bind(a);
  OtherDomainSender s("s", other);
  s.out.bind(src.in);
  sc_core::sc_signal<bool> sink_ready("sink_ready", true);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Contains("from outside that clock domain's tick"));
}

TEST_CASE("RTL adapters: an adapter without a pack or unpack function is an error", "[rtl][adapters][errors]") {
  ClockDomain clk("clk", 1000);
  RtlClock rtl("rtl", clk);
  REQUIRE_THROWS_WITH(MsgToValidReady<8>("src", rtl, {}), Contains("no pack function"));
  REQUIRE_THROWS_WITH(ValidReadyToMsg<8>("sink", rtl, {}), Contains("no unpack function"));
}
