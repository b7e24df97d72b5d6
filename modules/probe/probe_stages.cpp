#include "probe/probe_stages.h"

#include "common/report.h"
#include "probe/probe_fabric.h"
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

}  // namespace gpusc
