// custom_platform: a two-GPU platform composed in sc_main (docs/composing.md). Each GpuBlock has
// 8 SMs and 2 memory partitions on a crossbar with a boundary node; a request link and a reply
// link (64 B/cycle, 31 cycles) join the boundaries; pages live in the GPU that touched them first;
// CTAs run in one contiguous group per GPU. Prints the summary and what crossed the links.
#include <cstdio>

#include "common/clock_domain.h"
#include "common/command_line.h"
#include "common/first_touch_page_mapper.h"
#include "gpu/gpu_block.h"
#include "gpu/platform.h"
#include "noc/bandwidth_link.h"
#include "workload/workload_factory.h"

[[maybe_unused]] static const bool no_banner = gpusc::cli::no_systemc_banner();

int sc_main(int, char*[]) {
  using namespace gpusc;
  cli::plain_reports("custom_platform");
  ClockDomain core("core_clk", 1000), noc_clk("noc_clk", 1000), dram("dram_clk", 924);
  FirstTouchPageMapper pages({{0, 1}, {2, 3}}, 4096, 256);  // GPU b owns partitions 2b, 2b + 1
  NodeNumbering ids;
  McStageRegistry no_stages;

  GpuBlock::Params bp;  // 8 SMs + 2 MCs + the boundary on an 11-port crossbar
  bp.sms = 8, bp.mcs = 2, bp.boundary = true;
  bp.noc.topology = "crossbar", bp.noc.k = bp.nodes();
  GpuBlock gpu0("gpu0", bp, {{core, noc_clk, dram}, pages, ids, no_stages, 0});
  GpuBlock gpu1("gpu1", bp, {{core, noc_clk, dram}, pages, ids, no_stages, 1});

  noc::BandwidthLink::Params lp;
  lp.bytes_per_cycle = 64;
  noc::BandwidthLink req("req_link", lp, core), rep("rep_link", lp, core);
  for (auto [link, c] : {std::pair{&req, GpuBlock::kRequest}, std::pair{&rep, GpuBlock::kReply}}) {
    gpu0.out(c).bind(link->a_in);
    link->a_out.bind(gpu0.in(c));
    gpu1.out(c).bind(link->b_in);
    link->b_out.bind(gpu1.in(c));
  }

  auto workload = make_workload("spmv", {{"size", "small"}}, 1);
  CtaScheduler::Params cta;
  cta.policy = "contiguous-groups";
  Platform platform(core, *workload, {&gpu0, &gpu1}, cta);
  const bool finished = platform.run(10000000);

  const json s = platform.summary();
  std::printf("cycles %llu, IPC %.2f, AMAT %.1f, L1 hit rate %.3f, L2 hit rate %.3f\n",
              static_cast<unsigned long long>(s.at("cycles").get<uint64_t>()), s.at("ipc").get<double>(),
              s.at("amat").get<double>(), s.at("l1_hit_rate").get<double>(), s.at("l2_hit_rate").get<double>());
  for (auto* link : {&req, &rep})
    std::printf("%s: %llu messages (%llu B) gpu0->gpu1, %llu (%llu B) gpu1->gpu0\n", link->name(),
                static_cast<unsigned long long>(link->delivered(noc::BandwidthLink::kAtoB)),
                static_cast<unsigned long long>(link->bytes(noc::BandwidthLink::kAtoB)),
                static_cast<unsigned long long>(link->delivered(noc::BandwidthLink::kBtoA)),
                static_cast<unsigned long long>(link->bytes(noc::BandwidthLink::kBtoA)));
  std::printf("%s\n", finished ? "finished" : "stopped before the workload finished");
  return finished ? 0 : 3;
}
