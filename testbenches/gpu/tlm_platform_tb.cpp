// Platform runs with standard TLM-2.0 at the boundaries (issue 17, docs/tlm.md), a
// BaseProtocolChecker on every standard link:
//  - one GpuBlock whose memory partitions have memory = external, a plain third-party AT memory
//    (not a gpusc unit) bound to each partition's memory_socket(): the kernel finishes and every
//    L2 miss is a transaction on that memory;
//  - two GpuBlocks whose boundary ports are joined by standard AT links: out(kRequest) /
//    in(kReply) of one block through an AtInitiatorBridge, in(kRequest) / out(kReply) of the
//    other through an AtTargetBridge, so requests and replies between GPUs cross the base
//    protocol in both directions;
//  - five GpuBlocks whose boundary ports face third-party models of every style: a
//    PlainInitiator (4-phase, 2-phase, TLM_UPDATED + END_RESP in turn) reads and writes each
//    block's memory through in(kRequest) / out(kReply), and each block's requests for the other
//    blocks' partitions are answered by a PlainMemory (each target style once) behind
//    out(kRequest) / in(kReply), while the kernel runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "common/at_initiator_bridge.h"
#include "common/at_target_bridge.h"
#include "common/base_protocol_checker.h"
#include "common/fine_interleave_mapper.h"
#include "common/first_touch_page_mapper.h"
#include "gpu/gpu_block.h"
#include "gpu/node_numbering.h"
#include "gpu/platform.h"
#include "harness/third_party_tlm.h"
#include "mem/backing_store.h"
#include "workload/workload_factory.h"

using namespace gpusc;
using sc_core::SC_NS;
using sc_core::sc_time;

TEST_CASE("TLM platform: a plain third-party TLM memory as the DRAM of every memory partition", "[tlm][platform]") {
  ClockDomain core("core_clk", 1000), noc_clk("noc_clk", 1000), dram("dram_clk", 924);
  FineInterleaveMapper map(2, 256, "map");
  NodeNumbering ids;
  McStageRegistry no_stages;
  GpuBlock::Params bp;
  bp.sms = 8, bp.mcs = 2;
  bp.noc.topology = "crossbar", bp.noc.k = bp.nodes();
  bp.mc.memory = "external";
  GpuBlock gpu("gpu", bp, {{core, noc_clk, dram}, map, ids, no_stages, 0});
  std::vector<std::unique_ptr<BaseProtocolChecker>> chk;
  std::vector<std::unique_ptr<tb::PlainMemory>> mem;
  const tb::PlainMemory::Style styles[] = {tb::PlainMemory::Style::FourPhase, tb::PlainMemory::Style::UpdatedEndReq};
  for (unsigned i = 0; i < 2; ++i) {
    const std::string n = "ext" + std::to_string(i);
    chk.push_back(std::make_unique<BaseProtocolChecker>((n + "_chk").c_str()));
    // 4 GiB of partition-local space, 150 ns access, END_REQ after 4 ns
    mem.push_back(std::make_unique<tb::PlainMemory>((n + "_mem").c_str(), styles[i], 4ull << 30, sc_time(150, SC_NS),
                                                    sc_time(4, SC_NS)));
    gpu.mc(i).memory_socket().bind(chk[i]->target_socket);
    chk[i]->initiator_socket.bind(mem[i]->socket);
  }
  auto workload = make_workload("spmv", {{"size", "small"}}, 1);
  Platform platform(core, *workload, {&gpu}, CtaScheduler::Params{});
  REQUIRE(platform.run(20000000));
  CHECK(platform.summary().at("l2_hit_rate").get<double>() < 1.0);  // the summary needs no built-in DRAM
  const json stats = collect_stats()["stats"];
  for (unsigned i = 0; i < 2; ++i) {
    INFO("partition " << i);
    CHECK(chk[i]->violations().empty());
    CHECK(chk[i]->open() == 0);
    CHECK(gpu.mc(i).memory_pending() == 0);
    CHECK(mem[i]->reads() > 100);
    // Every fill the L2 asked for was a read transaction on the third-party memory.
    const std::string l2 = std::string(gpu.mc(i).l2().name()) + ".";
    CHECK(mem[i]->reads() == stats.at(l2 + "fetches").get<uint64_t>());
    CHECK(chk[i]->transactions() == mem[i]->reads() + mem[i]->writes());
  }
}

TEST_CASE("TLM platform: two GPUs joined at their boundary ports by standard AT links", "[tlm][platform]") {
  ClockDomain core("core_clk", 1000), noc_clk("noc_clk", 1000), dram("dram_clk", 924);
  FirstTouchPageMapper pages({{0, 1}, {2, 3}}, 4096, 256);
  NodeNumbering ids;
  McStageRegistry no_stages;
  GpuBlock::Params bp;
  bp.sms = 8, bp.mcs = 2, bp.boundary = true;
  bp.noc.topology = "crossbar", bp.noc.k = bp.nodes();
  GpuBlock gpu0("gpu0", bp, {{core, noc_clk, dram}, pages, ids, no_stages, 0});
  GpuBlock gpu1("gpu1", bp, {{core, noc_clk, dram}, pages, ids, no_stages, 1});
  struct Way {
    std::unique_ptr<AtInitiatorBridge> out;
    std::unique_ptr<BaseProtocolChecker> chk;
    std::unique_ptr<AtTargetBridge> in;
  };
  std::vector<Way> ways;
  for (auto [from, to] : {std::pair{&gpu0, &gpu1}, std::pair{&gpu1, &gpu0}}) {
    const std::string n = std::string(from->name()) + "_to_" + to->name();
    Way w;
    w.out = std::make_unique<AtInitiatorBridge>((n + "_out").c_str(), AtInitiatorBridge::Params{},
                                                &AtInitiatorBridge::all_reply);
    w.chk = std::make_unique<BaseProtocolChecker>((n + "_chk").c_str());
    // gpusc payloads carry MemExt: the target bridge keeps its routing, so route is never asked
    w.in = std::make_unique<AtTargetBridge>((n + "_in").c_str(), AtTargetBridge::Params{},
                                            [](const tlm::tlm_generic_payload&, MemExt&) {
                                              FAIL("route asked for a payload with a MemExt");
                                            });
    from->out(GpuBlock::kRequest).bind(w.out->in);
    w.out->out.bind(from->in(GpuBlock::kReply));
    w.out->socket.bind(w.chk->target_socket);
    w.chk->initiator_socket.bind(w.in->socket);
    w.in->out.bind(to->in(GpuBlock::kRequest));
    to->out(GpuBlock::kReply).bind(w.in->in);
    ways.push_back(std::move(w));
  }
  auto workload = make_workload("spmv", {{"size", "small"}}, 1);
  CtaScheduler::Params cta;
  cta.policy = "contiguous-groups";
  Platform platform(core, *workload, {&gpu0, &gpu1}, cta);
  REQUIRE(platform.run(20000000));
  for (const Way& w : ways) {
    INFO(w.chk->name());
    CHECK(w.chk->violations().empty());
    CHECK(w.chk->transactions() > 0);  // requests really crossed between the GPUs
    CHECK(w.chk->transactions() == w.out->transactions());
    CHECK(w.chk->completed() == w.chk->transactions());
    CHECK(w.out->open() == 0);
    CHECK(w.in->inside() == 0);
  }
}

TEST_CASE("TLM platform: third-party initiators and memories of every style at GPU boundary ports",
          "[tlm][platform]") {
  using IStyle = tb::PlainInitiator::Style;
  using TStyle = tb::PlainMemory::Style;
  const std::vector<TStyle> ts = {TStyle::EarlyCompletion, TStyle::UpdatedBeginResp, TStyle::UpdatedEndReq,
                                  TStyle::FourPhase, TStyle::RespEndsReq};
  const std::vector<IStyle> is = {IStyle::FourPhase, IStyle::TwoPhase, IStyle::UpdatedEndResp};
  constexpr unsigned kBlocks = 5;
  ClockDomain core("core_clk", 1000), noc_clk("noc_clk", 1000), dram("dram_clk", 924);
  FineInterleaveMapper map(kBlocks, 256);  // block b owns partition b
  NodeNumbering ids;
  McStageRegistry no_stages;
  GpuBlock::Params bp;
  bp.sms = 2, bp.mcs = 1, bp.boundary = true;
  bp.noc.topology = "crossbar", bp.noc.k = bp.nodes();
  struct Side {
    std::unique_ptr<GpuBlock> gpu;
    std::unique_ptr<tb::PlainInitiator> ini;  // a third-party agent using this GPU's memory
    std::unique_ptr<BaseProtocolChecker> ini_chk, mem_chk;
    std::unique_ptr<AtTargetBridge> front;
    std::unique_ptr<AtInitiatorBridge> back;
    std::unique_ptr<tb::PlainMemory> mem;     // third-party memory answering this GPU's remote reads
    std::vector<uint64_t> lines;              // the lines ini writes, then reads
  };
  std::vector<Side> sides(kBlocks);
  for (unsigned b = 0; b < kBlocks; ++b)
    sides[b].gpu = std::make_unique<GpuBlock>(("gpu" + std::to_string(b)).c_str(), bp,
                                              GpuBlock::Context{{core, noc_clk, dram}, map, ids, no_stages, b});
  const unsigned agents = ids.add_block(kBlocks);  // platform ids of the third-party initiators
  BackingStore store;
  for (unsigned b = 0; b < kBlocks; ++b) {
    Side& x = sides[b];
    const std::string n = "side" + std::to_string(b);
    // 8 writes of 32 B (fill k + 1) at offset 32 of 8 lines of partition b, then a read of each.
    std::vector<tb::PlainInitiator::Request> script;
    std::vector<uint64_t>& lines = x.lines;
    for (uint64_t a = 1ull << 32; lines.size() < 8; a += 128)
      if (map.partition(a) == b) lines.push_back(a);
    for (unsigned k = 0; k < 8; ++k)
      script.push_back({tlm::TLM_WRITE_COMMAND, lines[k] + 32, 32, static_cast<unsigned char>(k + 1)});
    for (unsigned k = 0; k < 8; ++k) script.push_back({tlm::TLM_READ_COMMAND, lines[k], 128});
    x.ini = std::make_unique<tb::PlainInitiator>((n + "_ini").c_str(), is[b % is.size()], script, 4,
                                                 sc_time(1, SC_NS));
    x.ini_chk = std::make_unique<BaseProtocolChecker>((n + "_ini_chk").c_str());
    x.front = std::make_unique<AtTargetBridge>(
        (n + "_front").c_str(), AtTargetBridge::Params{},
        [&ids, agent = agents + b, b](const tlm::tlm_generic_payload&, MemExt& e) {
          e.src = agent;
          e.dst = ids.partition_node(b, "test");
        });
    x.back = std::make_unique<AtInitiatorBridge>((n + "_back").c_str(), AtInitiatorBridge::Params{},
                                                 &AtInitiatorBridge::all_reply);
    x.mem_chk = std::make_unique<BaseProtocolChecker>((n + "_mem_chk").c_str());
    x.mem = std::make_unique<tb::PlainMemory>((n + "_mem").c_str(), ts[b], 1ull << 34, sc_time(200, SC_NS),
                                              sc_time(5, SC_NS));
    x.ini->socket.bind(x.ini_chk->target_socket);
    x.ini_chk->initiator_socket.bind(x.front->socket);
    x.front->out.bind(x.gpu->in(GpuBlock::kRequest));
    x.gpu->out(GpuBlock::kReply).bind(x.front->in);
    x.gpu->out(GpuBlock::kRequest).bind(x.back->in);
    x.back->out.bind(x.gpu->in(GpuBlock::kReply));
    x.back->socket.bind(x.mem_chk->target_socket);
    x.mem_chk->initiator_socket.bind(x.mem->socket);
    x.gpu->attach_values(store);  // the agents' writes must read back
  }
  auto workload = make_workload("spmv", {{"size", "small"}}, 1);
  std::vector<GpuBlock*> blocks;
  for (Side& x : sides) blocks.push_back(x.gpu.get());
  Platform platform(core, *workload, blocks, CtaScheduler::Params{});
  REQUIRE(platform.run(20000000));
  for (unsigned b = 0; b < kBlocks; ++b) {
    const Side& x = sides[b];
    INFO("block " << b << " (initiator style " << b % is.size() << ", memory style " << b << ")");
    CHECK(x.ini_chk->violations().empty());
    CHECK(x.mem_chk->violations().empty());
    REQUIRE(x.ini->finished());
    CHECK(x.ini->payloads_in_use() == 0);
    for (const auto& r : x.ini->responses()) {
      CHECK(r.status == tlm::TLM_OK_RESPONSE);
      if (r.address % 128) continue;  // a write
      REQUIRE(r.data.size() == 128);
      const auto k = std::find(x.lines.begin(), x.lines.end(), r.address) - x.lines.begin();
      REQUIRE(k < 8);
      CHECK(r.data[31] == 0);
      CHECK(r.data[32] == k + 1);  // what the agent wrote, read back through the GPU's L2
      CHECK(r.data[63] == k + 1);
      CHECK(r.data[64] == 0);
    }
    CHECK(x.mem->reads() > 0);  // the GPU's requests for other partitions crossed its boundary
    CHECK(x.mem_chk->completed() == x.mem_chk->transactions());
    CHECK(x.back->transactions() == x.mem_chk->transactions());
    CHECK(x.back->open() == 0);
    CHECK(x.front->inside() == 0);
  }
  CHECK(sides[0].mem_chk->early_completions() > 0);
  CHECK(sides[2].mem_chk->end_req_updates() > 0);
  CHECK(sides[4].mem_chk->resp_before_end_req() > 0);
  CHECK(sides[0].ini_chk->end_resp_from_initiator() > 0);
}
