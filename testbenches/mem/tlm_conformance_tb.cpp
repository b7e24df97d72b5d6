// Conformance at a memory partition's two boundaries (issue 17, docs/tlm.md), a
// BaseProtocolChecker on each standard link:
//   third-party AT initiator --chk--> AtTargetBridge --> partition.in()   (the NI's TLM side)
//                                     AtTargetBridge <-- partition.out()
//   partition.memory_socket() --chk--> third-party AT memory                (memory = external)
// Every initiator style meets every memory style; data written through the front comes back
// through the front (memory values attached), L2 misses reach the third-party memory as
// partition-local addresses, and nothing is left open.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "common/address_map.h"
#include "common/at_target_bridge.h"
#include "common/base_protocol_checker.h"
#include "common/clock_domain.h"
#include "harness/third_party_tlm.h"
#include "mem/backing_store.h"
#include "mem/memory_partition.h"

using namespace gpusc;
using sc_core::SC_NS;
using sc_core::sc_time;
using IStyle = tb::PlainInitiator::Style;
using TStyle = tb::PlainMemory::Style;

namespace {

constexpr unsigned kParts = 2;  // the partition under test is partition 1 of 2 (local addresses differ)

// Writes of 32 B to 24 lines, then reads of them (the writes stay in the small L2 or are written
// back; the reads miss for the lines evicted), then reads of 24 lines never touched (misses).
std::vector<tb::PlainInitiator::Request> script(const AddressMap& map) {
  std::vector<tb::PlainInitiator::Request> s;
  std::vector<uint64_t> lines;
  for (uint64_t a = 0; lines.size() < 48; a += 128)
    if (map.partition(a) == 1) lines.push_back(a);
  for (unsigned i = 0; i < 24; ++i)
    s.push_back({tlm::TLM_WRITE_COMMAND, lines[i] + 32, 32, static_cast<unsigned char>(i + 1)});
  for (unsigned i = 0; i < 24; ++i) s.push_back({tlm::TLM_READ_COMMAND, lines[i], 128});
  for (unsigned i = 24; i < 48; ++i) s.push_back({tlm::TLM_READ_COMMAND, lines[i], 128});
  return s;
}

struct Rig {
  std::unique_ptr<tb::PlainInitiator> ini;
  std::unique_ptr<BaseProtocolChecker> front_chk, mem_chk;
  std::unique_ptr<AtTargetBridge> front;
  std::unique_ptr<MemoryPartition> mc;
  std::unique_ptr<tb::PlainMemory> mem;
};

}  // namespace

TEST_CASE("TLM conformance: a memory partition between third-party initiators and memories of every style",
          "[tlm][conformance][partition]") {
  ClockDomain core("core", 1400.0), dram_clk("dram_clk", 924.0);
  AddressMap map(kParts);
  BackingStore store;
  MemoryPartition::Params p;
  p.memory = "external";
  p.l2.sets = 4;  // 4 sets x 8 ways x 128 B = 4 KB: write-backs and misses happen
  const std::vector<IStyle> is = {IStyle::FourPhase, IStyle::TwoPhase, IStyle::UpdatedEndResp};
  const std::vector<TStyle> ts = {TStyle::EarlyCompletion, TStyle::UpdatedBeginResp, TStyle::UpdatedEndReq,
                                  TStyle::FourPhase, TStyle::RespEndsReq};
  std::vector<Rig> rigs;
  for (IStyle i : is)
    for (TStyle t : ts) {
      const std::string n = "r" + std::to_string(rigs.size());
      Rig r;
      r.ini = std::make_unique<tb::PlainInitiator>((n + "_ini").c_str(), i, script(map), 4, sc_time(1, SC_NS));
      r.front_chk = std::make_unique<BaseProtocolChecker>((n + "_front_chk").c_str());
      r.front = std::make_unique<AtTargetBridge>((n + "_front").c_str(), AtTargetBridge::Params{},
                                                 [](const tlm::tlm_generic_payload&, MemExt& e) {
                                                   e.src = 9;  // the initiator's node
                                                   e.dst = 1;  // this partition's node
                                                 });
      r.mc = std::make_unique<MemoryPartition>((n + "_mc").c_str(), p, core, dram_clk, 1, map);
      r.mem_chk = std::make_unique<BaseProtocolChecker>((n + "_mem_chk").c_str());
      // a plain DRAM of the user's kind: 1 MiB, 60 ns, END_REQ after 10 ns (back-pressure)
      r.mem = std::make_unique<tb::PlainMemory>((n + "_mem").c_str(), t, 1 << 20, sc_time(60, SC_NS),
                                                sc_time(10, SC_NS));
      r.ini->socket.bind(r.front_chk->target_socket);
      r.front_chk->initiator_socket.bind(r.front->socket);
      r.front->out.bind(r.mc->in());
      r.mc->out().bind(r.front->in);
      r.mc->memory_socket().bind(r.mem_chk->target_socket);
      r.mem_chk->initiator_socket.bind(r.mem->socket);
      r.mc->attach_values(store);  // one store: the partitions hold the same data for the same lines
      rigs.push_back(std::move(r));
    }
  sc_core::sc_start(sc_time(200, sc_core::SC_US));
  for (size_t k = 0; k < rigs.size(); ++k) {
    const Rig& r = rigs[k];
    INFO("rig " << k << " (initiator style " << k / ts.size() << ", memory style " << k % ts.size() << ")");
    CHECK(r.front_chk->violations().empty());
    CHECK(r.mem_chk->violations().empty());
    REQUIRE(r.ini->finished());
    CHECK(r.ini->payloads_in_use() == 0);
    for (const auto& resp : r.ini->responses()) CHECK(resp.status == tlm::TLM_OK_RESPONSE);
    // The reads of written lines return the written bytes (32..63) and zeros elsewhere.
    for (unsigned q = 24; q < 48; ++q) {
      const auto& resp = r.ini->responses()[q];
      REQUIRE(resp.data.size() == 128);
      CHECK(resp.data[31] == 0);
      CHECK(resp.data[32] == static_cast<unsigned char>(q - 24 + 1));
      CHECK(resp.data[63] == static_cast<unsigned char>(q - 24 + 1));
      CHECK(resp.data[64] == 0);
    }
    // Misses reached the memory, with partition-local addresses (the 48 lines span 2 x 48 x 128 B
    // of global space, 48 x 128 B of local space).
    CHECK(r.mem->reads() >= 24);
    CHECK(r.mem->max_address() <= 48 * 128);
    CHECK(r.mem_chk->completed() == r.mem_chk->transactions());
    CHECK(r.mc->memory_pending() == 0);
    CHECK(r.mc->idle());
    CHECK(r.front->inside() == 0);
  }
  CHECK(rigs[0].mem_chk->early_completions() > 0);
  CHECK(rigs[2].mem_chk->end_req_updates() > 0);
  CHECK(rigs[4].mem_chk->resp_before_end_req() > 0);
  CHECK(rigs[0].front_chk->end_resp_from_initiator() > 0);
}

TEST_CASE("TLM conformance: memory_socket() with a built-in memory model is an error", "[tlm][partition]") {
  ClockDomain core("core", 1400.0), dram_clk("dram_clk", 924.0);
  AddressMap map(1);
  MemoryPartition mc("mc", MemoryPartition::Params{}, core, dram_clk, 0, map);
  REQUIRE_THROWS_WITH(mc.memory_socket(), Catch::Contains("mc") && Catch::Contains("not \"external\""));
}
