#include "platforms/preset_catalog.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "common/report.h"
#include "platforms/paper_stages.h"
#include "workload/workload_factory.h"

namespace gpusc::cli {

namespace {
// Every list in `j` by its dotted path (lists are replaced, not merged, by a later layer).
void lists_of(const json& j, const std::string& path, std::map<std::string, json>& out) {
  if (j.is_array()) out[path] = j;
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it) lists_of(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
}
}  // namespace

json merge_presets(const PresetTexts& texts, const std::string& name, const std::string& program) {
  std::vector<std::string> parts;
  std::vector<json> layers;
  std::stringstream ss(name);
  for (std::string part; std::getline(ss, part, '+');) {
    const auto it = texts.find(part);
    if (it == texts.end()) {
      std::string known;
      for (const auto& [n, t] : texts) known += (known.empty() ? "" : ", ") + n;
      error(program, "unknown preset '", part, "' in '", name, "'; known presets and overlays: ", known);
    }
    parts.push_back(part);
    layers.push_back(parse_json(it->second, "preset " + part));
  }
  // Combinations a layer refuses ("excludes": {"other": "why"}), in either order.
  for (size_t i = 0; i < parts.size(); ++i) {
    const json ex = layers[i].value("excludes", json::object());
    if (!ex.is_object()) error(program, "preset '", parts[i], "': \"excludes\" must map overlay names to reasons");
    for (size_t j = 0; j < parts.size(); ++j) {
      if (i == j) continue;
      const auto r = ex.find(parts[j]);
      if (r != ex.end())
        error(program, "preset '", name, "' combines '", parts[i], "' and '", parts[j], "', which cannot be combined: ",
              r->is_string() ? r->get<std::string>() : r->dump());
    }
  }
  json cfg = json::object();
  std::map<std::string, std::pair<std::string, json>> lists;  // path -> (layer that set it, list)
  for (size_t i = 0; i < parts.size(); ++i) {
    json& layer = layers[i];
    layer.erase("description");
    layer.erase("sources");
    layer.erase("excludes");
    std::map<std::string, json> mine;
    lists_of(layer, "", mine);
    for (const auto& [path, list] : mine) {
      const auto prev = lists.find(path);
      if (prev != lists.end() && prev->second.second != list && !prev->second.second.empty())
        error(program, "preset '", name, "': '", parts[i], "' sets ", path, " = ", list.dump(), ", which would replace ",
              prev->second.second.dump(), " set by '", prev->second.first, "' (a list is not merged): the two "
              "mechanisms cannot be combined by name; where the hardware allows both, give the whole list with --set ",
              path, "=...");
      lists[path] = {parts[i], list};
    }
    cfg.merge_patch(layer);
  }
  return cfg;
}

std::string preset_description(const PresetTexts& texts, const std::string& name, const std::string& program) {
  const auto it = texts.find(name);
  if (it == texts.end()) error(program, "unknown preset '", name, "'");
  return parse_json(it->second, "preset " + name).value("description", std::string());
}

void catalog_row(std::ostringstream& os, const std::string& name, const std::string& text, size_t width) {
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

std::string catalog_listing(const PresetTexts& texts, const std::string& program, bool sm_front_stages) {
  std::ostringstream os;
  os << "presets and overlays (--preset NAME[+OVERLAY...]):\n";
  for (const auto& [n, text] : texts) catalog_row(os, n, preset_description(texts, n, program));
  os << "memory-partition stages (mc.stages, NI side first; parameters: mc.stage_params.NAME.KEY):\n";
  const McStageRegistry stages = paper_mc_stages();
  for (const auto& n : stages.names()) catalog_row(os, n, stages.at(n, program).description);
  if (sm_front_stages) {
    os << "SM-side stages (sm_front.stages, L1 side first; parameters: sm_front.stage_params.NAME.KEY):\n";
    const SmFrontRegistry front = paper_sm_front_stages();
    for (const auto& n : front.names()) catalog_row(os, n, front.at(n, program).description);
  }
  os << "workloads (--kernel NAME; parameters: --set workload.params.KEY=VALUE):\n";
  for (const auto& n : workload_names()) catalog_row(os, n, workload_description(n));
  return os.str();
}

}  // namespace gpusc::cli
