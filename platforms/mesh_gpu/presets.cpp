#include "platforms/mesh_gpu/presets.h"

#include "platforms/preset_catalog.h"

namespace gpusc::mesh_gpu {

// Generated at configure time: name -> JSON text of every presets/*.json file.
const std::map<std::string, std::string>& preset_texts();

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& [n, text] : preset_texts()) names.push_back(n);
  return names;
}

json preset(const std::string& name) { return cli::merge_presets(preset_texts(), name, "mesh_gpu"); }

std::string preset_description(const std::string& name) {
  return cli::preset_description(preset_texts(), name, "mesh_gpu");
}

std::string listing() { return cli::catalog_listing(preset_texts(), "mesh_gpu", /*sm_front_stages=*/true); }

}  // namespace gpusc::mesh_gpu
