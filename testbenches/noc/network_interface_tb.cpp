// NetworkInterface tests: packetization (flits per message kind and width), the flit count
// seen end to end, back-pressure from a stalled ejection target all the way to the source,
// and bad destinations.
#include <catch2/catch.hpp>

#include "noc_fixture.h"

using namespace gpusc;
using gpusc::tb::mesh_params;
using gpusc::tb::NocBench;

namespace {
noc::Network::Params with_ni(unsigned flit_bytes, unsigned header_bytes) {
  auto p = mesh_params(2, 1, 3, 1, 8);
  p.ni.flit_bytes = flit_bytes;
  p.ni.header_bytes = header_bytes;
  return p;
}

// Flits the NI of node 0 makes of a message of `kind`, reply or request, carrying `bytes`.
unsigned flits_of(NocBench& b, MemKind kind, bool reply, unsigned bytes) {
  auto& gp = b.pool.acquire();
  MemExt& e = *gp.get_extension<MemExt>();
  e.kind = kind;
  e.is_reply = reply;
  gp.set_data_length(bytes);
  const unsigned n = b.net->ni(0).packet_flits(gp);
  gp.release();
  return n;
}
}  // namespace

TEST_CASE("NI: packet length in flits per message kind", "[ni][packetize]") {
  // flits = ceil((header + data) / flit_bytes), data = payload length only for messages that
  // carry data: write/atomic requests and read/probe replies.
  NocBench f16("f16", with_ni(16, 8)), f32("f32", with_ni(32, 8)), h0("h0", with_ni(16, 0));
  // 16 B flits, 8 B header.
  CHECK(flits_of(f16, MemKind::Read, false, 128) == 1);        // read request: header only
  CHECK(flits_of(f16, MemKind::Read, true, 128) == 9);         // (8 + 128) / 16 = 8.5 -> 9
  CHECK(flits_of(f16, MemKind::Read, true, 32) == 3);          // (8 + 32) / 16 = 2.5 -> 3
  CHECK(flits_of(f16, MemKind::Write, false, 128) == 9);       // write request carries data
  CHECK(flits_of(f16, MemKind::Write, true, 128) == 1);        // write ack: header only
  CHECK(flits_of(f16, MemKind::Atomic, false, 4) == 1);        // (8 + 4) / 16 -> 1
  CHECK(flits_of(f16, MemKind::Atomic, false, 32) == 3);       // (8 + 32) / 16 -> 3
  CHECK(flits_of(f16, MemKind::Probe, false, 128) == 1);       // probe: control only
  CHECK(flits_of(f16, MemKind::ProbeReply, true, 128) == 9);   // probe reply with the line
  CHECK(flits_of(f16, MemKind::Nack, true, 128) == 1);         // NACK: control only
  // 32 B flits, 8 B header: (8 + 128) / 32 = 4.25 -> 5.
  CHECK(flits_of(f32, MemKind::Read, true, 128) == 5);
  CHECK(flits_of(f32, MemKind::Write, false, 128) == 5);
  CHECK(flits_of(f32, MemKind::Read, false, 128) == 1);
  CHECK(flits_of(f32, MemKind::Write, false, 24) == 1);        // exactly 32 B: one flit
  CHECK(flits_of(f32, MemKind::Write, false, 25) == 2);        // 33 B: two
  // No header: 128 B of data in 16 B flits is 8; a message with no bytes still takes 1 flit.
  CHECK(flits_of(h0, MemKind::Read, true, 128) == 8);
  CHECK(flits_of(h0, MemKind::Read, false, 128) == 1);
  // A payload without MemExt carries no data in the NI's view: one flit.
  tlm::tlm_generic_payload bare;
  bare.set_data_length(128);
  CHECK(f16.net->ni(0).packet_flits(bare) == 1);
}

TEST_CASE("NI: MemExt wire_bytes, when set, is the data size on the wire", "[ni][packetize]") {
  // A compressed reply keeps its 128 B plain line in the buffer (data_length) and states its
  // encoded size in wire_bytes: 16 B flits, 8 B header.
  NocBench b("b", with_ni(16, 8));
  auto& gp = b.pool.acquire();
  MemExt& e = *gp.get_extension<MemExt>();
  e.kind = MemKind::Read;
  e.is_reply = true;
  gp.set_data_length(128);
  CHECK(b.net->ni(0).packet_flits(gp) == 9);   // (8 + 128) / 16 -> 9
  e.wire_bytes = 9;                            // e.g. a 65-bit DPC encoding
  CHECK(b.net->ni(0).packet_flits(gp) == 2);   // (8 + 9) / 16 -> 2
  e.wire_bytes = 24;
  CHECK(b.net->ni(0).packet_flits(gp) == 2);   // exactly 32 B
  e.wire_bytes = 25;
  CHECK(b.net->ni(0).packet_flits(gp) == 3);
  e.is_reply = false;                          // a read request carries no data either way
  CHECK(b.net->ni(0).packet_flits(gp) == 1);
  gp.release();
}

TEST_CASE("NI: the packet length shows end to end with the payload intact", "[ni][packetize]") {
  // 2x1 mesh, pipeline 3, node 0 -> node 1 crosses H = 2 routers: latency = 4*2 + 2 + (F - 1)
  // with F from the packetization above (16 B flits, 8 B header): read request 1, read reply
  // 128 B 9, write request 128 B 9, atomic 32 B 3.
  NocBench b("b", with_ni(16, 8));
  struct Msg {
    MemKind kind;
    bool reply;
    unsigned bytes, flits;
    uint64_t t0;
  };
  const std::vector<Msg> msgs = {{MemKind::Read, false, 128, 1, 10},
                                 {MemKind::Read, true, 128, 9, 60},
                                 {MemKind::Write, false, 128, 9, 110},
                                 {MemKind::Atomic, false, 32, 3, 160}};
  for (const Msg& m : msgs)
    b.src[0].at(m.t0, [m](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = m.kind;
      e.is_reply = m.reply;
      e.src = 0;
      e.dst = 1;
      e.pc = m.t0;
      gp.set_address(0x1000 + m.t0);
      gp.set_command(m.kind == MemKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
      gp.set_data_length(m.bytes);
    });
  b.run(250);
  const auto& a = b.dst[1].arrivals();
  REQUIRE(a.size() == msgs.size());
  for (size_t i = 0; i < msgs.size(); ++i) {
    INFO("message " << i);
    CHECK(a[i].ext.pc == msgs[i].t0);
    CHECK(a[i].cycle - msgs[i].t0 == 4 * 2 + 2 + msgs[i].flits - 1);
    CHECK(a[i].ext.kind == msgs[i].kind);
    CHECK(a[i].ext.is_reply == msgs[i].reply);
    CHECK(a[i].length == msgs[i].bytes);
    CHECK(a[i].address == 0x1000 + msgs[i].t0);
  }
  CHECK(b.dst[0].arrivals().empty());
  CHECK(b.net->packets_in_flight() == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("NI: a stalled ejection target back-pressures the source which resumes without loss",
          "[ni][backpressure]") {
  // 2x1 mesh, one VC of D flits, 1-flit packets, 40 messages from node 0 to node 1 offered as
  // fast as they are taken; node 1's target (queue Q) consumes nothing before cycle S.
  // Once everything has backed up, each stage holds what it can, nothing more:
  //   target queue Q + 1 message the NI handed over but the target withholds (END_REQ)
  //   + NI 1 ejection queue E + NI 1 ejection VC buffer D + router 1 west input D
  //   + router 0 local input D + NI 0 injection queue I.
  // So exactly Q + 1 + E + 3D + I messages were taken from the source; the next one is offered
  // but withheld (source busy) until the target resumes, and the rest wait behind it.
  struct Case {
    unsigned depth, inject_q, eject_q, target_q;
  };
  const Case cases[2] = {{2, 4, 4, 4}, {3, 2, 1, 2}};
  const uint64_t S = 300, N = 40;
  std::vector<std::unique_ptr<NocBench>> b;
  for (const Case& c : cases) {
    auto p = mesh_params(2, 1, 3, 1, c.depth);
    p.ni.inject_queue = c.inject_q;
    p.ni.eject_queue = c.eject_q;
    b.push_back(std::make_unique<NocBench>(("b" + std::to_string(b.size())).c_str(), p, c.target_q));
    for (uint64_t j = 0; j < N; ++j) b.back()->send(0, 1, 10, 1, j);
    b.back()->dst[1].stall_until(S);
  }
  b[0]->run(S - 50);  // long enough to fill (under 100 cycles), before the target resumes
  for (size_t i = 0; i < 2; ++i) {
    const Case& c = cases[i];
    NocBench& x = *b[i];
    const uint64_t held = c.target_q + 1 + c.eject_q + 3 * c.depth + c.inject_q;
    INFO("depth " << c.depth << " inject " << c.inject_q << " eject " << c.eject_q << " target " << c.target_q);
    const auto& sent = x.src[0].sent();
    REQUIRE(sent.size() == held + 1);
    for (uint64_t j = 0; j < held; ++j) CHECK(sent[j].accepted < S);
    CHECK(sent[held].accepted == UINT64_MAX);  // offered, still withheld
    CHECK(x.src[0].out.busy());
    CHECK(x.net->ni(0).inject_backlog(0) == c.inject_q);
    CHECK(x.net->router(0).occupancy() == c.depth);
    CHECK(x.net->router(1).occupancy() == c.depth);
    CHECK(x.net->router(0).credits(noc::MeshDorRoute::kEast, 0) == 0);
    CHECK(x.net->router(1).credits(noc::MeshDorRoute::kLocal, 0) == 0);
    CHECK(x.net->ni(1).packets_ejected() == c.target_q + 1);
    CHECK(x.dst[1].occupancy() == c.target_q);
    CHECK(x.dst[1].arrivals().empty());
  }
  sc_core::sc_start(b[0]->clk.time_of(S + 400) - sc_core::sc_time_stamp());
  for (size_t i = 0; i < 2; ++i) {
    const Case& c = cases[i];
    NocBench& x = *b[i];
    const uint64_t held = c.target_q + 1 + c.eject_q + 3 * c.depth + c.inject_q;
    INFO("depth " << c.depth);
    const auto& sent = x.src[0].sent();
    REQUIRE(sent.size() == N);
    CHECK(sent[held].accepted > S);  // released only after the target resumed
    for (const auto& s : sent) CHECK(s.accepted != UINT64_MAX);
    // Everything arrived, exactly once and in order, after the stall.
    const auto& a = x.dst[1].arrivals();
    REQUIRE(a.size() == N);
    for (uint64_t j = 0; j < N; ++j) {
      CHECK(a[j].ext.pc == j);
      CHECK(a[j].consumed >= S);
    }
    CHECK(x.dst[1].occupancy() == 0);
    CHECK(x.net->packets_in_flight() == 0);
    CHECK(x.pool.in_use() == 0);
    for (unsigned r = 0; r < 2; ++r)
      for (unsigned port : tb::connected_out_ports(*x.net, r)) CHECK(x.net->router(r).credits(port, 0) == c.depth);
  }
}

TEST_CASE("NI: a message to a node outside the network is a clear error", "[ni][config]") {
  NocBench b("b", mesh_params(2, 2));
  b.send(0, 9, 5, 1);
  REQUIRE_THROWS_WITH(b.run(20), Catch::Contains("message to node 9 but the network has 4 nodes"));
}

TEST_CASE("NI: a destination beyond the largest network is a clear error and not memory corruption", "[ni][config]") {
  // Node ids beyond DestSet's 512-node capacity must be rejected before they are used.
  NocBench b("b", mesh_params(2, 2));
  b.send(0, 1000, 5, 1);
  REQUIRE_THROWS_WITH(b.run(20), Catch::Contains("message to node 1000 but the network has 4 nodes"));
}

TEST_CASE("NI: a multicast with a member behind the block's boundary is a clear error", "[ni][config][multicast]") {
  // A block of 4 nodes in a platform of 8 ids: ids 4..7 are another block's, reached through
  // boundary node 3. A multicast may not leave its block (docs/tlm.md: one payload in several
  // deliveries never reaches a standard link); one inside the block is delivered, once per member.
  NocBench ok("ok", mesh_params(2, 2)), bad("bad", mesh_params(2, 2));
  noc::NodeMap m;
  m.node = {0, 1, 2, 3, 3, 3, 3, 3};
  m.boundaries = {3};
  ok.net->set_node_map(m);
  bad.net->set_node_map(m);
  DestSet inside, across;
  inside.add(1), inside.add(2);
  across.add(1), across.add(5);
  ok.multicast(0, inside, 5, 1, 7);
  ok.run(40);
  CHECK(tb::arrival(ok, 1, 7) != UINT64_MAX);
  CHECK(tb::arrival(ok, 2, 7) != UINT64_MAX);
  bad.multicast(0, across, 50, 1, 8);
  REQUIRE_THROWS_WITH(bad.run(100), Catch::Contains("bad") && Catch::Contains("multicast to id 5") &&
                                        Catch::Contains("a multicast stays in its block"));
}

TEST_CASE("NI: a payload without MemExt is a clear error", "[ni][config]") {
  NocBench b("b", mesh_params(2, 2));
  // Offer a payload without the extension straight to NI 0's input socket.
  REQUIRE_THROWS_WITH(
      [&] {
        tlm::tlm_generic_payload bare;
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        b.net->ni(0).in[0].get_base_interface().nb_transport_fw(bare, ph, t);
      }(),
      Catch::Contains("has no gpusc::MemExt"));
}

TEST_CASE("NI: a packet takes the router's input VCs round-robin, so back-to-back packets do not queue in one",
          "[ni][vc]") {
  // 2x1 mesh, pipeline 4, 4 VCs; node 0 sends four 1-flit packets to itself at t0. The NI
  // injects one flit per cycle (usable in the router at t0+2 .. t0+5) into input VCs 0, 1, 2, 3
  // (round-robin over the VCs that no packet holds and that have a credit). Each then does RC,
  // VA and SA in consecutive cycles (SA t0+4 .. t0+7) and reaches the target 3 cycles after its
  // SA: t0+7 .. t0+10. Had all four taken the lowest free VC (VC0), each would wait for the one
  // in front to leave before its RC: SA at t0+4, 7, 10, 13.
  auto p = mesh_params(2, 1, 4, 4, 8);
  NocBench b("b", p);
  const uint64_t t0 = 10;
  for (unsigned j = 0; j < 4; ++j) b.send(0, 0, t0, 1, j);
  b.run(t0 + 40);
  const auto& a = b.dst[0].arrivals();
  REQUIRE(a.size() == 4);
  for (unsigned j = 0; j < 4; ++j) {
    INFO("packet " << j);
    CHECK(a[j].ext.pc == j);
    CHECK(a[j].cycle == t0 + 7 + j);
  }
}
