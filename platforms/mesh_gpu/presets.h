// Presets of the mesh GPU: JSON configs compiled into the binary from platforms/mesh_gpu/presets/.
// A preset name may add overlays with '+': "ics8x8+pcu+xy-yx" merges ics8x8.json, then pcu.json,
// then xy-yx.json (JSON merge patch), so every paper configuration is one name. A list (such as
// mc.stages) is replaced, not appended to, by a later layer, so a layer replacing another's
// different list is an error, as is a pair one layer "excludes" (platforms/preset_catalog.h). Also the catalog mesh_gpu --list
// prints: presets, overlays, memory-partition stages and workloads with one line about each.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc::mesh_gpu {

// The merged configuration of `name`; an unknown part is an error listing the known ones.
json preset(const std::string& name);
// Names of the stored preset files (bases and overlays), sorted.
std::vector<std::string> preset_names();
// The "description" of stored preset or overlay `name`; an unknown name is an error.
std::string preset_description(const std::string& name);
// The text of mesh_gpu --list: every preset and overlay, every memory-partition stage of the
// paper folders, then every workload, with its line.
std::string listing();

}  // namespace gpusc::mesh_gpu
