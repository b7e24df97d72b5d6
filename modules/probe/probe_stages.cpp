#include "probe/probe_stages.h"

#include "common/report.h"
#include "probe/probe_fabric.h"
#include "probe/last_sharer_llc.h"
#include "probe/probe_handler.h"

namespace gpusc {

void register_probe_stages(SmFrontRegistry& registry) {
  using probe::ProbeHandler;
  SmFrontRegistry::Entry e;
  e.description =
      "paper 000 probe handler per core: read misses predicted shared (PC predictor, or the ORACLE) probe remote "
      "L1s with two-level probing IP/RP(C,S,P), selective L2 requests with timeout, probe deflection; parameters "
      "sm_front.stage_params.probe.{sharing,c,s,p,selector,timeout,...}";
  e.params = [](const json& given, const std::string& where) {
    return params_to_json(params_from_json<ProbeHandler::Params>(given, where));
  };
  e.shared = [](const json& params, const SmFrontBlockContext& b) -> std::unique_ptr<SmFrontShared> {
    const auto p = params_from_json<ProbeHandler::Params>(params, "sm_front.stage_params.probe");
    return std::make_unique<probe::ProbeFabric>(b, p.deflection == "router");
  };
  e.make = [](const char* name, const json& params, const SmFrontContext& c) -> std::unique_ptr<SmFrontStage> {
    const auto p = params_from_json<ProbeHandler::Params>(params, "sm_front.stage_params.probe");
    auto* fabric = dynamic_cast<probe::ProbeFabric*>(c.shared);
    if (!fabric) error("gpusc.probe", "the probe stage of SM ", c.index, " was built without its block's ProbeFabric");
    if (p.c > c.sms - 1)
      error("gpusc.params", "parameter 'sm_front.stage_params.probe.c' = ", p.c, " is more target cores than the ",
            c.sms - 1, " other SMs of the block: it must be <= ", c.sms - 1);
    return std::make_unique<ProbeHandler>(name, p, c.clk, c.l1, c.node, c.index, *fabric);
  };
  registry.add("probe", std::move(e));
}

void register_probe_mc_stages(McStageRegistry& registry) {
  using probe::LastSharerLlc;
  McStageRegistry::Entry e;
  e.description =
      "paper 000 LA-LLC comparison point: the L2 keeps each line's last sharer and forwards an L2-hit read to it "
      "(the L2's read policy, no queue of its own; needs the 'probe' SM-side stage at every core); no parameters";
  e.params = stage_params_of<LastSharerLlc::Params>();
  e.make = [](const char* name, const json& params, const McStageContext& c) -> std::unique_ptr<McStage> {
    return std::make_unique<LastSharerLlc>(name, params_from_json<LastSharerLlc::Params>(params, "mc.stage_params.la_llc"),
                                           c);
  };
  registry.add("la_llc", std::move(e));
}

}  // namespace gpusc
