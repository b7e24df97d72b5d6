// BaseProtocolChecker: every legal phase sequence between the third-party models (each
// initiator style x each target style) passes with no violation and the data round-trips; each
// rule it checks catches a hand-made violation (the checker in non-fatal mode records it).
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/base_protocol_checker.h"
#include "harness/third_party_tlm.h"

using namespace gpusc;
using sc_core::SC_NS;
using sc_core::sc_time;
using IStyle = tb::PlainInitiator::Style;
using TStyle = tb::PlainMemory::Style;

namespace {

std::vector<tb::PlainInitiator::Request> write_then_read(unsigned n) {
  std::vector<tb::PlainInitiator::Request> s;
  for (unsigned i = 0; i < n; ++i) s.push_back({tlm::TLM_WRITE_COMMAND, 64ull * i, 64, static_cast<unsigned char>(i + 1)});
  for (unsigned i = 0; i < n; ++i) s.push_back({tlm::TLM_READ_COMMAND, 64ull * i, 64});
  return s;
}

bool has(const std::vector<std::string>& v, const std::string& what) {
  for (const auto& s : v)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

// A raw target whose forward behaviour the test scripts; a raw initiator socket to call it.
struct RawTarget : sc_core::sc_module, tlm::tlm_fw_transport_if<> {
  tlm::tlm_target_socket<32> socket{"socket"};
  std::function<tlm::tlm_sync_enum(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&)> fw;
  explicit RawTarget(sc_core::sc_module_name n) : sc_core::sc_module(n) { socket.bind(*this); }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& g, tlm::tlm_phase& p, sc_time& t) override {
    return fw(g, p, t);
  }
  void b_transport(tlm::tlm_generic_payload& g, sc_time&) override { g.set_response_status(tlm::TLM_OK_RESPONSE); }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
};
struct RawInitiator : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
  tlm::tlm_initiator_socket<32> socket{"socket"};
  std::function<tlm::tlm_sync_enum(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&)> bw =
      [](tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&) { return tlm::TLM_ACCEPTED; };
  explicit RawInitiator(sc_core::sc_module_name n) : sc_core::sc_module(n) { socket.bind(*this); }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& g, tlm::tlm_phase& p, sc_time& t) override {
    return bw(g, p, t);
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& g, tlm::tlm_phase p, sc_time t = sc_core::SC_ZERO_TIME) {
    return socket->nb_transport_fw(g, p, t);
  }
};

struct Raw {
  RawInitiator ini{"ini"};
  BaseProtocolChecker chk{"chk"};
  RawTarget tgt{"tgt"};
  unsigned char buf[64] = {};
  Raw() {
    ini.socket.bind(chk.target_socket);
    chk.initiator_socket.bind(tgt.socket);
    chk.set_fatal(false);
    tgt.fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&) { return tlm::TLM_ACCEPTED; };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  void well_formed(tlm::tlm_generic_payload& g) {
    g.set_command(tlm::TLM_READ_COMMAND);
    g.set_address(0x40);
    g.set_data_ptr(buf);
    g.set_data_length(64);
    g.set_streaming_width(64);
    g.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
};

}  // namespace

TEST_CASE("BaseProtocolChecker: every initiator style against every target style is clean", "[tlm][checker]") {
  const std::vector<IStyle> is = {IStyle::FourPhase, IStyle::TwoPhase, IStyle::UpdatedEndResp};
  const std::vector<TStyle> ts = {TStyle::EarlyCompletion, TStyle::UpdatedBeginResp, TStyle::UpdatedEndReq,
                                  TStyle::FourPhase, TStyle::RespEndsReq};
  struct Link {
    std::unique_ptr<tb::PlainInitiator> ini;
    std::unique_ptr<BaseProtocolChecker> chk;
    std::unique_ptr<tb::PlainMemory> mem;
  };
  std::vector<Link> links;
  for (IStyle i : is)
    for (TStyle t : ts) {
      const std::string n = "l" + std::to_string(links.size());
      Link l;
      // annotate 1 ns on every BEGIN_REQ; back-pressure: END_REQ 7 ns after BEGIN_REQ
      l.ini = std::make_unique<tb::PlainInitiator>((n + "_ini").c_str(), i, write_then_read(6), 3, sc_time(1, SC_NS));
      l.chk = std::make_unique<BaseProtocolChecker>((n + "_chk").c_str());
      l.mem = std::make_unique<tb::PlainMemory>((n + "_mem").c_str(), t, 4096, sc_time(20, SC_NS), sc_time(7, SC_NS));
      l.ini->socket.bind(l.chk->target_socket);
      l.chk->initiator_socket.bind(l.mem->socket);
      links.push_back(std::move(l));
    }
  sc_core::sc_start();
  for (size_t k = 0; k < links.size(); ++k) {
    const Link& l = links[k];
    INFO("link " << k);
    CHECK(l.chk->violations().empty());
    REQUIRE(l.ini->finished());
    CHECK(l.chk->transactions() == 12);
    CHECK(l.chk->completed() == 12);
    CHECK(l.chk->open() == 0);
    CHECK(l.ini->payloads_in_use() == 0);
    for (unsigned r = 0; r < 12; ++r) CHECK(l.ini->responses()[r].status == tlm::TLM_OK_RESPONSE);
    for (unsigned r = 6; r < 12; ++r) {
      const auto& resp = l.ini->responses()[r];
      CHECK(resp.data.at(0) == static_cast<unsigned char>(resp.address / 64 + 1));
      CHECK(resp.data.at(63) == static_cast<unsigned char>(resp.address / 64 + 1));
    }
  }
  // The styles really produced the sequences they name (link index = initiator * 5 + target).
  CHECK(links[0].chk->early_completions() == 12);
  CHECK(links[2].chk->end_req_updates() == 12);
  CHECK(links[4].chk->resp_before_end_req() == 12);
  CHECK(links[3].chk->end_resp_from_initiator() == 12);  // four-phase initiator, four-phase target
}

TEST_CASE("BaseProtocolChecker: payload rules at BEGIN_REQ", "[tlm][checker]") {
  Raw r;
  tlm::tlm_generic_payload a, b, c;
  r.well_formed(a);
  a.set_response_status(tlm::TLM_OK_RESPONSE);
  r.ini.fw(a, tlm::BEGIN_REQ);
  CHECK(has(r.chk.violations(), "not TLM_INCOMPLETE_RESPONSE"));
  r.tgt.fw = [](tlm::tlm_generic_payload& g, tlm::tlm_phase&, sc_time&) {
    g.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  };
  r.ini.fw(a, tlm::END_RESP);  // leave a's transaction: not in response phase, a violation too
  CHECK(has(r.chk.violations(), "END_RESP before BEGIN_RESP"));
  r.well_formed(b);
  b.set_data_ptr(nullptr);
  r.ini.fw(b, tlm::BEGIN_REQ);
  CHECK(has(r.chk.violations(), "null data pointer"));
  r.well_formed(c);
  c.set_streaming_width(0);
  unsigned char be[4] = {};
  c.set_byte_enable_ptr(be);
  c.set_byte_enable_length(0);
  r.ini.fw(c, tlm::BEGIN_REQ);
  CHECK(has(r.chk.violations(), "streaming width 0"));
  CHECK(has(r.chk.violations(), "byte enable length 0"));
}

TEST_CASE("BaseProtocolChecker: exclusion rules and a payload in two transactions", "[tlm][checker]") {
  Raw r;
  tlm::tlm_generic_payload a, b;
  r.well_formed(a);
  r.well_formed(b);
  r.ini.fw(a, tlm::BEGIN_REQ);  // target: TLM_ACCEPTED, END_REQ withheld
  CHECK(r.chk.violations().empty());
  r.ini.fw(b, tlm::BEGIN_REQ);
  CHECK(has(r.chk.violations(), "request exclusion rule"));
  const size_t before = r.chk.violations().size();
  r.ini.fw(a, tlm::BEGIN_REQ);
  CHECK(has(r.chk.violations(), "already in an open transaction"));
  CHECK(r.chk.violations().size() > before);
  // Responses: a and b both answered; b's BEGIN_RESP while a's response phase is open.
  tlm::tlm_phase p = tlm::BEGIN_RESP;
  sc_time t = sc_core::SC_ZERO_TIME;
  a.set_response_status(tlm::TLM_OK_RESPONSE);
  b.set_response_status(tlm::TLM_OK_RESPONSE);
  r.tgt.socket->nb_transport_bw(a, p, t);
  CHECK(!has(r.chk.violations(), "response exclusion rule"));
  p = tlm::BEGIN_RESP;
  r.tgt.socket->nb_transport_bw(b, p, t);
  CHECK(has(r.chk.violations(), "response exclusion rule"));
}

TEST_CASE("BaseProtocolChecker: return values, timing and attributes while open", "[tlm][checker]") {
  Raw r;
  tlm::tlm_generic_payload a, b, c;
  r.well_formed(a);
  // The target answers BEGIN_REQ TLM_UPDATED + END_REQ but moves the time back.
  r.tgt.fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase& p, sc_time& t) {
    p = tlm::END_REQ;
    t = sc_core::SC_ZERO_TIME;
    return tlm::TLM_UPDATED;
  };
  r.ini.fw(a, tlm::BEGIN_REQ, sc_time(10, SC_NS));
  CHECK(has(r.chk.violations(), "before the transaction's previous phase"));
  // Answered with the status still incomplete.
  tlm::tlm_phase p = tlm::BEGIN_RESP;
  sc_time t(10, SC_NS);
  r.tgt.socket->nb_transport_bw(a, p, t);
  CHECK(has(r.chk.violations(), "still TLM_INCOMPLETE_RESPONSE"));
  // The initiator changes the address before END_REQ... then END_RESP answered TLM_ACCEPTED.
  a.set_address(0x80);
  r.tgt.fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&) { return tlm::TLM_ACCEPTED; };
  r.ini.fw(a, tlm::END_RESP, sc_time(10, SC_NS));
  CHECK(has(r.chk.violations(), "changed while the transaction is open"));
  CHECK(has(r.chk.violations(), "END_RESP must be answered TLM_COMPLETED"));
  // TLM_ACCEPTED with the phase changed; END_REQ on the forward path.
  r.well_formed(b);
  r.tgt.fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase& p2, sc_time&) {
    p2 = tlm::END_REQ;
    return tlm::TLM_ACCEPTED;
  };
  r.ini.fw(b, tlm::BEGIN_REQ);
  CHECK(has(r.chk.violations(), "TLM_ACCEPTED with the phase changed"));
  r.well_formed(c);
  r.ini.fw(c, tlm::END_REQ);
  CHECK(has(r.chk.violations(), "END_REQ on the forward path"));
}

TEST_CASE("BaseProtocolChecker: fatal by default, naming the rule", "[tlm][checker]") {
  RawInitiator ini("ini");
  BaseProtocolChecker chk("chk");
  RawTarget tgt("tgt");
  ini.socket.bind(chk.target_socket);
  chk.initiator_socket.bind(tgt.socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  tlm::tlm_generic_payload a;
  a.set_command(tlm::TLM_WRITE_COMMAND);
  a.set_data_length(4);
  a.set_streaming_width(4);
  REQUIRE_THROWS_WITH(ini.fw(a, tlm::BEGIN_REQ), Catch::Contains("chk") && Catch::Contains("null data pointer"));
}
