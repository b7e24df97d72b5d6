// Shared by the platforms' command lines (platforms/*/main.cpp) and preset catalogs: the
// conventions of DESIGN §6 in one place. A platform keeps its usage text, its defaults and its
// Params; what is the same for every platform lives here:
//   * presets: JSON texts compiled in (name -> text); "base+overlay+..." merges them in order
//     (JSON merge patch; a list is replaced by a later layer); "description" is not config;
//   * the catalog rows --list prints (name, wrapped description);
//   * option parsing (--preset --config --kernel --set --seed --max-cycles --out --trace --list
//     --quiet --help), with usage errors exiting 2;
//   * the summary table every platform prints (Platform::summary() keys, then mechanism lines).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc::cli {

using PresetTexts = std::map<std::string, std::string>;

// The merged configuration of `name` ("a+b+c"); an unknown part is an error by `program`.
json merge_presets(const PresetTexts& texts, const std::string& name, const std::string& program);
// The "description" of one stored preset; an unknown name is an error by `program`.
std::string preset_description(const PresetTexts& texts, const std::string& name, const std::string& program);
// "  name        text", text wrapped at `width` columns under its first column.
void catalog_row(std::ostringstream& os, const std::string& name, const std::string& text, size_t width = 100);

struct Options {
  std::string preset, config, kernel, out, trace;
  std::vector<std::string> sets;
  uint64_t seed = 1, max_cycles = 20000000;
  bool seed_given = false, quiet = false;
};
// Parses argv; --help prints `usage`, --list prints listing(), both exit 0; errors exit 2.
Options parse_options(int argc, char** argv, const std::string& program, const char* usage,
                     const std::string& default_preset, const std::function<std::string()>& listing);
[[noreturn]] void usage_error(const std::string& program, const char* usage, const std::string& msg);

// The workload part of a merged config: cfg["workload"] is removed and checked.
struct WorkloadChoice {
  std::string name;
  json params;
  uint64_t seed;
};
WorkloadChoice take_workload(json& cfg, const std::string& program, const char* usage);

// The summary table: the platform's figures (keys of Platform::summary() plus workload,
// footprint_bytes, preset, wall_seconds), then `mechanism`'s lines by key.
void print_summary(const json& s, const json& mechanism);

}  // namespace gpusc::cli
