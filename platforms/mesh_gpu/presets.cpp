#include "platforms/mesh_gpu/presets.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "common/report.h"
#include "platforms/paper_stages.h"
#include "workload/workload_factory.h"

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

std::string preset_description(const std::string& name) {
  const auto it = preset_texts().find(name);
  if (it == preset_texts().end()) error("mesh_gpu", "unknown preset '", name, "'");
  return parse_json(it->second, "preset " + name).value("description", std::string());
}

namespace {
// "  name        text", text wrapped at `width` columns under its first column.
void row(std::ostringstream& os, const std::string& name, const std::string& text, size_t width = 100) {
  const size_t indent = 14;
  std::string line = "  " + name;
  line.resize(std::max(line.size() + 1, indent), ' ');
  std::istringstream words(text.empty() ? "(no description)" : text);
  bool first = true;
  for (std::string w; words >> w; first = false) {
    if (!first && line.size() + 1 + w.size() > width) {
      os << line << "\n";
      line = std::string(indent, ' ');
      first = true;
    }
    line += (first ? "" : " ") + w;
  }
  os << line << "\n";
}
}  // namespace

std::string listing() {
  std::ostringstream os;
  os << "presets and overlays (--preset NAME[+OVERLAY...]):\n";
  for (const auto& n : preset_names()) row(os, n, preset_description(n));
  os << "memory-partition stages (mc.stages, NI side first; parameters: mc.stage_params.NAME.KEY):\n";
  const McStageRegistry stages = paper_mc_stages();
  for (const auto& n : stages.names()) row(os, n, stages.at(n, "mesh_gpu").description);
  os << "SM-side stages (sm_front.stages, L1 side first; parameters: sm_front.stage_params.NAME.KEY):\n";
  const SmFrontRegistry front = paper_sm_front_stages();
  for (const auto& n : front.names()) row(os, n, front.at(n, "mesh_gpu").description);
  os << "workloads (--kernel NAME; parameters: --set workload.params.KEY=VALUE):\n";
  for (const auto& n : workload_names()) row(os, n, workload_description(n));
  return os.str();
}

}  // namespace gpusc::mesh_gpu
