// mesh_gpu: runs one workload on the mesh-GPU platform and prints the paper-style summary.
// Thin command line over MeshGpu (DESIGN §6); run with --help.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <systemc>

#include "common/command_line.h"
#include "common/stats.h"
#include "common/trace.h"
#include "platforms/mesh_gpu/mesh_gpu.h"
#include "platforms/mesh_gpu/presets.h"
#include "platforms/platform_cli.h"
#include "workload/workload_factory.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsage = R"(usage: mesh_gpu [options]
  --preset NAME[+OVERLAY...]  base configuration and overlays, merged in order (ics8x8);
                              e.g. ics8x8+pcu+xy-yx. --list shows them
  --config FILE               JSON merged over the preset: platform keys, and optionally
                              "workload": {"name": ..., "params": {...}, "seed": N}
  --kernel NAME               workload to run (bfs, gemm, ...; --list shows them)
  --set KEY=VALUE             override one key after preset and config, e.g.
                              --set l1.sets=64 --set noc.routing=xy-yx --set workload.params.n=4096
                              (repeatable); --set workload.params.size=small runs the kernel's
                              small input (tests, demos) instead of its default one
                              (docs/workloads.md)
  --seed S                    workload seed (1)
  --max-cycles N              stop after N core cycles even if the workload is not done (20000000)
  --out FILE                  write config, summary and all stats as JSON
  --trace FILE                write a Perfetto/Chrome transaction trace
  --list                      list presets, overlays and workloads
  --quiet                     no summary table
Memory placement and CTA scheduling (defaults: one block, fine-interleave, round-robin):
  --set blocks=N                      consecutive SMs and MCs form N blocks
  --set address_map.kind=first-touch  a page lives in the block that touched it first
                                      (address_map.page_bytes, 4096); else fine-interleave
  --set cta.policy=contiguous-groups  one contiguous group of CTA ids per block; or greedy
                                      (lowest SM with room first), round-robin
IPC is thread instructions per core cycle (GPGPU-Sim's definition); latencies are core cycles.
)";

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace gpusc;
  cli::plain_reports("mesh_gpu");
  const cli::Options o = cli::parse_options(argc, argv, "mesh_gpu", kUsage, "ics8x8", mesh_gpu::listing);
  try {
    json cfg = mesh_gpu::preset(o.preset);
    if (!o.config.empty()) cfg.merge_patch(load_json_file(o.config));
    if (!o.kernel.empty()) cfg["workload"]["name"] = o.kernel;
    if (o.seed_given) cfg["workload"]["seed"] = o.seed;
    for (const auto& s : o.sets) apply_override(cfg, s);
    const cli::WorkloadChoice wl = cli::take_workload(cfg, "mesh_gpu", kUsage);
    const std::string& kname = wl.name;
    const json& kparams = wl.params;
    const uint64_t seed = wl.seed;

    const auto p = params_from_json<MeshGpu::Params>(cfg, "");
    auto workload = make_workload(kname, kparams, seed);
    MeshGpu gpu("gpu", p, *workload);
    std::unique_ptr<TraceWriter> trace;
    if (!o.trace.empty()) {
      trace = std::make_unique<TraceWriter>(o.trace);
      attach_trace(trace.get());
    }
    const auto t0 = std::chrono::steady_clock::now();
    const bool finished = gpu.run(o.max_cycles);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    json summary = gpu.summary();
    summary["workload"] = workload->name();
    summary["footprint_bytes"] = workload->address_space().bytes();
    summary["preset"] = o.preset;
    summary["finished"] = finished;
    summary["wall_seconds"] = wall;
    if (!o.quiet) cli::print_summary(summary, gpu.mechanism_summary());
    if (!finished)
      std::cerr << "mesh_gpu: stopped at --max-cycles " << o.max_cycles << " before the workload finished\n";
    if (!o.out.empty()) {
      json out = collect_stats();
      out["config"] = params_to_json(gpu.params());  // with the stages' effective parameters
      out["workload"] = {{"name", kname}, {"params", workload_effective_params(kname, kparams)}, {"seed", seed}};
      out["summary"] = summary;
      write_json_file(o.out, out);
    }
    return finished ? 0 : 3;
  } catch (const sc_core::sc_report& e) {
    std::cerr << "mesh_gpu: error: " << cli::sentence(e) << "\n";
    return 1;
  }
}
