// Preset catalog helpers every platform's presets use (platforms/*/presets.cpp):
//   * presets: JSON texts compiled in (name -> text); "base+overlay+..." merges them in order
//     (JSON merge patch; a list is replaced by a later layer); "description" is not config;
//     "sources" (where each number comes from) is documentation, not config either;
//     "excludes" ({"overlay": "why"}) names the layers this one cannot be combined with: naming
//     both is an error giving the reason, in either order; and a layer that would replace a list
//     an earlier layer set (e.g. two overlays that each set mc.stages) is an error too, since the
//     earlier mechanism would silently vanish;
//   * the catalog --list prints: presets and overlays, memory-partition (and SM-side) stages,
//     workloads.
// The command line itself is platforms/run_options.h.
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
// The --list text of a platform: every stored preset and overlay, every memory-partition stage
// of the paper folders (and their SM-side stages when the platform takes sm_front), every
// workload, each with its line.
std::string catalog_listing(const PresetTexts& texts, const std::string& program, bool sm_front_stages = false);

}  // namespace gpusc::cli
