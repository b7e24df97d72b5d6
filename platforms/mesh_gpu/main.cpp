// mesh_gpu: runs one workload on the mesh-GPU platform and prints the paper-style summary.
// Thin command line over MeshGpu (DESIGN §6) and the platforms' shared run_main
// (platforms/run_options.h); run with --help.
#include "common/command_line.h"
#include "platforms/mesh_gpu/mesh_gpu.h"
#include "platforms/mesh_gpu/presets.h"
#include "platforms/run_options.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsageTail = R"(
Memory placement and CTA scheduling (defaults: one block, fine-interleave, round-robin):
  --set blocks=N                      consecutive SMs and MCs form N blocks
  --set address_map.kind=first-touch  a page lives in the block that touched it first
                                      (address_map.page_bytes, 4096); else fine-interleave
  --set address_map.hash=xor          chunk -> partition XOR-folded with the higher address
                                      bits (power-of-two strides spread); default none
  --set cta.policy=contiguous-groups  one contiguous group of CTA ids per block; or greedy
                                      (lowest SM with room first), round-robin
IPC is thread instructions per core cycle (GPGPU-Sim's definition); latencies are core cycles.
)";

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace gpusc;
  const cli::Program prog{"mesh_gpu", "usage: mesh_gpu [options]\n", kUsageTail, "ics8x8",
                          [] { return mesh_gpu::listing(); }};
  return cli::run_main<MeshGpu>(argc, argv, prog, mesh_gpu::preset, [](const MeshGpu::Params& p, Workload& w) {
    return std::make_unique<MeshGpu>("gpu", p, w);
  });
}
