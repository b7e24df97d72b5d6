#include "multigpu/page_fault_stage.h"

#include "common/report.h"

namespace gpusc::multigpu {

PageFaultStage::PageFaultStage(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Context c)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      c_(std::move(c)),
      held_(stats_.counter("held", Unit::Count, "requests that waited for a fault, a migration or a drain")),
      hold_cycles_(stats_.counter("hold_cycles", Unit::Cycles, "cycles held requests waited at the head")),
      remote_(stats_.counter("remote", Unit::Count, "requests sent to another GPU's memory")) {
  validate(p_, this->name());
  if (!c_.engine || !c_.owner || !c_.route) error(this->name(), "needs the engine, the owner and the route hooks");
  from_l1_.set_accept([this](tlm::tlm_generic_payload& gp) {
    if (down_.size() >= p_.queue) return false;
    const uint64_t at = clk_.cycle_after(sc_core::sc_time_stamp());
    down_.push_back(Timed{at, &gp});
    clk_.wake(*this, at);
    return true;
  });
  from_net_.set_accept([this](tlm::tlm_generic_payload& gp) {
    const uint64_t at = clk_.cycle_after(sc_core::sc_time_stamp());
    up_.push_back(Timed{at, &gp});
    clk_.wake(*this, at);
    return true;
  });
  to_net_.on_accept([this] { clk_.wake_after_now(*this); });
  to_l1_.on_accept([this] { clk_.wake_after_now(*this); });
  c_.engine->subscribe([this] {
    if (held_since_ != UINT64_MAX) clk_.wake_after_now(*this);
  });
}

bool PageFaultStage::tick(uint64_t cycle) {
  if (!down_.empty() && !to_net_.busy() && down_.front().at <= cycle) {
    tlm::tlm_generic_payload* gp = down_.front().gp;
    if (c_.engine->check(c_.gpu, gp->get_address())) {
      if (held_since_ != UINT64_MAX) {
        hold_cycles_ += cycle - held_since_;
        held_since_ = UINT64_MAX;
      }
      down_.pop_front();
      from_l1_.retry();
      MemExt& e = mem_ext(*gp, name());
      c_.route(*gp, e);  // its page may have moved while it waited
      const bool remote = c_.owner(gp->get_address()) != c_.gpu;
      remote_ += remote;
      in_flight_.emplace(gp, remote);
      c_.engine->sent(c_.gpu, remote);
      to_net_.send(*gp);
    } else if (held_since_ == UINT64_MAX) {
      held_since_ = cycle;
      ++held_;
    }
  }
  if (!up_.empty() && !to_l1_.busy() && up_.front().at <= cycle) {
    tlm::tlm_generic_payload* gp = up_.front().gp;
    up_.pop_front();
    const auto it = in_flight_.find(gp);
    if (it == in_flight_.end()) error(name(), "a reply for a request this stage did not send");
    c_.engine->replied(c_.gpu, it->second);
    in_flight_.erase(it);
    to_l1_.send(*gp);
  }
  // A held head sleeps until the engine wakes the stage; a busy port wakes it on_accept.
  return (!down_.empty() && !to_net_.busy() && held_since_ == UINT64_MAX) || (!up_.empty() && !to_l1_.busy());
}

bool PageFaultStage::idle() const {
  return down_.empty() && up_.empty() && in_flight_.empty() && !to_net_.busy() && !to_l1_.busy() &&
         !from_l1_.has_pending() && !from_net_.has_pending();
}

void PageFaultStage::summarize(json& s, const std::vector<const SmFrontStage*>& all) const {
  uint64_t held = 0, cycles = 0;
  for (const SmFrontStage* st : all)
    if (auto* m = dynamic_cast<const PageFaultStage*>(st)) held += m->held(), cycles += m->hold_cycles();
  s["pm_requests_held"] = held;
  s["pm_hold_cycles"] = cycles;
}

void register_page_fault_stage(SmFrontRegistry& registry, std::function<PageFaultStage::Context(unsigned node)> context_for) {
  SmFrontRegistry::Entry e;
  e.description =
      "paper 004 page-migration baseline at a CU: requests to remote unpinned pages fault and wait for the page, "
      "requests wait while a migration drains the GPUs; parameters sm_front.stage_params.page_fault";
  e.params = [](const json& given, const std::string& where) {
    return params_to_json(params_from_json<PageFaultStage::Params>(given, where));
  };
  e.make = [context_for](const char* name, const json& params, const SmFrontContext& c) -> std::unique_ptr<SmFrontStage> {
    const auto p = params_from_json<PageFaultStage::Params>(params, "sm_front.stage_params.page_fault");
    return std::make_unique<PageFaultStage>(name, p, c.clk, context_for(c.node));
  };
  registry.add("page_fault", std::move(e));
}

}  // namespace gpusc::multigpu
