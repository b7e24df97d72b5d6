// multi_gpu: runs one workload on the multi-GPU platform of paper 004 (DCA baseline) and prints
// the paper-style summary with the fabric's figures. Thin command line over MultiGpu (DESIGN §6),
// modelled on mesh_gpu's (a shared command-line helper is for the merge); run with --help.
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
#include "platforms/multi_gpu/multi_gpu.h"
#include "platforms/multi_gpu/presets.h"
#include "workload/workload_factory.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsage = R"(usage: multi_gpu [options]
  --preset NAME[+OVERLAY...]  base configuration and overlays, merged in order (dca4);
                              e.g. dca4+small, dca4+gpus8. --list shows them
  --config FILE               JSON merged over the preset: platform keys, and optionally
                              "workload": {"name": ..., "params": {...}, "seed": N}
  --kernel NAME               workload to run (bfs, spmv, ...; --list shows them)
  --set KEY=VALUE             override one key after preset and config, e.g.
                              --set gpus=8 --set link.bytes_per_cycle=32
                              --set workload.params.size=small (repeatable)
  --seed S                    workload seed (1)
  --max-cycles N              stop after N core cycles even if the workload is not done (20000000)
  --out FILE                  write config, summary and all stats as JSON
  --trace FILE                write a Perfetto/Chrome transaction trace
  --list                      list presets, overlays and workloads
  --quiet                     no summary table
Unified memory and CTA scheduling (defaults: distributed pages, contiguous groups):
  --set page_map.kind=interleave      page p on GPU p mod gpus; or first-touch; distributed
                                      (default) splits every array into one run per GPU
  --set cta.policy=round-robin        or greedy; contiguous-groups (MGPUSim's partition) default
IPC is thread instructions per core cycle; latencies are core cycles; fabric bytes are link
bytes (headers and flit rounding included), each message counted once (GPU to switch).
)";

[[noreturn]] void usage_error(const std::string& msg) {
  std::cerr << "multi_gpu: " << msg << "\n\n" << kUsage;
  std::exit(2);
}

struct Options {
  std::string preset = "dca4", config, kernel, out, trace;
  std::vector<std::string> sets;
  uint64_t seed = 1, max_cycles = 20000000;
  bool seed_given = false, quiet = false;
};

uint64_t parse_count(const std::string& opt, const std::string& v) {
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || !end || *end) usage_error(opt + " needs a whole number, got '" + v + "'");
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") { std::cout << kUsage; std::exit(0); }
    if (a == "--quiet") { o.quiet = true; continue; }
    if (a == "--list") { std::cout << gpusc::multi_gpu::listing(); std::exit(0); }
    if (i + 1 >= argc) usage_error("unknown option '" + a + "', or it needs a value");
    const std::string v = argv[++i];
    if (a == "--preset") o.preset = v;
    else if (a == "--config") o.config = v;
    else if (a == "--kernel") o.kernel = v;
    else if (a == "--set") o.sets.push_back(v);
    else if (a == "--seed") { o.seed = parse_count(a, v); o.seed_given = true; }
    else if (a == "--max-cycles") o.max_cycles = parse_count(a, v);
    else if (a == "--out") o.out = v;
    else if (a == "--trace") o.trace = v;
    else usage_error("unknown option '" + a + "'");
  }
  return o;
}

// `mechanism`: the lines the stages and the platform added (MultiGpu::mechanism_summary), printed
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
  cli::plain_reports("multi_gpu");
  const Options o = parse(argc, argv);
  try {
    json cfg = multi_gpu::preset(o.preset);
    if (!o.config.empty()) cfg.merge_patch(load_json_file(o.config));
    if (!o.kernel.empty()) cfg["workload"]["name"] = o.kernel;
    if (o.seed_given) cfg["workload"]["seed"] = o.seed;
    for (const auto& s : o.sets) apply_override(cfg, s);
    json wl = cfg.contains("workload") ? cfg["workload"] : json::object();
    cfg.erase("workload");
    for (auto it = wl.begin(); it != wl.end(); ++it)
      if (it.key() != "name" && it.key() != "params" && it.key() != "seed")
        usage_error("unknown workload key '" + it.key() + "' (known: name, params, seed)");
    if (!wl.contains("name")) usage_error("no workload: give --kernel NAME (see --list)");
    const std::string kname = wl["name"].get<std::string>();
    const json kparams = wl.value("params", json::object());
    const uint64_t seed = wl.value("seed", uint64_t{1});

    const auto p = params_from_json<MultiGpu::Params>(cfg, "");
    auto workload = make_workload(kname, kparams, seed);
    MultiGpu gpu(p, *workload);
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
      std::cerr << "multi_gpu: stopped at --max-cycles " << o.max_cycles << " before the workload finished\n";
    if (!o.out.empty()) {
      json out = collect_stats();
      out["config"] = params_to_json(gpu.params());  // with the stages' effective parameters
      out["workload"] = {{"name", kname}, {"params", workload_effective_params(kname, kparams)}, {"seed", seed}};
      out["summary"] = summary;
      write_json_file(o.out, out);
    }
    return finished ? 0 : 3;
  } catch (const sc_core::sc_report& e) {
    std::cerr << "multi_gpu: error: " << cli::sentence(e) << "\n";
    return 1;
  }
}
