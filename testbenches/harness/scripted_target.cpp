#include "harness/scripted_target.h"

namespace gpusc::tb {

ScriptedTarget::ScriptedTarget(sc_core::sc_module_name name, ClockDomain& clk, unsigned queue_depth)
    : sc_core::sc_module(name), clk_(clk), depth_(queue_depth) {
  in.set_accept([this](tlm::tlm_generic_payload& gp) {
    if (queue_.size() >= depth_) return false;
    queue_.emplace_back(clk_.now(), &gp);
    clk_.wake_after_now(*this);
    return true;
  });
}

void ScriptedTarget::stall_until(uint64_t cycle) { stall_until_ = cycle; }

bool ScriptedTarget::tick(uint64_t cycle) {
  if (cycle < stall_until_) {
    clk_.wake(*this, stall_until_);
    return false;
  }
  if (queue_.empty()) return false;
  auto [arrived, gp] = queue_.front();
  queue_.pop_front();
  done_.push_back({arrived, cycle, gp->get_address(), gp->get_command(), gp->get_data_length(),
                   *gp->get_extension<MemExt>()});
  gp->release();
  in.retry();  // a withheld message may now enter the queue
  return !queue_.empty();
}

}  // namespace gpusc::tb
