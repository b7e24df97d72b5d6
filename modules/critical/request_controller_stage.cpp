#include "critical/request_controller_stage.h"

#include "common/report.h"

namespace gpusc {

RequestControllerStage::RequestControllerStage(sc_core::sc_module_name name, const RequestController::Params& p,
                                               ClockDomain& clk, Cache& l1)
    : sc_core::sc_module(name), clk_(clk) {
  const unsigned line = l1.params().line_bytes;
  if (line % 32 != 0 || line / 32 < 2 || line / 32 > 32)
    error(this->name(), "the L1's line_bytes = ", line, " is not 2..32 sectors of 32 B; the request controller "
          "(paper 002 §4.1) decides per 32 B sector");
  rc_ = std::make_unique<RequestController>("rc", p, line / 32);
  rc_->attach(l1);
  l1_in.set_accept([this](tlm::tlm_generic_payload& gp) {
    if (net_out.busy()) return false;
    net_out.send(gp);
    return true;
  });
  net_in.set_accept([this](tlm::tlm_generic_payload& gp) {
    if (l1_out.busy()) return false;
    l1_out.send(gp);
    return true;
  });
  net_out.on_accept([this] { clk_.wake_after_now(*this); });
  l1_out.on_accept([this] { clk_.wake_after_now(*this); });
}

bool RequestControllerStage::tick(uint64_t) {
  l1_in.retry();
  net_in.retry();
  return false;  // a message held again is retried when the next unit frees (on_accept)
}

void RequestControllerStage::summarize(json& summary, const std::vector<const SmFrontStage*>& all) const {
  double partial = 0, decisions = 0;
  for (const SmFrontStage* s : all) {
    const auto* st = dynamic_cast<const RequestControllerStage*>(s);
    if (!st) error(name(), "summarize: a stage of another type is listed with the request controllers");
    partial += double(st->rc_->partial_decisions());
    decisions += double(st->rc_->decisions());
  }
  summary["rc_partial_share"] = decisions > 0 ? partial / decisions : 0.0;
}

}  // namespace gpusc
