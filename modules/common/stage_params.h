// Stage-chain parameters: the effective `stage_params` of a chain of named stages (the
// memory-partition stages of mem/mc_stage.h, the SM-side stages of gpu/sm_front_stage.h). For
// each stage listed, in order, its registry entry fills its defaults and checks the given keys;
// a stage listed twice, an unknown stage, and parameters for a stage that is not listed are
// errors naming `where` (e.g. "mc"). Registry: at(name, where) -> Entry with params(json, where).
#pragma once
#include <string>
#include <vector>

#include "common/params.h"
#include "common/report.h"

namespace gpusc {

template <class Registry>
json effective_stage_params(const std::vector<std::string>& stages, const json& given, const Registry& registry,
                            const std::string& where) {
  json out = json::object();
  for (size_t i = 0; i < stages.size(); ++i) {
    const std::string& s = stages[i];
    for (size_t j = 0; j < i; ++j)
      if (stages[j] == s)
        error("gpusc.params", "stage '", s, "' is listed twice in ", where, ".stages; a chain holds each stage once");
    const auto& e = registry.at(s, where + ".stages");
    const auto it = given.find(s);
    out[s] = e.params(it == given.end() ? json::object() : *it, where + ".stage_params." + s);
  }
  for (const auto& [name, value] : given.items())
    if (!out.contains(name)) {
      std::string listed;
      for (const auto& s : stages) listed += (listed.empty() ? "" : ", ") + s;
      error("gpusc.params", where, ".stage_params.", name, " configures a stage that is not in ", where, ".stages (",
            listed.empty() ? "empty" : listed, "); add it to the list or remove the key");
    }
  return out;
}

}  // namespace gpusc
