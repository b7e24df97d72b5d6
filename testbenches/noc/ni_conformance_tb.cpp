// Conformance at a network interface's TLM side (issue 17, docs/tlm.md): the network used as a
// transport between third-party models, a BaseProtocolChecker on every standard link:
//   third-party AT initiator --chk--> AtTargetBridge --> ni(a).in[requests] ... network ...
//   ni(b).out[requests] --> AtInitiatorBridge --chk--> third-party AT memory
//   ni(b).in[replies] <-- AtInitiatorBridge (all_reply);  ni(a).out[replies] --> AtTargetBridge
// Five rigs on one 5x2 mesh (initiators on row 0, memories on row 1), each memory style once and
// the initiator styles in turn: writes reach the memory through the network, reads bring the
// written bytes back, every transaction completes, and nothing is left open or in flight.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "common/at_initiator_bridge.h"
#include "common/at_target_bridge.h"
#include "common/base_protocol_checker.h"
#include "common/clock_domain.h"
#include "harness/third_party_tlm.h"
#include "noc/network.h"

using namespace gpusc;
using sc_core::SC_NS;
using sc_core::sc_time;
using IStyle = tb::PlainInitiator::Style;
using TStyle = tb::PlainMemory::Style;

namespace {

constexpr unsigned kReq = 0, kRep = 1;  // virtual networks

// The NI ports a rig does not use: nothing may arrive at a closed output.
struct Closed : sc_core::sc_module {
  MsgIn in{"in", [this](tlm::tlm_generic_payload&) -> bool {
             FAIL(name() << ": a message reached a closed port");
             return true;
           }};
  MsgOut out{"out"};
  explicit Closed(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

struct Rig {
  std::unique_ptr<tb::PlainInitiator> ini;
  std::unique_ptr<BaseProtocolChecker> ini_chk, mem_chk;
  std::unique_ptr<AtTargetBridge> front;
  std::unique_ptr<AtInitiatorBridge> back;
  std::unique_ptr<tb::PlainMemory> mem;
  std::unique_ptr<Closed> at_ini, at_mem;
};

// 8 writes of 32 B (fill k + 1) at offset 32 of 8 lines, then a 128 B read of each.
std::vector<tb::PlainInitiator::Request> script(unsigned rig) {
  std::vector<tb::PlainInitiator::Request> s;
  const uint64_t base = 0x10000 * (rig + 1);
  for (unsigned k = 0; k < 8; ++k)
    s.push_back({tlm::TLM_WRITE_COMMAND, base + 128 * k + 32, 32, static_cast<unsigned char>(k + 1)});
  for (unsigned k = 0; k < 8; ++k) s.push_back({tlm::TLM_READ_COMMAND, base + 128 * k, 128});
  return s;
}

}  // namespace

TEST_CASE("NI conformance: third-party initiators and memories of every style across a network", "[tlm][ni]") {
  ClockDomain clk("clk", 1000);
  noc::Network::Params p;
  p.topology = "mesh", p.k = 5, p.m = 2;
  p.router.vnets = 2;
  p.router.vcs_per_vnet = 2;
  p.router.vc_depth = 4;  // shorter than a 9-flit read reply: wormhole packets span routers
  noc::Network net("net", p, clk);
  const std::vector<TStyle> ts = {TStyle::EarlyCompletion, TStyle::UpdatedBeginResp, TStyle::UpdatedEndReq,
                                  TStyle::FourPhase, TStyle::RespEndsReq};
  const std::vector<IStyle> is = {IStyle::FourPhase, IStyle::TwoPhase, IStyle::UpdatedEndResp};
  std::vector<Rig> rigs;
  for (unsigned r = 0; r < ts.size(); ++r) {
    const unsigned a = r, b = 5 + r;  // initiator node, memory node
    const std::string n = "r" + std::to_string(r);
    Rig g;
    g.ini = std::make_unique<tb::PlainInitiator>((n + "_ini").c_str(), is[r % is.size()], script(r), 4,
                                                 sc_time(1, SC_NS));
    g.ini_chk = std::make_unique<BaseProtocolChecker>((n + "_ini_chk").c_str());
    g.front = std::make_unique<AtTargetBridge>((n + "_front").c_str(), AtTargetBridge::Params{},
                                               [a, b](const tlm::tlm_generic_payload&, MemExt& e) {
                                                 e.src = a;
                                                 e.dst = b;
                                               });
    g.back = std::make_unique<AtInitiatorBridge>((n + "_back").c_str(), AtInitiatorBridge::Params{},
                                                 &AtInitiatorBridge::all_reply);
    g.mem_chk = std::make_unique<BaseProtocolChecker>((n + "_mem_chk").c_str());
    // 1 MiB, 40 ns, END_REQ after 6 ns (back-pressure on the network's ejection side)
    g.mem = std::make_unique<tb::PlainMemory>((n + "_mem").c_str(), ts[r], 1 << 20, sc_time(40, SC_NS),
                                              sc_time(6, SC_NS));
    g.at_ini = std::make_unique<Closed>((n + "_closed_a").c_str());
    g.at_mem = std::make_unique<Closed>((n + "_closed_b").c_str());
    g.ini->socket.bind(g.ini_chk->target_socket);
    g.ini_chk->initiator_socket.bind(g.front->socket);
    g.front->out.bind(net.ni(a).in[kReq]);
    net.ni(a).out[kRep].bind(g.front->in);
    net.ni(b).out[kReq].bind(g.back->in);
    g.back->out.bind(net.ni(b).in[kRep]);
    g.back->socket.bind(g.mem_chk->target_socket);
    g.mem_chk->initiator_socket.bind(g.mem->socket);
    net.ni(a).out[kReq].bind(g.at_ini->in);  // the initiator's node receives no requests...
    g.at_ini->out.bind(net.ni(a).in[kRep]);  // ...and sends no replies; the memory's the other way
    net.ni(b).out[kRep].bind(g.at_mem->in);
    g.at_mem->out.bind(net.ni(b).in[kReq]);
    rigs.push_back(std::move(g));
  }
  sc_core::sc_start(sc_time(20, sc_core::SC_US));
  for (unsigned r = 0; r < rigs.size(); ++r) {
    const Rig& g = rigs[r];
    INFO("rig " << r << " (memory style " << r << ", initiator style " << r % is.size() << ")");
    CHECK(g.ini_chk->violations().empty());
    CHECK(g.mem_chk->violations().empty());
    REQUIRE(g.ini->finished());
    CHECK(g.ini->payloads_in_use() == 0);
    CHECK(g.mem->writes() == 8);
    CHECK(g.mem->reads() == 8);
    CHECK(g.mem_chk->completed() == 16);
    for (const auto& resp : g.ini->responses()) {
      CHECK(resp.status == tlm::TLM_OK_RESPONSE);
      if (resp.address % 128) continue;  // a write (at offset 32)
      REQUIRE(resp.data.size() == 128);
      const unsigned line = static_cast<unsigned>((resp.address % 0x10000) / 128);
      CHECK(resp.data[31] == 0);
      CHECK(resp.data[32] == line + 1);
      CHECK(resp.data[63] == line + 1);
      CHECK(resp.data[64] == 0);
    }
    CHECK(g.front->inside() == 0);
    CHECK(g.back->open() == 0);
  }
  CHECK(net.packets_in_flight() == 0);
  CHECK(rigs[0].mem_chk->early_completions() > 0);
  CHECK(rigs[2].mem_chk->end_req_updates() > 0);
  CHECK(rigs[4].mem_chk->resp_before_end_req() > 0);
  CHECK(rigs[0].ini_chk->end_resp_from_initiator() > 0);
}
