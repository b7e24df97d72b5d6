// Presets of the mesh GPU: JSON configs compiled into the binary from platforms/mesh_gpu/presets/.
// A preset name may add overlays with '+': "ics8x8+pcu+xy-yx" merges ics8x8.json, then pcu.json,
// then xy-yx.json (JSON merge patch), so every paper configuration is one name.
#pragma once
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc::mesh_gpu {

// The merged configuration of `name`; an unknown part is an error listing the known ones.
json preset(const std::string& name);
// Names of the stored preset files (bases and overlays), sorted.
std::vector<std::string> preset_names();

}  // namespace gpusc::mesh_gpu
