// RunOptions: the command line every platform binary shares (mesh_gpu, and the MCM and multi-GPU
// platforms), parsed with Boost.Program_options, and the configuration it assembles: a preset
// (NAME[+OVERLAY...]), a --config JSON file merged over it, --kernel (or --trace-dir, an Accel-Sim
// trace folder) and --seed, then each --set
// KEY=VALUE; the "workload" section split off. Everything a user can get wrong is an error
// naming the option, the file or the key, before the simulation starts:
//   * counts (--seed, --max-cycles, --stall-cycles) are whole non-negative numbers: "-1", "1e3",
//     "12x" refused;
//   * a --config file must hold a JSON object; a null anywhere in it is refused (JSON merge patch
//     would silently delete that part of the preset); "workload" must be an object with only
//     name, params and seed;
//   * an empty preset name or an empty part of one ("ics8x8+") is refused;
//   * --out and --trace must be non-empty and writable: checked up front by creating the file;
//   * --memory-plugin LIB.so binds a third-party memory behind every partition with memory =
//     "external" (platforms/memory_plugin.h); an external memory without it is an error.
// A platform adds its own options (a description) and its --list text. run_main() is a whole
// platform binary's sc_main: options, configuration, workload, the run, the summary table and
// the stats JSON; a platform gives its name, usage, presets and how to build itself.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <systemc>

#include "common/command_line.h"
#include "common/params.h"
#include "common/trace.h"
#include "gpu/platform.h"
#include "platforms/memory_plugin.h"
#include "workload/kernel.h"
#include "workload/workload_factory.h"

namespace gpusc::cli {

// Typed option values for Boost.Program_options (po::value<Count>(), po::value<Fraction>()):
// Count: a whole non-negative number in decimal digits only (Boost's own cast would wrap "-1" and
// accept nothing better for "1e3"); Fraction: a finite decimal number in [0, 1] ("nan" refused).
struct Count {
  uint64_t v = 0;
};
struct Fraction {
  double v = 0;
};
void validate(boost::any& out, const std::vector<std::string>& values, Count*, int);
void validate(boost::any& out, const std::vector<std::string>& values, Fraction*, int);

// Why `path` cannot be written as an output file ("" if it can), found without changing it: an
// existing file is checked for write permission and kept as it is (a run refused later must not
// leave it empty); a new one is created and removed again.
std::string unwritable(const std::string& path);

struct RunOptions {
  std::string preset, config, kernel, trace_dir, out, trace, memory_plugin, memory_plugin_args;
  std::vector<std::string> sets;
  uint64_t seed = 1, max_cycles = 20000000, stall_cycles = 1000000;
  bool seed_given = false, quiet = false, progress = false;
};

// The configuration of one run: the platform's keys, and the workload's.
struct RunConfig {
  json platform;
  std::string kernel;
  json kernel_params = json::object();
  uint64_t seed = 1;
};

struct Program {
  std::string name;            // e.g. "mesh_gpu"
  std::string usage_head;      // first lines of --help, before the options
  std::string usage_tail;      // after them (notes)
  std::string default_preset;  // e.g. "ics8x8"
  std::function<std::string()> listing;  // --list text
};

// Parses argv. --help and --list print and exit 0; a usage error prints "name: message" and
// the usage and exits 2. `extra` adds platform-specific options (may be null).
RunOptions parse_run_options(int argc, char** argv, const Program& prog,
                             const boost::program_options::options_description* extra = nullptr,
                             boost::program_options::variables_map* vm = nullptr);

// The run's configuration from `preset` (the platform's merged preset JSON for o.preset) and the
// options; errors (gpusc::error from "gpusc.config") name the file or the key.
RunConfig assemble_config(const RunOptions& o, json preset);

// The summary table: the platform's figures (Platform::summary() keys plus workload,
// footprint_bytes, preset, wall_seconds), then `mechanism`'s lines by key.
void print_summary(const json& s, const json& mechanism);

// After a run: completes the summary (workload, footprint, preset, finished, stop = finished |
// max_cycles | deadlock, wall time), prints it unless --quiet, says why an unfinished run stopped,
// writes --out (every stat, the effective config, the workload and the summary).
// Exit status of run_main: 0 finished, 1 error, 2 usage, 3 stopped by --max-cycles, 4 deadlock
// (Platform::Stop: nothing left to simulate, or no SM progress for --stall-cycles).
void report_run(const RunOptions& o, const Program& prog, const RunConfig& rc, const Workload& workload,
                Platform::Stop stop, double wall_seconds, json summary, const json& mechanism, const json& config);

// The progress display of a run: one line on stderr, rewritten in place (simulated cycles,
// cycles per second, the running kernel's CTAs done / total and the time left for that kernel);
// empty when stderr is not a terminal (unless --progress) or with --quiet.
Platform::ProgressFn progress_line(const RunOptions& o);
// Clears the progress line, if one was drawn.
void end_progress_line(const RunOptions& o);

// A platform binary's sc_main. P has Params (params_from_json), run(max_cycles, progress, stall_cycles) -> bool, stop(),
// summary(), mechanism_summary() and params(); make(params, workload) builds one.
template <class P>
int run_main(int argc, char** argv, const Program& prog, const std::function<json(const std::string&)>& preset,
             const std::function<std::unique_ptr<P>(const typename P::Params&, Workload&)>& make) {
  plain_reports(prog.name);
  const RunOptions o = parse_run_options(argc, argv, prog);
  try {
    const RunConfig rc = assemble_config(o, preset(o.preset));
    const auto p = params_from_json<typename P::Params>(rc.platform, "");
    auto workload = make_workload(rc.kernel, rc.kernel_params, rc.seed);
    std::unique_ptr<P> platform = make(p, *workload);
    std::unique_ptr<MemoryPlugin> plugin;  // its models go before the platform they are bound to
    if (!o.memory_plugin.empty()) {
      plugin = std::make_unique<MemoryPlugin>(o.memory_plugin, o.memory_plugin_args);
      plugin->bind(platform->platform());
    } else {
      require_no_external_memory(platform->platform());
    }
    std::unique_ptr<TraceWriter> trace;
    if (!o.trace.empty()) {
      trace = std::make_unique<TraceWriter>(o.trace);
      attach_trace(trace.get());
    }
    const auto t0 = std::chrono::steady_clock::now();
    const bool finished = platform->run(o.max_cycles, progress_line(o), o.stall_cycles);
    end_progress_line(o);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (trace) {
      attach_trace(nullptr);
      trace->close();
    }
    const Platform::Stop stop = platform->stop();
    report_run(o, prog, rc, *workload, stop, wall, platform->summary(), platform->mechanism_summary(),
               params_to_json(platform->params()));
    return finished ? 0 : stop == Platform::Stop::deadlock ? 4 : 3;
  } catch (const sc_core::sc_report& e) {
    std::cerr << prog.name << ": error: " << sentence(e) << "\n";
    return 1;
  }
}

}  // namespace gpusc::cli
