#include "mem/mc_stage.h"

#include "common/report.h"

namespace gpusc {

void McStage::summarize(json&, const std::vector<const McStage*>&) const {}

void McStageRegistry::add(const std::string& name, Entry e) {
  if (name.empty()) error("gpusc.mc_stages", "a memory-partition stage needs a name");
  if (!e.params || !e.make)
    error("gpusc.mc_stages", "memory-partition stage '", name, "' is added without a parameter or a build function");
  if (!entries_.emplace(name, std::move(e)).second)
    error("gpusc.mc_stages", "memory-partition stage '", name, "' is added twice to one registry");
}

std::vector<std::string> McStageRegistry::names() const {
  std::vector<std::string> n;
  for (const auto& [k, e] : entries_) n.push_back(k);
  return n;
}

const McStageRegistry::Entry& McStageRegistry::at(const std::string& name, const std::string& where) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::string known;
    for (const auto& [k, e] : entries_) known += (known.empty() ? "" : ", ") + k;
    error("gpusc.params", "unknown memory-partition stage '", name, "' in ", where, "; known stages: ",
          known.empty() ? "none (this registry is empty)" : known);
  }
  return it->second;
}

}  // namespace gpusc
