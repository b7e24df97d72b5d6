// Presets of the MCM-GPU: JSON configs compiled into the binary from platforms/mcm_gpu/presets/,
// merged base first, overlays after ('+', platforms/preset_catalog.h): mcm_baseline+l15+ds+ft.
// Bases: mcm_baseline (paper 003 Table 3), mcm_small (8x smaller GPMs for tests), monolithic128,
// monolithic256 (one die, gpms = 1) and their small versions monolithic_small128/256,
// multigpu2x128, multigpu_small. Overlays: l15 (16 MB), l15_8mb, l15_32mb, ds, ft, opt
// (= l15_8mb+ds+ft), ideal_links, mgpu_opt. Also the catalog mcm_gpu --list prints.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc::mcm_gpu {

json preset(const std::string& name);
std::vector<std::string> preset_names();
std::string preset_description(const std::string& name);
std::string listing();

}  // namespace gpusc::mcm_gpu
