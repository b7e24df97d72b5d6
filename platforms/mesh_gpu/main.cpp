// mesh_gpu: runs one workload on the mesh-GPU platform and prints the paper-style summary.
// Thin command line over MeshGpu (DESIGN §6) and the shared RunOptions; run with --help.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <systemc>

#include "common/command_line.h"
#include "common/stats.h"
#include "common/trace.h"
#include "platforms/mesh_gpu/mesh_gpu.h"
#include "platforms/mesh_gpu/presets.h"
#include "platforms/run_options.h"
#include "workload/workload_factory.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsageHead = "usage: mesh_gpu [options]\n";
const char* kUsageTail = R"(
Memory placement and CTA scheduling (defaults: one block, fine-interleave, round-robin):
  --set blocks=N                      consecutive SMs and MCs form N blocks
  --set address_map.kind=first-touch  a page lives in the block that touched it first
                                      (address_map.page_bytes, 4096); else fine-interleave
  --set cta.policy=contiguous-groups  one contiguous group of CTA ids per block; or greedy
                                      (lowest SM with room first), round-robin
IPC is thread instructions per core cycle (GPGPU-Sim's definition); latencies are core cycles.
)";

// `mechanism`: the lines the memory-partition stages added (MeshGpu::mechanism_summary), printed
// by key after the platform's own figures.
void print_summary(const gpusc::json& s, const gpusc::json& mechanism) {
  auto num = [&](const char* k, const char* fmt) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, s.at(k).get<double>());
    return std::string(buf);
  };
  std::printf("%-34s %s\n", "workload", s.at("workload").get<std::string>().c_str());
  std::printf("%-34s %.1f\n", "workload footprint [MiB]", s.at("footprint_bytes").get<double>() / (1 << 20));
  std::printf("%-34s %s\n", "preset", s.at("preset").get<std::string>().c_str());
  std::printf("%-34s %llu\n", "cycles", static_cast<unsigned long long>(s.at("cycles").get<uint64_t>()));
  std::printf("%-34s %s\n", "IPC (thread instr / cycle)", num("ipc", "%.2f").c_str());
  std::printf("%-34s %s\n", "AMAT [cycles]", num("amat", "%.1f").c_str());
  std::printf("%-34s %s / %s / %s\n", "L1 miss: request/memory/reply", num("request_latency", "%.1f").c_str(),
              num("memory_latency", "%.1f").c_str(), num("reply_latency", "%.1f").c_str());
  std::printf("%-34s %s / %s\n", "L1 / L2 hit rate", num("l1_hit_rate", "%.3f").c_str(),
              num("l2_hit_rate", "%.3f").c_str());
  std::printf("%-34s %s\n", "MC stall ratio", num("mc_stall_ratio", "%.3f").c_str());
  std::printf("%-34s %s\n", "reply bytes / core / cycle", num("reply_bytes_per_core_cycle", "%.3f").c_str());
  std::printf("%-34s %llu / %llu\n", "injected packets request / reply",
              static_cast<unsigned long long>(s.at("request_packets").get<uint64_t>()),
              static_cast<unsigned long long>(s.at("reply_packets").get<uint64_t>()));
  std::printf("%-34s %s / %s\n", "link utilization max / mean", num("link_util_max", "%.3f").c_str(),
              num("link_util_mean", "%.3f").c_str());
  std::string loc;
  for (const auto& [w, r] : s.at("locality_ratio").items()) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s%s:%.2f", loc.empty() ? "" : " ", w.c_str(), r.get<double>());
    loc += buf;
  }
  std::printf("%-34s %s\n", "inter-core locality (window:ratio)", loc.c_str());
  for (const auto& [k, v] : mechanism.items()) {
    if (!v.is_number()) {
      std::printf("%-34s %s\n", k.c_str(), v.dump().c_str());
      continue;
    }
    const double x = v.get<double>();
    std::printf(x == static_cast<double>(static_cast<long long>(x)) ? "%-34s %.0f\n" : "%-34s %.3f\n", k.c_str(), x);
  }
  std::printf("%-34s %s\n", "wall seconds", num("wall_seconds", "%.1f").c_str());
}

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace gpusc;
  cli::plain_reports("mesh_gpu");
  const cli::Program prog{"mesh_gpu", kUsageHead, kUsageTail, "ics8x8", [] { return mesh_gpu::listing(); }};
  const cli::RunOptions o = cli::parse_run_options(argc, argv, prog);
  try {
    const cli::RunConfig rc = cli::assemble_config(o, mesh_gpu::preset(o.preset));
    const auto p = params_from_json<MeshGpu::Params>(rc.platform, "");
    auto workload = make_workload(rc.kernel, rc.kernel_params, rc.seed);
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
    if (!o.quiet) print_summary(summary, gpu.mechanism_summary());
    if (!finished)
      std::cerr << "mesh_gpu: stopped at --max-cycles " << o.max_cycles << " before the workload finished\n";
    if (!o.out.empty()) {
      json out = collect_stats();
      out["config"] = params_to_json(gpu.params());  // with the stages' effective parameters
      out["workload"] = {{"name", rc.kernel}, {"params", workload_effective_params(rc.kernel, rc.kernel_params)},
                         {"seed", rc.seed}};
      out["summary"] = summary;
      write_json_file(o.out, out);
    }
    if (trace) trace->close();
    return finished ? 0 : 3;
  } catch (const sc_core::sc_report& e) {
    std::cerr << "mesh_gpu: error: " << cli::sentence(e) << "\n";
    return 1;
  }
}
