#include "platforms/mesh_gpu/presets.h"

#include <map>
#include <sstream>

#include "common/report.h"

namespace gpusc::mesh_gpu {

// Generated at configure time: name -> JSON text of every presets/*.json file.
const std::map<std::string, std::string>& preset_texts();

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& [n, text] : preset_texts()) names.push_back(n);
  return names;
}

json preset(const std::string& name) {
  json cfg = json::object();
  std::stringstream ss(name);
  for (std::string part; std::getline(ss, part, '+');) {
    const auto it = preset_texts().find(part);
    if (it == preset_texts().end()) {
      std::string known;
      for (const auto& n : preset_names()) known += (known.empty() ? "" : ", ") + n;
      error("mesh_gpu", "unknown preset '", part, "' in '", name, "'; known presets and overlays: ", known);
    }
    json layer = parse_json(it->second, "preset " + part);
    layer.erase("description");
    cfg.merge_patch(layer);
  }
  return cfg;
}

}  // namespace gpusc::mesh_gpu
