#include "harness/scripted_initiator.h"

namespace gpusc::tb {

ScriptedInitiator::ScriptedInitiator(sc_core::sc_module_name name, ClockDomain& clk, PayloadPool& pool)
    : sc_core::sc_module(name), clk_(clk), pool_(pool) {
  out.on_accept([this] {
    sent_.back().accepted = clk_.now();
    clk_.wake_after_now(*this);
  });
}

void ScriptedInitiator::at(uint64_t cycle, Fill fill) {
  script_.emplace_back(cycle, std::move(fill));
  clk_.wake(*this, script_.front().first);
}

bool ScriptedInitiator::tick(uint64_t cycle) {
  if (script_.empty() || out.busy()) return false;
  if (script_.front().first > cycle) {
    clk_.wake(*this, script_.front().first);
    return false;
  }
  auto& gp = pool_.acquire();
  script_.front().second(gp, *gp.get_extension<MemExt>());
  script_.pop_front();
  sent_.push_back({cycle, UINT64_MAX});
  if (out.send(gp)) sent_.back().accepted = cycle;
  return !script_.empty() && !out.busy();
}

}  // namespace gpusc::tb
