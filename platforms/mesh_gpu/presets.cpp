#include "platforms/mesh_gpu/presets.h"

#include <sstream>

#include "platforms/paper_stages.h"
#include "platforms/platform_cli.h"
#include "workload/workload_factory.h"

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

std::string listing() {
  std::ostringstream os;
  os << "presets and overlays (--preset NAME[+OVERLAY...]):\n";
  for (const auto& n : preset_names()) cli::catalog_row(os, n, preset_description(n));
  os << "memory-partition stages (mc.stages, NI side first; parameters: mc.stage_params.NAME.KEY):\n";
  const McStageRegistry stages = paper_mc_stages();
  for (const auto& n : stages.names()) cli::catalog_row(os, n, stages.at(n, "mesh_gpu").description);
  os << "workloads (--kernel NAME; parameters: --set workload.params.KEY=VALUE):\n";
  for (const auto& n : workload_names()) cli::catalog_row(os, n, workload_description(n));
  return os.str();
}

}  // namespace gpusc::mesh_gpu
