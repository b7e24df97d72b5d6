// MsgOut / MsgIn with the harness ScriptedInitiator / ScriptedTarget: delivery order and cycle
// times, back-pressure through a withheld END_REQ, and protocol errors.
//
// Latching convention (clock_domain.h): the initiator sends in its tick at edge c; the target
// takes the message into its queue at once (Arrival::cycle = c) and wakes with
// wake_after_now(), i.e. at cycle_after(time_of(c)) = c + 1, where it consumes one message
// per cycle. The initiator sends at most one message per cycle.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"

using namespace gpusc;
using Catch::Contains;

namespace {

constexpr uint64_t kNever = UINT64_MAX;  // ScriptedInitiator::Sent::accepted while withheld

struct Bench {
  ClockDomain clk{"clk", 1000};  // 1000 ps
  PayloadPool pool{64};
  tb::ScriptedInitiator ini;
  tb::ScriptedTarget tgt;
  explicit Bench(unsigned depth) : ini("ini", clk, pool), tgt("tgt", clk, depth) { ini.out.bind(tgt.in); }
  // Message i: address 0x1000 + i, write of 4 bytes, src = i, warp = 100 + i.
  void script(uint64_t cycle, uint32_t i) {
    ini.at(cycle, [i](tlm::tlm_generic_payload& gp, MemExt& e) {
      gp.set_address(0x1000 + i);
      gp.set_command(tlm::TLM_WRITE_COMMAND);
      gp.set_data_length(4);
      e.kind = MemKind::Write;
      e.src = i;
      e.warp = 100 + i;
    });
  }
};

// Bare sockets for protocol-error tests.
struct Src : sc_core::sc_module {
  MsgOut out{"out"};
  explicit Src(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};
struct Dst : sc_core::sc_module {
  MsgIn in{"in"};
  explicit Dst(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

}  // namespace

TEST_CASE("MsgPort: messages arrive in order at the expected cycles") {
  Bench b(4);
  b.script(0, 0);
  b.script(0, 1);
  b.script(5, 2);
  b.script(7, 3);
  sc_core::sc_start();
  // msg0 sent at 0, consumed at 1; msg1 due at 0 but the port sends one per cycle: sent at 1,
  // consumed at 2; msg2 sent at 5, consumed at 6; msg3 sent at 7, consumed at 8.
  const auto& sent = b.ini.sent();
  REQUIRE(sent.size() == 4);
  const uint64_t offered[] = {0, 1, 5, 7};
  const auto& got = b.tgt.arrivals();
  REQUIRE(got.size() == 4);
  for (uint32_t i = 0; i < 4; ++i) {
    INFO("message " << i);
    CHECK(sent[i].offered == offered[i]);
    CHECK(sent[i].accepted == offered[i]);  // room in the queue: taken immediately
    CHECK(got[i].cycle == offered[i]);
    CHECK(got[i].consumed == offered[i] + 1);
    CHECK(got[i].address == 0x1000 + i);
    CHECK(got[i].cmd == tlm::TLM_WRITE_COMMAND);
    CHECK(got[i].length == 4);
    CHECK(got[i].ext.kind == MemKind::Write);
    CHECK(got[i].ext.src == i);
    CHECK(got[i].ext.warp == 100 + i);
  }
  CHECK(b.ini.out.sent() == 4);
  CHECK(b.ini.out.stalls() == 0);
  CHECK(b.tgt.in.received() == 4);
  CHECK(b.pool.in_use() == 0);  // the target released every payload
  CHECK(sc_core::sc_time_stamp() == b.clk.time_of(8));
}

TEST_CASE("MsgPort: a full target withholds END_REQ and nothing is lost or duplicated") {
  Bench b(2);
  b.tgt.stall_until(50);
  for (uint32_t i = 0; i < 10; ++i) b.script(0, i);
  // Cycle 0: msg0 taken (queue 1). Cycle 1: msg1 taken (queue 2). Cycle 2: msg2 offered, the
  // queue is full: MsgIn holds it, END_REQ withheld, the initiator is busy and sleeps.
  sc_core::sc_start(b.clk.time_of(40));
  CHECK(b.tgt.arrivals().empty());
  CHECK(b.tgt.occupancy() == 2);
  CHECK(b.tgt.in.has_pending());
  CHECK(b.ini.out.busy());
  CHECK(b.ini.queued() == 7);
  REQUIRE(b.ini.sent().size() == 3);
  CHECK(b.ini.sent()[0].accepted == 0);
  CHECK(b.ini.sent()[1].accepted == 1);
  CHECK(b.ini.sent()[2].offered == 2);
  CHECK(b.ini.sent()[2].accepted == kNever);
  CHECK(b.ini.out.stalls() == 1);
  CHECK(b.pool.in_use() == 3);

  sc_core::sc_start();
  // Cycle 50: the target consumes msg0 and retries: msg2 enters the queue, END_REQ (via
  // BEGIN_RESP) frees the initiator, which is latched to 51. From 51 on, each cycle the
  // target consumes one and the initiator adds one: msg3..msg9 sent at 51..57. The queue
  // never exceeds 2 again, so there is one stall in total. msg i is consumed at 50 + i.
  const auto& sent = b.ini.sent();
  const auto& got = b.tgt.arrivals();
  REQUIRE(sent.size() == 10);
  REQUIRE(got.size() == 10);
  const uint64_t offered[] = {0, 1, 2, 51, 52, 53, 54, 55, 56, 57};
  const uint64_t accepted[] = {0, 1, 50, 51, 52, 53, 54, 55, 56, 57};
  std::set<uint64_t> addresses;
  for (uint32_t i = 0; i < 10; ++i) {
    INFO("message " << i);
    CHECK(sent[i].offered == offered[i]);
    CHECK(sent[i].accepted == accepted[i]);
    if (i > 0) CHECK(sent[i].accepted >= sent[i - 1].accepted);
    CHECK(got[i].address == 0x1000 + i);  // in order
    CHECK(got[i].cycle == accepted[i]);   // taken into the queue when END_REQ was given
    CHECK(got[i].consumed == 50 + i);
    addresses.insert(got[i].address);
  }
  CHECK(addresses.size() == 10);  // none duplicated (and with 10 arrivals, none lost)
  CHECK(b.ini.out.stalls() == 1);
  CHECK(b.tgt.in.received() == 10);
  CHECK_FALSE(b.ini.out.busy());
  CHECK_FALSE(b.tgt.in.has_pending());
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("MsgPort: sending while END_REQ is withheld is an error") {
  Src src("src");
  Dst dst("dst");
  src.out.bind(dst.in);
  bool room = false;
  std::vector<tlm::tlm_generic_payload*> taken;
  dst.in.set_accept([&](tlm::tlm_generic_payload& gp) {
    if (!room) return false;
    taken.push_back(&gp);
    return true;
  });
  unsigned accepted_callbacks = 0;
  src.out.on_accept([&] { ++accepted_callbacks; });
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // finish elaboration: socket bindings resolved

  PayloadPool pool;
  tlm::tlm_generic_payload& a = pool.acquire();
  tlm::tlm_generic_payload& b = pool.acquire();
  CHECK_FALSE(src.out.send(a));
  CHECK(src.out.busy());
  CHECK(dst.in.has_pending());
  REQUIRE_THROWS_WITH(src.out.send(b), Contains("src.out") && Contains("protocol violation"));
  CHECK_FALSE(dst.in.retry());  // still no room
  room = true;
  CHECK(dst.in.retry());
  CHECK(accepted_callbacks == 1);
  CHECK_FALSE(src.out.busy());
  CHECK(a.get_response_status() == tlm::TLM_OK_RESPONSE);
  CHECK(src.out.send(b));
  CHECK(taken == std::vector<tlm::tlm_generic_payload*>{&a, &b});
  a.release();
  b.release();
}

TEST_CASE("MsgPort: protocol errors on the target side") {
  Src src("src");
  Dst dst("dst");
  src.out.bind(dst.in);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  PayloadPool pool;
  tlm::tlm_generic_payload& gp = pool.acquire();
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;

  // No loosely-timed path and no handler bound yet.
  REQUIRE_THROWS_WITH(src.out->b_transport(gp, t), Contains("dst.in") && Contains("b_transport"));
  REQUIRE_THROWS_WITH(src.out.send(gp), Contains("dst.in") && Contains("no handler"));

  // With a b_transport handler, the call reaches it.
  unsigned b_calls = 0;
  dst.in.set_b_transport([&](tlm::tlm_generic_payload&, sc_core::sc_time& d) {
    ++b_calls;
    d += sc_core::sc_time(5, sc_core::SC_NS);
  });
  src.out->b_transport(gp, t);
  CHECK(b_calls == 1);
  CHECK(t == sc_core::sc_time(5, sc_core::SC_NS));

  // A phase other than BEGIN_REQ / END_RESP, END_RESP with no response phase open, and a second
  // BEGIN_REQ while one is held (bypassing MsgOut).
  dst.in.set_accept([](tlm::tlm_generic_payload&) { return false; });
  tlm::tlm_phase ph = tlm::END_REQ;
  REQUIRE_THROWS_WITH(src.out->nb_transport_fw(gp, ph, t), Contains("unexpected phase"));
  ph = tlm::END_RESP;
  REQUIRE_THROWS_WITH(src.out->nb_transport_fw(gp, ph, t), Contains("response phase is not open"));
  ph = tlm::BEGIN_REQ;
  CHECK(src.out->nb_transport_fw(gp, ph, t) == tlm::TLM_ACCEPTED);
  tlm::tlm_generic_payload& other = pool.acquire();
  ph = tlm::BEGIN_REQ;
  REQUIRE_THROWS_WITH(src.out->nb_transport_fw(other, ph, t), Contains("protocol violation"));

  // A backward call for a message the initiator is not waiting for.
  ph = tlm::BEGIN_RESP;
  REQUIRE_THROWS_WITH(dst.in->nb_transport_bw(other, ph, t), Contains("src.out") && Contains("not pending"));
  gp.release();
  other.release();
}

TEST_CASE("MsgPort: the tap sees each message once, when the owner takes it") {
  Bench b(1);
  b.tgt.stall_until(20);
  std::vector<std::pair<uint64_t, uint64_t>> tapped;  // (cycle, address)
  b.tgt.in.set_tap([&](tlm::tlm_generic_payload& gp) { tapped.emplace_back(b.clk.now(), gp.get_address()); });
  for (uint32_t i = 0; i < 3; ++i) b.script(0, i);
  sc_core::sc_start();
  // msg0 is taken at 0 and fills the queue of 1; msg1 is offered at 1 and withheld until the
  // target consumes msg0 at 20 and retries. The tap must fire at acceptance (20), not at the offer.
  REQUIRE(tapped.size() == 3);
  for (uint32_t i = 0; i < 3; ++i) {
    INFO("message " << i);
    CHECK(tapped[i].second == 0x1000 + i);
    CHECK(tapped[i].first == b.ini.sent()[i].accepted);  // at acceptance, not at the first offer
  }
  CHECK(tapped[1].first == 20);
}
