#include "gpu/sm_front_stage.h"

#include "common/report.h"
#include "common/stage_params.h"

namespace gpusc {

void SmFrontStage::summarize(json&, const std::vector<const SmFrontStage*>&) const {}

void SmFrontRegistry::add(const std::string& name, Entry e) {
  if (name.empty()) error("gpusc.sm_front", "an SM-side stage needs a name");
  if (!e.params || !e.make)
    error("gpusc.sm_front", "SM-side stage '", name, "' is added without a parameter or a build function");
  if (!entries_.emplace(name, std::move(e)).second)
    error("gpusc.sm_front", "SM-side stage '", name, "' is added twice to one registry");
}

std::vector<std::string> SmFrontRegistry::names() const {
  std::vector<std::string> n;
  for (const auto& [k, e] : entries_) n.push_back(k);
  return n;
}

const SmFrontRegistry::Entry& SmFrontRegistry::at(const std::string& name, const std::string& where) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::string known;
    for (const auto& [k, e] : entries_) known += (known.empty() ? "" : ", ") + k;
    error("gpusc.params", "unknown SM-side stage '", name, "' in ", where, "; known stages: ",
          known.empty() ? "none (this registry is empty)" : known);
  }
  return it->second;
}

SmFrontParams SmFrontParams::with_defaults(const SmFrontParams& p, const SmFrontRegistry& registry,
                                           const std::string& where) {
  SmFrontParams q = p;
  q.stage_params = effective_stage_params(p.stages, p.stage_params, registry, where);
  return q;
}

}  // namespace gpusc
