// RunOptions: the command line every platform binary shares (mesh_gpu, and the MCM and multi-GPU
// platforms), parsed with Boost.Program_options, and the configuration it assembles: a preset
// (NAME[+OVERLAY...]), a --config JSON file merged over it, --kernel and --seed, then each --set
// KEY=VALUE; the "workload" section split off. Everything a user can get wrong is an error
// naming the option, the file or the key, before the simulation starts:
//   * counts (--seed, --max-cycles) are whole non-negative numbers: "-1", "1e3", "12x" refused;
//   * a --config file must hold a JSON object; a null anywhere in it is refused (JSON merge patch
//     would silently delete that part of the preset); "workload" must be an object with only
//     name, params and seed;
//   * an empty preset name or an empty part of one ("ics8x8+") is refused;
//   * --out and --trace must be non-empty and writable: checked up front by creating the file.
// A platform adds its own options (a description) and its --list text.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "common/params.h"

namespace gpusc::cli {

struct RunOptions {
  std::string preset, config, kernel, out, trace;
  std::vector<std::string> sets;
  uint64_t seed = 1, max_cycles = 20000000;
  bool seed_given = false, quiet = false;
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

}  // namespace gpusc::cli
