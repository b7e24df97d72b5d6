// Issue 17: MsgOut / MsgIn against third-party AT peers of every style (each of these failed on
// the old ports), and the boundary bridges AtInitiatorBridge / AtTargetBridge with a
// BaseProtocolChecker on the standard side: scripted legal third-party initiators and targets
// of each style (2-phase, 4-phase, TLM_UPDATED, early completion, back-pressure).
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "common/at_initiator_bridge.h"
#include "common/at_target_bridge.h"
#include "common/base_protocol_checker.h"
#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "harness/third_party_tlm.h"

using namespace gpusc;
using sc_core::SC_NS;
using sc_core::sc_time;
using IStyle = tb::PlainInitiator::Style;
using TStyle = tb::PlainMemory::Style;

namespace {

const std::vector<TStyle> kTargets = {TStyle::EarlyCompletion, TStyle::UpdatedBeginResp, TStyle::UpdatedEndReq,
                                      TStyle::FourPhase, TStyle::RespEndsReq};
const std::vector<IStyle> kInitiators = {IStyle::FourPhase, IStyle::TwoPhase, IStyle::UpdatedEndResp};

// Message i of a scripted stream: a 64 B write (i even) or read (i odd) at 64 * (i / 2).
void script(tb::ScriptedInitiator& ini, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    ini.at(i, [i](tlm::tlm_generic_payload& gp, MemExt& e) {
      const bool w = i % 2 == 0;
      gp.set_command(w ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      gp.set_address(0x10000 + 64ull * (i / 2));
      gp.set_data_length(64);
      gp.set_streaming_width(64);
      gp.set_data_ptr(nullptr);  // an internal message carrying no values
      e.kind = w ? MemKind::Write : MemKind::Read;
      e.src = 3;
      e.pc = i;
    });
}

// A gpusc unit behind a MsgIn that refuses while `room` is 0; every 2 ns it gains one slot and
// retries. It keeps what it takes (a third-party initiator's payload must not be released here).
struct SlowSink : sc_core::sc_module {
  MsgIn in{"in"};
  unsigned room = 1, taken = 0;
  explicit SlowSink(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_HAS_PROCESS(SlowSink);
    in.set_accept([this](tlm::tlm_generic_payload&) {
      if (!room) return false;
      --room;
      ++taken;
      return true;
    });
    SC_THREAD(run);
  }
  void run() {
    for (int k = 0; k < 100; ++k) {
      wait(2, SC_NS);
      ++room;
      in.retry();
    }
  }
};

// A gpusc-side responder (what an L2 slice is to a boundary): takes request messages, answers each
// 10 ns later with the same payload as a reply, read data = the address's low byte + 1.
struct Echo : sc_core::sc_module {
  MsgIn in{"in"};
  MsgOut out{"out"};
  std::deque<tlm::tlm_generic_payload*> q;
  sc_core::sc_event taken;
  uint64_t writes = 0;
  struct Seen {
    uint64_t address;
    unsigned length;
    uint32_t word_mask;
    std::vector<unsigned char> data;
  };
  std::vector<Seen> seen;
  explicit Echo(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_HAS_PROCESS(Echo);
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      if (q.size() >= 2) return false;  // back-pressure toward the bridge
      q.push_back(&gp);
      seen.push_back({gp.get_address(), gp.get_data_length(), gp.get_extension<MemExt>()->word_mask,
                      std::vector<unsigned char>(gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length())});
      taken.notify(sc_core::SC_ZERO_TIME);
      return true;
    });
    out.on_accept([this] { taken.notify(sc_core::SC_ZERO_TIME); });
    SC_THREAD(run);
  }
  void run() {
    for (;;) {
      while (q.empty() || out.busy()) wait(taken);
      wait(10, SC_NS);
      tlm::tlm_generic_payload& gp = *q.front();
      q.pop_front();
      in.retry();
      MemExt& e = *gp.get_extension<MemExt>();
      if (gp.is_read())
        for (unsigned b = 0; b < gp.get_data_length(); ++b)
          gp.get_data_ptr()[b] = static_cast<unsigned char>(gp.get_address() + 1);
      else
        ++writes;
      e.is_reply = true;
      e.dst = e.src;
      out.send(gp);
    }
  }
};

// initiator socket -> checker -> AtTargetBridge (requests routed from node 40 to node 2) -> Echo.
struct EchoRig {
  BaseProtocolChecker chk{"chk"};
  AtTargetBridge br{"br", {}, [](const tlm::tlm_generic_payload&, MemExt& e) {
                      e.src = 40;
                      e.dst = 2;
                    }};
  Echo echo{"echo"};
  explicit EchoRig(tlm::tlm_initiator_socket<32>& ini) {
    ini.bind(chk.target_socket);
    chk.initiator_socket.bind(br.socket);
    br.out.bind(echo.in);
    echo.out.bind(br.in);
  }
};

}  // namespace

TEST_CASE("MsgOut: a third-party target of every legal style (TLM_UPDATED + END_REQ, early completion, 4-phase)",
          "[tlm][msg_port]") {
  ClockDomain clk("clk", 1000);
  PayloadPool pool(64);
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> ini;
  std::vector<std::unique_ptr<BaseProtocolChecker>> chk;
  std::vector<std::unique_ptr<tb::PlainMemory>> mem;
  for (size_t k = 0; k < kTargets.size(); ++k) {
    const std::string n = "t" + std::to_string(k);
    ini.push_back(std::make_unique<tb::ScriptedInitiator>((n + "_ini").c_str(), clk, pool));
    chk.push_back(std::make_unique<BaseProtocolChecker>((n + "_chk").c_str()));
    mem.push_back(std::make_unique<tb::PlainMemory>((n + "_mem").c_str(), kTargets[k], 1 << 20, sc_time(9, SC_NS),
                                                    sc_time(3, SC_NS)));
    ini[k]->out.bind(chk[k]->target_socket);
    chk[k]->initiator_socket.bind(mem[k]->socket);
    for (unsigned i = 0; i < 8; ++i)  // valid data pointers: the pool's buffers
      ini[k]->at(i, [i](tlm::tlm_generic_payload& gp, MemExt&) {
        gp.set_command(tlm::TLM_WRITE_COMMAND);
        gp.set_address(64ull * i);
      });
  }
  sc_core::sc_start(clk.time_of(200));
  for (size_t k = 0; k < kTargets.size(); ++k) {
    INFO("target style " << k);
    CHECK(chk[k]->violations().empty());
    CHECK(ini[k]->queued() == 0);
    CHECK(mem[k]->writes() == 8);
    CHECK(chk[k]->open() == 0);
  }
}

TEST_CASE("MsgIn: honours TLM_ACCEPTED on BEGIN_RESP and END_RESP from the initiator", "[tlm][msg_port]") {
  std::vector<tb::PlainInitiator::Request> s;
  for (unsigned i = 0; i < 10; ++i) s.push_back({tlm::TLM_WRITE_COMMAND, 64ull * i, 64, 1});
  // END_RESP 5 ns after BEGIN_RESP while the sink frees a slot every 2 ns: the old retry() sent
  // the next BEGIN_RESP inside the open response phase.
  tb::PlainInitiator ini("ini", IStyle::FourPhase, s, 1, sc_core::SC_ZERO_TIME, sc_time(5, SC_NS));
  BaseProtocolChecker chk("chk");
  SlowSink sink("sink");
  ini.socket.bind(chk.target_socket);
  chk.initiator_socket.bind(sink.in);
  sc_core::sc_start(sc_time(300, SC_NS));
  CHECK(chk.violations().empty());
  CHECK(ini.finished());
  CHECK(sink.taken == 10);
  CHECK(chk.end_resp_from_initiator() > 0);
}

TEST_CASE("MsgOut: a reused payload starts its new transaction with TLM_INCOMPLETE_RESPONSE", "[tlm][msg_port]") {
  struct Src : sc_core::sc_module {
    MsgOut out{"out"};
    explicit Src(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
  } src("src");
  BaseProtocolChecker chk("chk");
  struct Dst : sc_core::sc_module {
    MsgIn in{"in", [](tlm::tlm_generic_payload&) { return true; }};
    explicit Dst(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
  } dst("dst");
  src.out.bind(chk.target_socket);
  chk.initiator_socket.bind(dst.in);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  PayloadPool pool(64);
  tlm::tlm_generic_payload& gp = pool.acquire();
  CHECK(src.out.send(gp));
  CHECK(gp.get_response_status() == tlm::TLM_OK_RESPONSE);  // taken: the receiver marked it
  CHECK(src.out.send(gp));  // a reply reusing the request's payload: a new transaction
  CHECK(chk.violations().empty());
  CHECK(chk.transactions() == 2);
}

TEST_CASE("AtInitiatorBridge: gpusc messages to a third-party target of every style", "[tlm][bridge]") {
  ClockDomain clk("clk", 1000);
  PayloadPool pool(64);
  struct Lane {
    std::unique_ptr<tb::ScriptedInitiator> ini;
    std::unique_ptr<AtInitiatorBridge> br;
    std::unique_ptr<BaseProtocolChecker> chk;
    std::unique_ptr<tb::PlainMemory> mem;
    std::unique_ptr<tb::ScriptedTarget> rep;
  };
  std::vector<Lane> lanes;
  for (size_t k = 0; k < kTargets.size(); ++k) {
    const std::string n = "b" + std::to_string(k);
    Lane l;
    l.ini = std::make_unique<tb::ScriptedInitiator>((n + "_ini").c_str(), clk, pool);
    l.br = std::make_unique<AtInitiatorBridge>((n + "_br").c_str(), AtInitiatorBridge::Params{3},
                                               &AtInitiatorBridge::reads_reply,
                                               [](uint64_t a) { return a - 0x10000; });  // a local address
    l.chk = std::make_unique<BaseProtocolChecker>((n + "_chk").c_str());
    // 4 KB: a global address would be an address error
    l.mem = std::make_unique<tb::PlainMemory>((n + "_mem").c_str(), kTargets[k], 4096, sc_time(30, SC_NS),
                                              sc_time(12, SC_NS));
    l.rep = std::make_unique<tb::ScriptedTarget>((n + "_rep").c_str(), clk, 1);  // a slow reply sink
    l.ini->out.bind(l.br->in);
    l.br->socket.bind(l.chk->target_socket);
    l.chk->initiator_socket.bind(l.mem->socket);
    l.br->out.bind(l.rep->in);
    script(*l.ini, 16);
    lanes.push_back(std::move(l));
  }
  sc_core::sc_start(clk.time_of(2000));
  for (size_t k = 0; k < lanes.size(); ++k) {
    const Lane& l = lanes[k];
    INFO("target style " << k);
    CHECK(l.chk->violations().empty());
    CHECK(l.chk->transactions() == 16);
    CHECK(l.chk->completed() == 16);
    CHECK(l.mem->writes() == 8);
    CHECK(l.mem->reads() == 8);
    CHECK(l.mem->max_address() == 8 * 64);
    REQUIRE(l.rep->arrivals().size() == 8);  // reads come back as replies, writes are absorbed
    for (unsigned r = 0; r < 8; ++r) {
      CHECK(l.rep->arrivals()[r].ext.is_reply);
      CHECK(l.rep->arrivals()[r].address == 0x10000 + 64ull * r);  // the gpusc address restored
      CHECK(l.rep->arrivals()[r].ext.pc == 2 * r + 1);
    }
    CHECK(l.br->open() == 0);
    CHECK(pool.in_use() == 0);  // the ScriptedTarget released every reply; writes were released
  }
}

TEST_CASE("AtInitiatorBridge: a target's error response is a clear error", "[tlm][bridge]") {
  ClockDomain clk("clk", 1000);
  PayloadPool pool(64);
  tb::ScriptedInitiator ini("ini", clk, pool);
  AtInitiatorBridge br("br", {}, &AtInitiatorBridge::reads_reply);  // no address map: out of range
  tb::PlainMemory mem("mem", TStyle::FourPhase, 4096, sc_time(30, SC_NS), sc_time(12, SC_NS));
  tb::ScriptedTarget rep("rep", clk, 4);
  ini.out.bind(br.in);
  br.socket.bind(mem.socket);
  br.out.bind(rep.in);
  script(ini, 2);
  REQUIRE_THROWS_WITH(sc_core::sc_start(clk.time_of(200)),
                      Catch::Contains("br") && Catch::Contains("TLM_ADDRESS_ERROR_RESPONSE"));
}

TEST_CASE("AtTargetBridge: third-party initiators of every style into a gpusc unit", "[tlm][bridge]") {
  struct Lane {
    std::unique_ptr<tb::PlainInitiator> ini;
    std::unique_ptr<BaseProtocolChecker> chk;
    std::unique_ptr<AtTargetBridge> br;
    std::unique_ptr<Echo> echo;
  };
  std::vector<Lane> lanes;
  std::vector<tb::PlainInitiator::Request> s;
  for (unsigned i = 0; i < 12; ++i)
    s.push_back({i % 3 == 0 ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, 0x1000 + 32ull * i, 32, 7});
  for (size_t k = 0; k < kInitiators.size(); ++k) {
    const std::string n = "a" + std::to_string(k);
    Lane l;
    l.ini = std::make_unique<tb::PlainInitiator>((n + "_ini").c_str(), kInitiators[k], s, 4, sc_time(1, SC_NS));
    l.chk = std::make_unique<BaseProtocolChecker>((n + "_chk").c_str());
    l.br = std::make_unique<AtTargetBridge>((n + "_br").c_str(), AtTargetBridge::Params{},
                                            [](const tlm::tlm_generic_payload&, MemExt& e) {
                                              e.src = 40;
                                              e.dst = 2;
                                            });
    l.echo = std::make_unique<Echo>((n + "_echo").c_str());
    l.ini->socket.bind(l.chk->target_socket);
    l.chk->initiator_socket.bind(l.br->socket);
    l.br->out.bind(l.echo->in);
    l.echo->out.bind(l.br->in);
    lanes.push_back(std::move(l));
  }
  sc_core::sc_start(sc_time(2, sc_core::SC_US));
  for (size_t k = 0; k < lanes.size(); ++k) {
    const Lane& l = lanes[k];
    INFO("initiator style " << k);
    CHECK(l.chk->violations().empty());
    REQUIRE(l.ini->finished());
    CHECK(l.echo->writes == 4);
    for (const auto& r : l.ini->responses()) {
      CHECK(r.status == tlm::TLM_OK_RESPONSE);
      if ((r.address - 0x1000) / 32 % 3 != 0) CHECK(r.data.at(31) == static_cast<unsigned char>(r.address + 1));
    }
    CHECK(l.br->inside() == 0);
    CHECK(l.ini->payloads_in_use() == 0);
  }
}

TEST_CASE("AtTargetBridge: requests it cannot honour complete with the standard's error status", "[tlm][bridge]") {
  struct Ini : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
    tlm::tlm_initiator_socket<32> socket{"socket"};
    explicit Ini(sc_core::sc_module_name n) : sc_core::sc_module(n) { socket.bind(*this); }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& ph, sc_time&) override {
      return ph == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  } ini("ini");
  EchoRig rig(ini.socket);
  BaseProtocolChecker& chk = rig.chk;
  Echo& echo = rig.echo;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  unsigned char data[256] = {}, be[4] = {0xff, 0, 0xff, 0};
  auto offer = [&](unsigned len, bool with_be) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(0);
    gp.set_data_ptr(data);
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    if (with_be) {
      gp.set_byte_enable_ptr(be);
      gp.set_byte_enable_length(4);
    }
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_time t = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = ini.socket->nb_transport_fw(gp, ph, t);
    CHECK(r == tlm::TLM_COMPLETED);
    return gp.get_response_status();
  };
  CHECK(offer(64, true) == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);  // a read with 4 enables for 64 bytes
  CHECK(offer(256, false) == tlm::TLM_BURST_ERROR_RESPONSE);
  CHECK(chk.violations().empty());
  CHECK(echo.writes == 0);
  // Word enables on a write: gpusc's packed partial write (words 5 and 7 of line 0x1000).
  unsigned char wbe[16] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
  for (unsigned b = 0; b < 16; ++b) data[b] = static_cast<unsigned char>(b);
  tlm::tlm_generic_payload w;
  w.set_command(tlm::TLM_WRITE_COMMAND);
  w.set_address(0x1014);
  w.set_data_ptr(data);
  w.set_data_length(16);
  w.set_streaming_width(16);
  w.set_byte_enable_ptr(wbe);
  w.set_byte_enable_length(16);
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_time wt = sc_core::SC_ZERO_TIME;
  CHECK(ini.socket->nb_transport_fw(w, ph, wt) == tlm::TLM_ACCEPTED);
  sc_core::sc_start(sc_time(100, SC_NS));
  CHECK(chk.violations().empty());
  CHECK(w.get_response_status() == tlm::TLM_OK_RESPONSE);
  REQUIRE(echo.seen.size() == 1);
  CHECK(echo.seen[0].address == 0x1000);
  CHECK(echo.seen[0].word_mask == ((1u << 5) | (1u << 7)));
  CHECK(echo.seen[0].data == std::vector<unsigned char>{0, 1, 2, 3, 8, 9, 10, 11});
}

TEST_CASE("AtTargetBridge: a loosely-timed initiator's b_transport goes through gpusc and returns answered",
          "[tlm][bridge]") {
  // Two threads of one LT initiator call b_transport at once (a 64 B read, a 32 B write, each
  // annotated 3 ns) and then a request the bridge refuses and a TLM_IGNORE_COMMAND. Echo answers
  // 10 ns after it takes a request, one at a time. The old bridge stopped with an error.
  struct Lt : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
    tlm::tlm_initiator_socket<32> socket{"socket"};
    struct Done {
      tlm::tlm_response_status status;
      sc_time at, annotation;
      std::vector<unsigned char> data;
    };
    std::vector<Done> done;
    explicit Lt(sc_core::sc_module_name n) : sc_core::sc_module(n) {
      SC_HAS_PROCESS(Lt);
      socket.bind(*this);
      SC_THREAD(reader);
      SC_THREAD(writer);
    }
    void call(tlm::tlm_command cmd, uint64_t a, unsigned len) {
      std::vector<unsigned char> buf(len, 0x5a);
      tlm::tlm_generic_payload gp;
      gp.set_command(cmd);
      gp.set_address(a);
      gp.set_data_ptr(buf.data());
      gp.set_data_length(len);
      gp.set_streaming_width(len);
      sc_time t(3, SC_NS);
      socket->b_transport(gp, t);
      done.push_back({gp.get_response_status(), sc_core::sc_time_stamp(), t, buf});
    }
    void reader() { call(tlm::TLM_READ_COMMAND, 0x2040, 64); }
    void writer() {
      call(tlm::TLM_WRITE_COMMAND, 0x2000, 32);
      call(tlm::TLM_READ_COMMAND, 0x2000, 256);   // longer than max_bytes
      call(tlm::TLM_IGNORE_COMMAND, 0x2000, 4);
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&) override {
      FAIL("the LT initiator got an nb_transport_bw call");
      return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  } ini("ini");
  EchoRig rig(ini.socket);
  BaseProtocolChecker& chk = rig.chk;
  AtTargetBridge& br = rig.br;
  Echo& echo = rig.echo;
  sc_core::sc_start(sc_time(200, SC_NS));
  CHECK(chk.violations().empty());
  CHECK(chk.completed() == 4);
  REQUIRE(ini.done.size() == 4);
  CHECK(echo.writes == 1);
  REQUIRE(echo.seen.size() == 2);  // the refused and the ignored request never went in
  // Both went in at 3 ns (their annotations); Echo answers them 10 ns apart, from 13 ns.
  auto find = [&](size_t len) {
    return std::find_if(ini.done.begin(), ini.done.end(), [&](const Lt::Done& d) { return d.data.size() == len; });
  };
  const auto rd = find(64), wr = find(32);
  REQUIRE(rd != ini.done.end());
  REQUIRE(wr != ini.done.end());
  CHECK(rd->status == tlm::TLM_OK_RESPONSE);
  CHECK(wr->status == tlm::TLM_OK_RESPONSE);
  CHECK(rd->annotation == sc_core::SC_ZERO_TIME);  // waited out in the bridge
  CHECK(wr->annotation == sc_core::SC_ZERO_TIME);
  CHECK(std::min(rd->at, wr->at) >= sc_time(13, SC_NS));
  CHECK(std::max(rd->at, wr->at) >= sc_time(23, SC_NS));
  CHECK(rd->data[0] == static_cast<unsigned char>(0x40 + 1));  // Echo's read data
  CHECK(rd->data[63] == static_cast<unsigned char>(0x40 + 1));
  // The refused one at once with the burst error, the ignored one at once with OK.
  CHECK(find(256)->status == tlm::TLM_BURST_ERROR_RESPONSE);
  CHECK(find(256)->at == wr->at);
  CHECK(find(256)->annotation == sc_time(3, SC_NS));  // completed at once: the annotation is the caller's
  CHECK(find(4)->status == tlm::TLM_OK_RESPONSE);
  CHECK(br.inside() == 0);
}

TEST_CASE("AtTargetBridge: the next BEGIN_RESP waits for the time END_RESP was annotated with", "[tlm][bridge]") {
  // The initiator answers each BEGIN_RESP TLM_COMPLETED annotated 20 ns: its response phase ends
  // 20 ns later. Echo has three replies ready 10 ns apart; the old bridge sent them at 10 ns
  // intervals, inside the previous response phase.
  struct Ini : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
    tlm::tlm_initiator_socket<32> socket{"socket"};
    tb::Agenda agenda;
    std::vector<tlm::tlm_generic_payload> gp = std::vector<tlm::tlm_generic_payload>(3);
    unsigned char buf[3][32] = {};
    unsigned next = 0;
    std::vector<sc_time> resp;
    explicit Ini(sc_core::sc_module_name n) : sc_core::sc_module(n) {
      SC_HAS_PROCESS(Ini);
      socket.bind(*this);
      SC_METHOD(step);
      sensitive << agenda.event();
      agenda.at(sc_core::SC_ZERO_TIME, [this] { issue(); });
    }
    void step() { agenda.run_due(); }
    void issue() {
      tlm::tlm_generic_payload& g = gp[next];
      g.set_command(tlm::TLM_READ_COMMAND);
      g.set_address(0x3000 + 32ull * next);
      g.set_data_ptr(buf[next]);
      g.set_data_length(32);
      g.set_streaming_width(32);
      ++next;
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_time t = sc_core::SC_ZERO_TIME;
      REQUIRE(socket->nb_transport_fw(g, ph, t) == tlm::TLM_ACCEPTED);
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& ph, sc_time& t) override {
      if (ph == tlm::END_REQ) {
        if (next < gp.size()) agenda.at(sc_core::sc_time_stamp(), [this] { issue(); });
        return tlm::TLM_ACCEPTED;
      }
      resp.push_back(sc_core::sc_time_stamp());
      t = sc_time(20, SC_NS);
      return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  } ini("ini");
  EchoRig rig(ini.socket);
  sc_core::sc_start(sc_time(200, SC_NS));
  CHECK(rig.chk.violations().empty());
  REQUIRE(ini.resp.size() == 3);
  CHECK(ini.resp[0] == sc_time(10, SC_NS));
  CHECK(ini.resp[1] == sc_time(30, SC_NS));
  CHECK(ini.resp[2] == sc_time(50, SC_NS));
  CHECK(rig.br.inside() == 0);
}

TEST_CASE("AtInitiatorBridge: the loosely-timed path is b_transport on the socket, well formed", "[tlm][bridge]") {
  struct Src : sc_core::sc_module {
    MsgOut out{"out"};
    explicit Src(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
  } src("src");
  struct Rep : sc_core::sc_module {
    MsgIn in{"in", [](tlm::tlm_generic_payload&) { return true; }};
    explicit Rep(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
  } rep("rep");
  AtInitiatorBridge br("br", {}, &AtInitiatorBridge::reads_reply, [](uint64_t a) { return a - 0x10000; });
  BaseProtocolChecker chk("chk");
  tb::PlainMemory mem("mem", TStyle::EarlyCompletion, 4096, sc_time(30, SC_NS));
  src.out.bind(br.in);
  br.out.bind(rep.in);
  br.socket.bind(chk.target_socket);
  chk.initiator_socket.bind(mem.socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  PayloadPool pool(64);
  tlm::tlm_generic_payload& gp = pool.acquire();
  gp.set_address(0x10040);
  gp.set_data_ptr(nullptr);  // no values: the bridge lends a buffer
  gp.get_extension<MemExt>()->kind = MemKind::Read;
  sc_time t = sc_core::SC_ZERO_TIME;
  src.out->b_transport(gp, t);
  CHECK(t == sc_time(30, SC_NS));
  CHECK(chk.violations().empty());
  CHECK(chk.transactions() == 1);
  CHECK(mem.reads() == 1);
  CHECK(mem.max_address() == 0x40 + 64);
  CHECK(gp.get_address() == 0x10040);
  CHECK(gp.get_data_ptr() == nullptr);
  CHECK(gp.get_extension<MemExt>()->is_reply);
  gp.release();
}

TEST_CASE("AtInitiatorBridge and AtTargetBridge: a partial store travels as byte enables and back", "[tlm][bridge]") {
  ClockDomain clk("clk", 1000);
  PayloadPool pool(128);
  tb::ScriptedInitiator ini("ini", clk, pool);
  AtInitiatorBridge out("out", {}, &AtInitiatorBridge::all_reply);
  BaseProtocolChecker chk("chk");
  tb::PlainMemory mem("mem", TStyle::FourPhase, 1 << 20, sc_time(30, SC_NS), sc_time(3, SC_NS));
  tb::ScriptedTarget acks("acks", clk, 4);
  ini.out.bind(out.in);
  out.socket.bind(chk.target_socket);
  chk.initiator_socket.bind(mem.socket);
  out.out.bind(acks.in);
  // An SM's store of words 1 and 3 of line 0x400: data packed, 4 B per set bit of word_mask.
  ini.at(0, [](tlm::tlm_generic_payload& gp, MemExt& e) {
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(0x400);
    gp.set_data_length(8);
    for (unsigned b = 0; b < 8; ++b) gp.get_data_ptr()[b] = static_cast<unsigned char>(0xa0 + b);
    e.kind = MemKind::Write;
    e.word_mask = 0b1010;
  });
  sc_core::sc_start(clk.time_of(200));
  CHECK(chk.violations().empty());
  CHECK(mem.writes() == 1);
  CHECK(mem.byte(0x400) == 0);         // word 0 not written
  CHECK(mem.byte(0x404) == 0xa0);      // word 1: the first packed word
  CHECK(mem.byte(0x407) == 0xa3);
  CHECK(mem.byte(0x408) == 0);         // word 2 not written
  CHECK(mem.byte(0x40c) == 0xa4);      // word 3: the second packed word
  REQUIRE(acks.arrivals().size() == 1);  // all_reply: a write ack
  CHECK(acks.arrivals()[0].length == 8);  // the message's own length restored
  CHECK(acks.arrivals()[0].ext.word_mask == 0b1010);
}
