// mcm_gpu: runs one workload on paper 003's MCM-GPU platform and prints the summary (cycles,
// IPC, latencies, inter-GPM traffic, L1.5 figures). Thin command line over McmGpu with the
// conventions of every gpusc platform (platforms/platform_cli.h); run with --help.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <systemc>

#include "common/command_line.h"
#include "common/stats.h"
#include "common/trace.h"
#include "platforms/mcm_gpu/mcm_gpu.h"
#include "platforms/mcm_gpu/presets.h"
#include "platforms/platform_cli.h"
#include "workload/workload_factory.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsage = R"(usage: mcm_gpu [options]
  --preset NAME[+OVERLAY...]  base configuration and overlays, merged in order (mcm_baseline);
                              e.g. mcm_baseline+l15+ds+ft, mcm_small+opt. --list shows them
  --config FILE               JSON merged over the preset: platform keys, and optionally
                              "workload": {"name": ..., "params": {...}, "seed": N}
  --kernel NAME               workload to run (bfs, gemm, ...; --list shows them)
  --set KEY=VALUE             override one key after preset and config, e.g.
                              --set link.bytes_per_cycle=384 --set gpm.sms=4
                              --set workload.params.size=small (repeatable)
  --seed S                    workload seed (1)
  --max-cycles N              stop after N core cycles even if the workload is not done (20000000)
  --out FILE                  write config, summary and all stats as JSON
  --trace FILE                write a Perfetto/Chrome transaction trace
  --list                      list presets, overlays and workloads
  --quiet                     no summary table
Mechanisms (paper 003 §5) as overlays: l15 / l15_8mb / l15_32mb (remote-only L1.5), ds
(distributed CTA scheduling), ft (first-touch pages), opt (all three, 8 MB L1.5 + 8 MB L2).
IPC is thread instructions per core cycle; latencies are core cycles; inter-GPM bytes count
every link a message crosses.
)";

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace gpusc;
  cli::plain_reports("mcm_gpu");
  const cli::Options o = cli::parse_options(argc, argv, "mcm_gpu", kUsage, "mcm_baseline", mcm_gpu::listing);
  try {
    json cfg = mcm_gpu::preset(o.preset);
    if (!o.config.empty()) cfg.merge_patch(load_json_file(o.config));
    if (!o.kernel.empty()) cfg["workload"]["name"] = o.kernel;
    if (o.seed_given) cfg["workload"]["seed"] = o.seed;
    for (const auto& s : o.sets) apply_override(cfg, s);
    const cli::WorkloadChoice wl = cli::take_workload(cfg, "mcm_gpu", kUsage);

    const auto p = params_from_json<McmGpu::Params>(cfg, "");
    auto workload = make_workload(wl.name, wl.params, wl.seed);
    McmGpu gpu("mcm", p, *workload);
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
    const json mechanism = gpu.mechanism_summary();
    for (const auto& [k, v] : mechanism.items()) summary[k] = v;
    if (!o.quiet) cli::print_summary(summary, mechanism);
    if (!finished) std::cerr << "mcm_gpu: stopped at --max-cycles " << o.max_cycles << " before the workload finished\n";
    if (!o.out.empty()) {
      json out = collect_stats();
      out["config"] = params_to_json(gpu.params());
      out["workload"] = {{"name", wl.name}, {"params", workload_effective_params(wl.name, wl.params)}, {"seed", wl.seed}};
      out["summary"] = summary;
      write_json_file(o.out, out);
    }
    return finished ? 0 : 3;
  } catch (const sc_core::sc_report& e) {
    std::cerr << "mcm_gpu: error: " << cli::sentence(e) << "\n";
    return 1;
  }
}
