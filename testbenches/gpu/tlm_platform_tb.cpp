// Platform runs with standard TLM-2.0 at the boundaries (issue 17, docs/tlm.md), a
// BaseProtocolChecker on every standard link:
//  - one GpuBlock whose memory partitions have memory = external, a plain third-party AT memory
//    (not a gpusc unit) bound to each partition's memory_socket(): the kernel finishes and every
//    L2 miss is a transaction on that memory;
//  - two GpuBlocks whose boundary ports are joined by standard AT links: out(kRequest) /
//    in(kReply) of one block through an AtInitiatorBridge, in(kRequest) / out(kReply) of the
//    other through an AtTargetBridge, so requests and replies between GPUs cross the base
//    protocol in both directions.
#include <catch2/catch.hpp>

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
