// mcm_gpu: runs one workload on paper 003's MCM-GPU platform and prints the summary (cycles,
// IPC, latencies, inter-GPM traffic, L1.5 figures). Thin command line over McmGpu and the
// platforms' shared run_main (platforms/run_options.h); run with --help.
#include "common/command_line.h"
#include "platforms/mcm_gpu/mcm_gpu.h"
#include "platforms/mcm_gpu/presets.h"
#include "platforms/run_options.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsageTail = R"(
Mechanisms (paper 003 §5) as overlays: l15 / l15_8mb / l15_32mb (remote-only L1.5), ds
(distributed CTA scheduling), ft (first-touch pages), opt (all three, 8 MB L1.5 + 8 MB L2).
IPC is thread instructions per core cycle; latencies are core cycles; inter-GPM bytes count
every link a message crosses.
)";

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace gpusc;
  const cli::Program prog{"mcm_gpu", "usage: mcm_gpu [options]\n", kUsageTail, "mcm_baseline",
                          [] { return mcm_gpu::listing(); }};
  return cli::run_main<McmGpu>(argc, argv, prog, mcm_gpu::preset, [](const McmGpu::Params& p, Workload& w) {
    return std::make_unique<McmGpu>("mcm", p, w);
  });
}
