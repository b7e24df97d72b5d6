// multi_gpu: runs one workload on the multi-GPU platform of paper 004 (DCA baseline) and prints
// the paper-style summary with the fabric's figures. Thin command line over MultiGpu (DESIGN §6)
// and the platforms' shared run_main (platforms/run_options.h); run with --help.
#include "common/command_line.h"
#include "platforms/multi_gpu/multi_gpu.h"
#include "platforms/multi_gpu/presets.h"
#include "platforms/run_options.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsageTail = R"(
Unified memory and CTA scheduling (defaults: distributed pages, contiguous groups):
  --set page_map.kind=interleave      page p on GPU p mod gpus; or first-touch; distributed
                                      (default) splits every array into one run per GPU
  --set cta.policy=round-robin        or greedy; contiguous-groups (MGPUSim's partition) default
DUALOPT (paper 004 §4), overlays on any preset:
  --preset dca4+coalescing            remote reads bypass the L1, mask-aware MSHRs, fine-grained
                                      link transfer, RDMA coalescer / de-coalescer
  --preset dca4+caching               1.5 MB RDMA cache of remote data per GPU, L2 0.5 MB
  --preset dca4+dualopt               both built; the decision engine turns one on (summary:
                                      dualopt_decision and its window's statistics)
  remote_read_latency: SM issue to reply of reads to other GPUs' pages (L1 hits included).
IPC is thread instructions per core cycle; latencies are core cycles; fabric bytes are link
bytes (headers and flit rounding included), each message counted once (GPU to switch).
)";

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace gpusc;
  const cli::Program prog{"multi_gpu", "usage: multi_gpu [options]\n", kUsageTail, "dca4",
                          [] { return multi_gpu::listing(); }};
  return cli::run_main<MultiGpu>(argc, argv, prog, multi_gpu::preset, [](const MultiGpu::Params& p, Workload& w) {
    return std::make_unique<MultiGpu>(p, w);
  });
}
