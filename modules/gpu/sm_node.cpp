#include "gpu/sm_node.h"

#include "common/report.h"

namespace gpusc {

SmNode::SmNode(sc_core::sc_module_name name, const SmCore::Params& sm, const Cache::Params& l1, ClockDomain& clk,
               unsigned node, const Front& front)
    : sc_core::sc_module(name), node_(node), core_("core", sm, clk, node), l1_("l1", l1, clk, node) {
  core_.mem_out.bind(l1_.up_in);
  l1_.up_out.bind(core_.mem_in);
  if (front.params && !front.params->stages.empty()) build_front(front, clk);
}

void SmNode::build_front(const Front& f, ClockDomain& clk) {
  for (const std::string& s : f.params->stages) {
    if (s == "core" || s == "l1") error(name(), "an SM-side stage cannot be called '", s, "': the node's own unit has that name");
    const SmFrontRegistry::Entry& e = f.registry->at(s, std::string(name()) + ".sm_front.stages");
    const auto sh = f.shared.find(s);
    std::unique_ptr<SmFrontStage> st =
        e.make(s.c_str(), f.params->stage_params.at(s),
               SmFrontContext{clk, l1_, node_, f.index, f.sms, sh == f.shared.end() ? nullptr : sh->second});
    if (!st) error(name(), "SM-side stage '", s, "' was not built by its registry entry");
    if ((st->peer_in() != nullptr) != (st->peer_out() != nullptr))
      error(name(), "SM-side stage '", s, "' offers only one of peer_in() and peer_out(); a stage offers both or neither");
    if (st->peer_in()) {
      if (peer_in_)
        error(name(), "SM-side stages '", s, "' and another stage of the chain both take the node's peer traffic; at most one may");
      peer_in_ = st->peer_in();
      peer_out_ = st->peer_out();
    }
    // Chain: requests in list order, replies back.
    req_out_->bind(st->from_l1());
    st->to_l1().bind(*rep_in_);
    req_out_ = &st->to_net();
    rep_in_ = &st->from_net();
    front_.push_back(std::move(st));
    front_names_.push_back(s);
  }
}

bool SmNode::front_idle() const {
  for (const auto& s : front_)
    if (!s->idle()) return false;
  return true;
}

}  // namespace gpusc
